import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/auth.tables';
import { bots } from '../bots.tables';

/**
 * Parameter optimisations of a bot (POST /api/bots/optimize): the request as validated, where it is,
 * and its summary once done. A user has at most one queued or running (the partial unique index, so
 * two requests racing cannot both start one).
 */
export const botOptimizations = pgTable(
  'bot_optimizations',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    /** queued | running | completed | cancelled | failed. */
    state: text('state').notNull(),
    /** The request as validated (TOptimizeRequest with its seed), and the parameter sets to try. */
    request: jsonb('request').notNull(),
    trialsTotal: integer('trials_total').notNull(),
    trialsDone: integer('trials_done').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Moved on each trial: a queued or running one not moved for long was abandoned (its process died). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('bot_optimizations_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('bot_optimizations_one_active_per_user')
      .on(table.userId)
      .where(sql`${table.state} in ('queued', 'running')`),
  ],
);

/** Each trial of an optimisation: its parameter set and every fold's figures (TOptimizeTrial). */
export const botOptimizationTrials = pgTable(
  'bot_optimization_trials',
  {
    optimizationId: uuid('optimization_id')
      .notNull()
      .references(() => botOptimizations.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    parameters: jsonb('parameters').notNull(),
    folds: jsonb('folds').notNull(),
    inSampleObjective: doublePrecision('in_sample_objective'),
    outOfSampleObjective: doublePrecision('out_of_sample_objective'),
    error: text('error'),
  },
  (table) => [primaryKey({ columns: [table.optimizationId, table.seq] })],
);
