import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { users } from '../src/modules/auth/auth.tables';
import { openTestDatabase, readPgliteTemplate, type TestDatabase } from './helpers/test-app';

// Reconnecting takes real network time; this bounds the wait, it is not a delay.
const RECONNECT_WAIT = { timeout: 10_000, interval: 50 };

// Two PGlite instances on one directory would each write its files with their own buffers.
describe('the embedded database directory', () => {
  it('opens in one place at a time, and again once closed', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-pglite-lock-'));
    const template = await readPgliteTemplate();
    try {
      const first = await openDatabase({ kind: 'pglite', dataDir, template });
      await expect(openDatabase({ kind: 'pglite', dataDir, template })).rejects.toThrow(
        /already open in this process/,
      );
      await first.close();
      const again = await openDatabase({ kind: 'pglite', dataDir, template });
      await again.close();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

// PGlite is opened and migrated by every integration test file; these cover what only PostgreSQL does.
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL LISTEN/NOTIFY', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
  });

  afterAll(async () => {
    await database?.cleanup();
  });

  it('is migrated: every table exists and starts empty', async () => {
    expect(await database.database.db.select().from(users)).toEqual([]);
  });

  it('delivers a NOTIFY to its listeners until they unsubscribe', async () => {
    const received: string[] = [];
    const unsubscribe = await database.database.listen('solterm_test_channel', (payload) =>
      received.push(payload),
    );

    await database.database.notify('solterm_test_channel', 'first');
    await vi.waitFor(() => expect(received).toEqual(['first']), RECONNECT_WAIT);
    await unsubscribe();
    await database.database.notify('solterm_test_channel', 'second');
    // A later payload on another channel proves the first channel's queue has been processed.
    const marker: string[] = [];
    await database.database.listen('solterm_test_marker', (payload) => marker.push(payload));
    await database.database.notify('solterm_test_marker', 'done');
    await vi.waitFor(() => expect(marker).toEqual(['done']), RECONNECT_WAIT);

    expect(received).toEqual(['first']);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL connections', () => {
  let shared: TestDatabase;
  const extra: Database[] = [];

  beforeAll(async () => {
    shared = await openTestDatabase('postgres');
  });

  afterAll(async () => {
    for (const database of extra) await database.close();
    await shared?.cleanup();
  });

  async function terminateConnections(): Promise<number> {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const name = new URL(shared.url!).pathname.slice(1);
      const result = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return result.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  it('several processes can open (and migrate) one database at the same time', async () => {
    const opened = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: shared.url! })),
    );
    extra.push(...opened);

    for (const database of opened) expect(await database.db.select().from(users)).toEqual([]);
  });

  it('survives the server dropping its connections: queries recover and LISTEN resumes', async () => {
    const received: string[] = [];
    await shared.database.listen('solterm_resilience', (payload) => received.push(payload));
    await shared.database.notify('solterm_resilience', 'before');
    await vi.waitFor(() => expect(received).toEqual(['before']), RECONNECT_WAIT);

    expect(await terminateConnections()).toBeGreaterThan(0);

    // The pool replaces its dropped clients; the first query after the drop may still fail.
    await vi.waitFor(
      async () => expect(await shared.database.db.select().from(users)).toEqual([]),
      RECONNECT_WAIT,
    );
    await vi.waitFor(async () => {
      await shared.database.notify('solterm_resilience', 'after');
      expect(received).toContain('after');
    }, RECONNECT_WAIT);
  });
});
