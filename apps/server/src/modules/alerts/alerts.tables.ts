import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables';

/**
 * Alerts a user set: `rule` holds the kind's fields as created (TAlertCreate without kind/channels).
 * A price alert fires once (status active → triggered, claimed by that update); bot and futures
 * alerts stay active and fire once per event (the notifications' unique trigger key).
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** price | bot | liquidation_risk. */
    kind: text('kind').notNull(),
    rule: jsonb('rule').notNull(),
    /** in_app, email, webhook: where its notifications go. */
    channels: jsonb('channels').notNull(),
    /** active | triggered. */
    status: text('status').notNull().default('active'),
    /** change_percent without a window: the pair's price at creation. */
    referencePrice: text('reference_price'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    triggeredAt: timestamp('triggered_at', { withTimezone: true }),
  },
  (table) => [
    index('alerts_user_idx').on(table.userId, table.createdAt),
    index('alerts_status_idx').on(table.status),
  ],
);

/**
 * What fired: one row per trigger. `triggerKey` names the trigger within its alert (the price
 * alert's one firing, a bot run's event, a position entering the risk zone), and the unique index
 * makes a second insert of the same trigger — another pass, another process — a no-op.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id').references(() => alerts.id, { onDelete: 'set null' }),
    /** The alert's id when fired (kept when the alert is deleted: the unique key still holds). */
    sourceAlertId: uuid('source_alert_id').notNull(),
    triggerKey: text('trigger_key').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('notifications_trigger_idx').on(table.sourceAlertId, table.triggerKey),
    index('notifications_user_idx').on(table.userId, table.createdAt),
    index('notifications_unread_idx')
      .on(table.userId)
      .where(sql`${table.readAt} is null`),
  ],
);

/** Each user's webhook: one URL and the HMAC-SHA256 secret its bodies are signed with. */
export const alertWebhooks = pgTable('alert_webhooks', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * Email and webhook deliveries of notifications, retried with backoff by the deliveries job. The
 * body is fixed at the trigger (a retry sends the same bytes and the same signature).
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** email | webhook. */
    channel: text('channel').notNull(),
    /** The URL or the email address. */
    target: text('target').notNull(),
    /** The webhook body or the email's JSON ({subject, text}). */
    payload: text('payload').notNull(),
    /** pending | delivered | failed. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('alert_deliveries_due_idx').on(table.status, table.nextAttemptAt),
    index('alert_deliveries_user_idx').on(table.userId, table.createdAt),
  ],
);
