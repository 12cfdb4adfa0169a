import type { KeyPairSigner } from '@solana/kit';
import type { FastifyBaseLogger, preHandlerAsyncHookHandler } from 'fastify';
import type { AppConfig } from '../config/env';
import type { Database } from '../db/database';
import type { RecurringJob, Task } from '../jobs/scheduler';
import type { HotAnswers } from './hot-answers';
import type { ZodApp } from './zod-app';

/** The local cluster's privileged keys: the embedded cluster's own, or a standalone one's files. */
export interface ClusterKeys {
  /** Mint authority of the cluster's tokens (the faucet's USDC, the perp venue's funding). */
  treasury: KeyPairSigner;
  /** The local RFQ market maker. */
  marketMaker: KeyPairSigner;
}

/** What every module factory is given: the parsed configuration, the log, the clock, the database. */
export interface ModuleContext {
  config: AppConfig;
  log: FastifyBaseLogger;
  now: () => Date;
  database: Database;
  /** Absent on a real cluster: the local venues (RFQ, perps) need them. */
  clusterKeys?: ClusterKeys;
  /** A key of the server's own venues (`name` under DATA_DIR; a fresh one with an in-memory cluster). */
  venueKey(name: string): Promise<KeyPairSigner>;
}

/**
 * What a module's routes are registered with: the auth pre-handler, the server's version, and the
 * answers served before Fastify routes a request (hot-answers.ts).
 */
export interface HttpContext {
  requireAuth: preHandlerAsyncHookHandler;
  version: string;
  hot: HotAnswers;
}

/** A module's background work, registered with the scheduler by the composition root. */
export interface ModuleJobs {
  /** Jobs one process at a time runs: registered where jobs run (JOBS on, and the worker). */
  singletons?: RecurringJob[];
  /** On-demand work: registered where jobs run, and always in the embedded single process. */
  tasks?: Task<never, unknown>[];
  /** Work each API process runs for its own sockets (the worker has none). */
  perApiProcess?: RecurringJob[];
}

/**
 * What a module factory (`createXModule(context, deps)`) gives the composition root: its service(s)
 * in `service`, and only the parts that apply — its jobs, its routes, what to release at close.
 * Ticket kinds register themselves with the relay the module's services are given; realtime channels
 * are declared in @solterm/contracts (CHANNELS) and published through the hub the module is given.
 */
export interface ServerModule<Service> {
  readonly service: Service;
  readonly jobs?: ModuleJobs;
  routes?(server: ZodApp, http: HttpContext): void;
  /** Releases what the module holds; modules close in the reverse order of their creation. */
  close?(): Promise<void>;
}

/** Types a factory's answer: a module, plus what its dependents read besides (its events, its keeper). */
export function defineModule<Service, Extra extends object>(
  module: ServerModule<Service> & Extra,
): ServerModule<Service> & Extra {
  return module;
}
