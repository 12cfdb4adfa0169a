import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futuresMarketChannel, type TFuturesDeposit } from '@solterm/contracts';
import { Dec, priceUnitsOf } from '@solterm/engine';
import { sql } from 'drizzle-orm';
import { bearer, call, createClock, createTestApp, openTestDatabase, type TestApp } from './helpers/test-app';
import type { TestDatabase } from './helpers/test-app';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';
import { listen, TestSocket } from './helpers/ws-client';
import { PERP_MARKETS } from '../src/modules/futures/perp-markets';
import { perpCommands } from '../src/modules/futures/futures.tables';

// The perp keeper writes to the venue's command log only what someone holds depends on: while nobody
// but the maker uses a market its oracle moves with the feed in memory of no one and in the log not at
// all, however many passes run; a market with a position follows the feed on every pass, and a socket
// watching an idle market, a public read of it or an order in it brings it to the feed first.

const NOW = new Date('2026-01-15T12:00:30Z');
const PASSES = 30;

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

describe('perp keeper on an idle venue', () => {
  let database: TestDatabase;
  let app: TestApp;

  const post = <T>(url: string, user: User, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(user.token) });
  const keeper = () => app.perpKeeper!;
  const ledger = () => app.perpVenue.trading!.ledger;
  /** Commands in the log, and the last one's seq: both unchanged means nothing was written. */
  const logged = async () => {
    const [row] = await database.database.db
      .select({ n: sql<number>`count(*)::int`, last: sql<string | null>`max(${perpCommands.seq})::text` })
      .from(perpCommands);
    return { n: row!.n, last: row!.last };
  };
  const feedOf = async (symbol: string) => {
    const perp = PERP_MARKETS.find((m) => m.symbol === symbol)!;
    const { market } = app.services;
    return priceUnitsOf(
      new Dec(await market.getUsdPrice(await market.resolveToken(perp.baseSymbol))),
      perp.tick,
    );
  };
  const oracleOf = async (symbol: string) => (await ledger().read()).market(symbol).oracle;
  /** Markets whose venue oracle is not the feed's price now. */
  const stale = async () => {
    const off: string[] = [];
    for (const perp of PERP_MARKETS)
      if ((await feedOf(perp.symbol)) !== (await oracleOf(perp.symbol))) off.push(perp.symbol);
    return off;
  };
  const passes = async (count: number) => {
    for (let pass = 0; pass < count; pass++) {
      app.clock.advance(1000);
      await keeper().tick();
    }
  };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'futures', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    await keeper().tick(true);
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it(`writes nothing over ${PASSES} passes while nobody but the maker uses the venue, though the feed moves`, async () => {
    expect(await stale()).toEqual([]);
    const before = await logged();
    await passes(PASSES);
    expect(await logged()).toEqual(before);
    // The feed did move away from the venue's oracles meanwhile: the passes had something to write.
    expect((await stale()).length).toBeGreaterThan(0);
  });

  it('a socket watching an idle market brings it to the feed at the stream’s tick', async () => {
    const symbol = 'ETH-PERP';
    app.clock.advance(60_000);
    expect(await stale()).toContain(symbol);
    const socket = await TestSocket.open(await listen(app));
    try {
      socket.send({ type: 'subscribe', channel: futuresMarketChannel(symbol) });
      expect(await socket.next()).toEqual({ type: 'subscribed', channel: futuresMarketChannel(symbol) });
      await app.futuresStream.tick();
      expect(await oracleOf(symbol)).toBe(await feedOf(symbol));
    } finally {
      await socket.close();
    }
  });

  it('a public read of an idle market answers the feed’s prices, not those of its last use', async () => {
    app.clock.advance(60_000);
    const off = await stale();
    for (const [symbol, url] of [
      ['BTC-PERP', '/api/futures/market/BTC-PERP'],
      ['JUP-PERP', '/api/futures/orderbook/JUP'],
    ] as const) {
      expect(off).toContain(symbol);
      const read = await call(app, { method: 'GET', url });
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(await oracleOf(symbol)).toBe(await feedOf(symbol));
    }
    const pairs = await call(app, { method: 'GET', url: '/api/futures/pairs' });
    expect(pairs.status).toBe(200);
    expect(await stale()).toEqual([]);
  });

  it('a market with a position follows the feed on every pass; the idle ones still write nothing', async () => {
    const alice: User = await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 1000 });
    const built = await post<TFuturesDeposit>('/api/futures/account/initialize', alice, { amount: 200 });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const executed = await post('/api/trading/execute-signed-transaction', alice, {
      signed_transaction: alice.wallet.signTransaction(built.body.data.unsigned_transaction),
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    const opened = await post('/api/futures/order', alice, {
      symbol: 'SOL-PERP',
      side: 'Long',
      order_type: 'Market',
      amount: 0.1,
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);

    const before = await logged();
    let marked = 0;
    for (let pass = 0; pass < 10; pass++) {
      app.clock.advance(1000);
      const moving = (await feedOf('SOL-PERP')) !== (await oracleOf('SOL-PERP'));
      await keeper().tick();
      expect(await oracleOf('SOL-PERP')).toBe(await feedOf('SOL-PERP'));
      if (moving) marked += 1;
    }
    expect(marked).toBeGreaterThan(0);
    const written = (await logged()).n - before.n;
    // An oracle command and the maker's re-quote per pass that moved SOL, nothing for the others.
    expect(written).toBe(marked * 2);
    expect((await stale()).filter((symbol) => symbol !== 'SOL-PERP').length).toBeGreaterThan(0);
  });
});
