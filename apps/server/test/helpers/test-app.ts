import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App, type BuildOptions } from '../../src/app';
import { loadConfig, type AppConfig } from '../../src/config/env';
import { openDatabase, type Database } from '../../src/db/database';

export type DatabaseTarget = 'pglite' | 'postgres';

/** The JWT secret every test app signs with (40 characters; tests forge tokens with other secrets). */
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdefghijklmn';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function databaseTargets(): DatabaseTarget[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * PGlite only, for files whose requests never meet what PostgreSQL does differently: no concurrent
 * writers on a pooled connection, no row locks, no NOTIFY across processes, no constraint races —
 * validation, headers, static files, in-memory limits. A file that reaches any of those runs on both
 * ({@link databaseTargets}).
 */
export function databaseAgnosticTargets(): DatabaseTarget[] {
  return ['pglite'];
}

export interface TestDatabase {
  target: DatabaseTarget;
  database: Database;
  /** The connection string of the fresh PostgreSQL database (postgres target only). */
  url?: string;
  /** Closes the database and, for PostgreSQL, drops it. */
  cleanup(): Promise<void>;
}

let pgliteTemplate: Promise<Blob | undefined> | undefined;

/** The migrated data directory the server project's global setup dumped (setup/pglite-template.ts). */
export function readPgliteTemplate(): Promise<Blob | undefined> {
  pgliteTemplate ??= (async () => {
    const file = inject('pgliteTemplate');
    return file ? new Blob([await fs.readFile(file)], { type: 'application/x-tar' }) : undefined;
  })();
  return pgliteTemplate;
}

/** A migrated, empty database: in-memory PGlite, or a fresh uniquely named PostgreSQL database. */
export async function openTestDatabase(target: DatabaseTarget): Promise<TestDatabase> {
  if (target === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', template: await readPgliteTemplate() });
    return { target, database, cleanup: () => database.close() };
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `solterm_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  let cleaned = false;
  return {
    target,
    database,
    url: url.toString(),
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      await database.close();
      await withAdmin(adminUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
      );
    },
  };
}

async function withAdmin(url: string, run: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

/** A clock the tests move by hand; every service of the app reads it. */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

export function createClock(start: Date = new Date()): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
  };
}

export interface TestApp extends App {
  config: AppConfig;
  clock: TestClock;
}

export interface TestAppOptions {
  /** Shares an open database (one per test file); the app then leaves it open on close. */
  database?: TestDatabase;
  /** Opens (and on close, disposes of) a database of its own when `database` is not given. */
  target?: DatabaseTarget;
  /** Settings layered over the test defaults. */
  env?: Record<string, string>;
  clock?: TestClock;
  /** The embedded cluster (SOLANA_RPC_URL unset): in memory (default) or under DATA_DIR/localnet. */
  embeddedCluster?: 'memory' | 'data-dir';
  /** A DATA_DIR the caller owns (kept on close), so a second app can restart on the same state. */
  dataDir?: string;
  /** Wraps the JSON-RPC transport of every chain call (helpers/rpc-faults.ts). */
  wrapRpcTransport?: BuildOptions['wrapRpcTransport'];
  /** Stops a server-signed send at a crash point (a test throws there, as a kill would stop it). */
  relayCrashPoint?: BuildOptions['relayCrashPoint'];
}

/** Builds the real app (not listening) with test settings, a temporary DATA_DIR and a built-web stand-in. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = options.database ? undefined : await openTestDatabase(options.target ?? 'pglite');
  const testDatabase = options.database ?? ownDatabase!;
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-test-data-')));
  const webDistDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-test-web-'));
  await fs.writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><html><head><title>solterm</title></head><body><div id="root"></div></body></html>',
  );
  await fs.mkdir(path.join(webDistDir, 'assets'));
  await fs.writeFile(path.join(webDistDir, 'assets', 'index-abc123.js'), 'console.log("solterm");');
  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_MAX: '1000',
    // Tests reach /rpc far more often than one client may; the limit's own test lowers it.
    RPC_RATE_LIMIT_MAX: '100000',
    WEB_DIST_DIR: webDistDir,
    ...options.env,
  });
  const clock = options.clock ?? createClock();
  const app = await buildApp(config, {
    database: testDatabase.database,
    now: clock.now,
    embeddedCluster: options.embeddedCluster === 'data-dir' ? undefined : 'memory',
    wrapRpcTransport: options.wrapRpcTransport,
    relayCrashPoint: options.relayCrashPoint,
  });
  return {
    ...app,
    config,
    clock,
    async close() {
      await app.close();
      await ownDatabase?.cleanup();
      if (!options.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(webDistDir, { recursive: true, force: true });
    },
  };
}

/** A unique email per call, so tests sharing one database never collide. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

export const TEST_PASSWORD = 'correct horse battery';

export interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  code: string;
  field?: string;
}

/** `server.inject` plus the parsed JSON body. */
export async function call<T = Record<string, unknown>>(
  app: App,
  options: InjectOptions,
): Promise<{ status: number; body: Envelope<T>; response: LightMyRequestResponse }> {
  const response = await app.server.inject(options);
  return { status: response.statusCode, body: response.json<Envelope<T>>(), response };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export interface AuthData {
  token: string;
  expires_at: string;
  user: {
    id: string;
    username: string;
    email: string | null;
    solana_wallet_address: string | null;
    wallet_type: string | null;
    is_watch_only: boolean;
    has_password: boolean;
  };
}

/** Registers a fresh email-and-password account. */
export async function registerUser(
  app: App,
  overrides: Partial<{ username: string; email: string; password: string }> = {},
): Promise<AuthData & { email: string; password: string }> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? TEST_PASSWORD;
  const { status, body } = await call<AuthData>(app, {
    method: 'POST',
    url: '/api/auth/register',
    payload: { username: overrides.username ?? 'tester', email, password },
  });
  if (status !== 200) throw new Error(`register failed: ${status} ${JSON.stringify(body)}`);
  return { ...body.data, email, password };
}

/** Counts the rows of each table in one query (to prove a rejected request stored nothing). */
export async function countRows<T extends string>(app: App, ...tables: T[]): Promise<Record<T, number>> {
  // Table names come from the tests themselves, never from input.
  const columns = tables.map((table) => `(select count(*)::int from ${table}) as "${table}"`).join(', ');
  const result = await app.database.db.execute(`select ${columns}`);
  // PGlite and node-postgres both answer with `{ rows }`.
  const { rows } = result as unknown as { rows: Record<T, number>[] };
  return rows[0]!;
}

export interface CapturedLog {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: unknown;
}

/**
 * Records what route handlers and the error handler log through `request.log`, even at LOG_LEVEL
 * silent (the wrapped methods still reach pino, which drops them). Call before the first request.
 */
export function captureRequestLogs(app: App): CapturedLog[] {
  const captured: CapturedLog[] = [];
  app.server.addHook('onRequest', async (request) => {
    for (const level of ['info', 'warn', 'error'] as const) {
      const original = request.log[level].bind(request.log) as (...args: unknown[]) => void;
      (request.log as unknown as Record<string, unknown>)[level] = (...args: unknown[]) => {
        const [first, second] = args;
        captured.push({
          level,
          message: typeof first === 'string' ? first : String(second ?? ''),
          fields: typeof first === 'string' ? undefined : first,
        });
        original(...args);
      };
    }
  });
  return captured;
}
