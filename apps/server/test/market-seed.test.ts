import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createClock, createTestApp, openTestDatabase, type TestDatabase } from './helpers/test-app';

/**
 * The simulator's seed decides every future price. A public default would let anyone compute the
 * market's future offline, so without MARKET_SEED each data directory generates its own, once.
 */
describe('market seed', () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const clock = createClock(new Date('2026-01-15T12:00:00Z'));

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });

  afterAll(async () => {
    await database?.cleanup();
    await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  async function solPriceIn(dataDir: string, env: Record<string, string> = {}): Promise<number> {
    const app = await createTestApp({ database, dataDir, clock, env });
    try {
      const { status, body } = await call<{ price: number }>(app, {
        method: 'GET',
        url: '/api/market/data/SOL',
      });
      expect(status, JSON.stringify(body)).toBe(200);
      return body.data.price;
    } finally {
      await app.close();
    }
  }

  const newDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'solterm-seed-'));
    dirs.push(dir);
    return dir;
  };

  it('is generated once per data directory when MARKET_SEED is unset, and kept', async () => {
    const [first, second] = [await newDir(), await newDir()];
    const firstPrice = await solPriceIn(first);
    const seed = await fs.readFile(path.join(first, 'market-seed'), 'utf8');
    expect(seed.trim()).toMatch(/^[0-9a-f]{32}$/);
    // The same directory keeps its seed (and so its market) across restarts; another gets its own.
    expect(await solPriceIn(first)).toBe(firstPrice);
    expect(await fs.readFile(path.join(first, 'market-seed'), 'utf8')).toBe(seed);
    expect(await solPriceIn(second)).not.toBe(firstPrice);
    expect(await fs.readFile(path.join(second, 'market-seed'), 'utf8')).not.toBe(seed);
  });

  it('uses MARKET_SEED when set, whatever the directory', async () => {
    const a = await solPriceIn(await newDir(), { MARKET_SEED: 'fixed-seed' });
    const b = await solPriceIn(await newDir(), { MARKET_SEED: 'fixed-seed' });
    expect(a).toBe(b);
  });
});
