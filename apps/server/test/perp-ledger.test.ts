import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { snapshotOf } from '@solterm/engine';
import { createPerpLedger } from '../src/modules/futures/perp-ledger';
import { PERP_MARKETS } from '../src/modules/futures/perp-markets';
import { makerQuotes } from '../src/modules/futures/perp-keeper';
import { MAKER_ACCOUNT, type PerpCommand } from '../src/modules/futures/perp-commands';
import { databaseTargets, openTestDatabase, type TestDatabase } from './helpers/test-app';

// The venue's command log as the single source of truth: two replicas (two processes) write and read
// concurrently; each command is applied once, in one order, and a fresh load rebuilds the same venue.

const log = pino({ level: 'silent' });
const SOL = PERP_MARKETS[0]!;
const ORACLE = 150_000_000n;

describe.each(databaseTargets())('perp ledger on %s', (target) => {
  const opened: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of opened) await database.cleanup();
  });

  it('two replicas writing and reading at once converge on one venue, value conserved', async () => {
    const database = await openTestDatabase(target);
    opened.push(database);
    // Two processes on PostgreSQL get their own connection pools; PGlite has one process.
    const second =
      target === 'postgres'
        ? await openDatabase({ kind: 'postgres', url: database.url! })
        : database.database;
    const one = createPerpLedger({ database: database.database, markets: PERP_MARKETS, log });
    const two = createPerpLedger({ database: second, markets: PERP_MARKETS, log });
    await one.load();
    await two.load();
    const run = (ledger: typeof one, command: PerpCommand) =>
      ledger
        .run(command, async () => undefined)
        .catch((error: unknown) => {
          if ((error as Error).name !== 'PerpError') throw error;
        });
    await run(one, { k: 'oracle', prices: { [SOL.symbol]: ORACLE.toString() }, at: 0 });
    await run(one, { k: 'deposit', account: MAKER_ACCOUNT, amount: (10n ** 12n).toString(), at: 0 });
    const { bids, asks } = makerQuotes(SOL, ORACLE, 0n);
    await run(two, { k: 'quote', market: SOL.symbol, bids, asks, at: 0 });

    const traders = Array.from({ length: 8 }, (_, i) => `trader-${i}`);
    const work: Promise<unknown>[] = [];
    let deposited = 10n ** 12n;
    for (const [i, trader] of traders.entries()) {
      const ledger = i % 2 === 0 ? one : two;
      deposited += 1_000_000_000n;
      work.push(
        (async () => {
          await run(ledger, { k: 'deposit', account: trader, amount: '1000000000', at: i });
          for (let n = 0; n < 5; n++) {
            await run(ledger, {
              k: 'order',
              account: trader,
              market: SOL.symbol,
              side: n % 2 === 0 ? 'buy' : 'sell',
              type: 'market',
              size: String(100 + n * 37),
              leverage: 10,
              reduceOnly: false,
              postOnly: false,
              ioc: false,
              at: i * 10 + n,
            });
            await (n % 2 === 0 ? one : two).read();
          }
        })(),
      );
    }
    await Promise.all(work);
    const [a, b] = [await one.read(), await two.read()];
    const fresh = createPerpLedger({ database: database.database, markets: PERP_MARKETS, log });
    await fresh.load();
    const c = await fresh.read();
    expect(snapshotOf(a)).toEqual(snapshotOf(c));
    expect(snapshotOf(b)).toEqual(snapshotOf(c));
    expect(c.totalValue()).toBe(deposited);
    expect(c.market(SOL.symbol).volume).toBeGreaterThan(0n);
    if (second !== database.database) await second.close();
  });
});
