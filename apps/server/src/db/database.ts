import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ROOT } from '../lib/server-root';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from '@solterm/localnet/data-dir-lock';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { usePreparedStatements } from './pglite-statements';
import * as schema from './schema';

export type Schema = typeof schema;
/** The typed Drizzle handle, the same type over PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

/** A connected, migrated database plus the notification channel used for cross-process fan-out. */
export interface Database {
  readonly kind: DatabaseKind;
  readonly db: Db;
  /** Publishes a payload on a Postgres channel (NOTIFY); delivered to every listener in every process. */
  notify(channel: string, payload: string): Promise<void>;
  /** Subscribes to a Postgres channel (LISTEN). Returns an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(SERVER_ROOT, 'drizzle');
/** The build's template beside the bundle (scripts/build-server.mjs writes it under this name). */
const PGLITE_TEMPLATE_FILE = 'pglite-template.tar';
// Serialises migrations when several server processes start against one PostgreSQL at once.
const MIGRATION_LOCK_ID = 727_001;

export type DatabaseOptions =
  | { kind: 'postgres'; url: string }
  | {
      kind: 'pglite';
      dataDir?: string /* undefined = in memory */;
      /**
       * A new database starts from this dump (PGlite dumpDataDir) instead of initdb: always in
       * memory, and in a data directory that holds no database yet.
       */
      template?: Blob | (() => Promise<Blob | undefined>);
    };

/** Opens the configured database and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.kind === 'postgres'
    ? openPostgres(options.url)
    : openPglite(options.dataDir, options.template);
}

async function openPglite(
  dataDir: string | undefined,
  template: Blob | (() => Promise<Blob | undefined>) | undefined,
): Promise<Database> {
  if (dataDir) await fs.mkdir(dataDir, { recursive: true });
  // PGlite is the database server itself: a second process (or instance) on the same directory
  // would write the same files with its own buffers, and caches that trust this process to see
  // every write (the auth repository's) would miss the other's.
  const unlock = dataDir ? await lockDataDir(dataDir) : async () => undefined;
  let client: PGlite;
  let db: ReturnType<typeof drizzlePglite<typeof schema>>;
  try {
    const fresh = !dataDir || !(await exists(path.join(dataDir, 'PG_VERSION')));
    const loadDataDir =
      fresh && template ? (typeof template === 'function' ? await template() : template) : undefined;
    client = dataDir ? new PGlite(dataDir, { loadDataDir }) : new PGlite({ loadDataDir });
    db = drizzlePglite(client, { schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    usePreparedStatements(client);
  } catch (error) {
    await unlock();
    throw error;
  }
  return {
    kind: 'pglite',
    db: db as unknown as Db,
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return async () => unlisten();
    },
    async close() {
      try {
        await client.close();
      } finally {
        await unlock();
      }
    },
  };
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/**
 * The migrated, empty data directory `npm run build` dumps beside the compiled server
 * (scripts/build-server.mjs): a first start loads it instead of running initdb and every migration
 * (the migrations then find nothing to do). Absent when running from the TypeScript sources.
 */
export async function builtPgliteTemplate(): Promise<Blob | undefined> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), PGLITE_TEMPLATE_FILE);
  try {
    return new Blob([await fs.readFile(file)], { type: 'application/x-tar' });
  } catch {
    return undefined;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = drizzlePg(pool, { schema });
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lockClient.release();
  }

  // A client that fails while idle (a server restart, an idle timeout) is dropped by the pool, which
  // then opens a new one; without a handler its 'error' event would crash the process.
  pool.on('error', () => undefined);

  // LISTEN needs one dedicated connection for the life of the process, opened on first use. If it
  // drops, it is reopened (retrying while the server is away) and listens to every channel again.
  let listener: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', () => {
      void client.end().catch(() => undefined);
      if (listener !== client) return;
      listener = undefined;
      reconnect(0);
    });
    try {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) throw new Error('database closed');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    listener = client;
    return client;
  }

  function getListener(): Promise<pg.Client> {
    if (listener) return Promise.resolve(listener);
    connecting ??= connectListener().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  function reconnect(attempt: number): void {
    if (closed) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        getListener().catch(() => reconnect(attempt + 1));
      },
      Math.min(30_000, 250 * 2 ** attempt),
    );
    retryTimer.unref();
  }

  return {
    kind: 'postgres',
    db: db as unknown as Db,
    async notify(channel, payload) {
      await db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    async listen(channel, onPayload) {
      const client = await getListener();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
