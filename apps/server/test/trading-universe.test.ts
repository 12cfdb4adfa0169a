import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getTokenBySymbol,
  type TEnhancedTrendingToken,
  type TExecuteSignedTransactionResult,
  type TSuggestion,
  type TTradable,
  type TUnsignedTransaction,
} from '@solterm/contracts';
import {
  bearer,
  call,
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createSolanaWallet, signInWithWallet, type SolanaSigningWallet } from './helpers/wallets';
import { TRADABLE_RATE_LIMIT } from '../src/modules/trading/trading.routes';

/**
 * Every token the product lists is tradable on the embedded stack: the trending table and search
 * offer tokens of the whole market universe, not only the spec's identity map, so genesis must
 * create each of them on the local cluster and the maker must hold and quote each.
 */
describe('trading the whole market universe on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;
  let token: string;
  let wallet: SolanaSigningWallet;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({ database, env: { LIMIT_KEEPER_INTERVAL_MS: '60000' } });
    wallet = createSolanaWallet();
    const signedIn = await signInWithWallet(app, wallet, 'phantom');
    expect(signedIn.status).toBe(200);
    token = signedIn.body.data.token;
    const funded = await call(app, {
      method: 'POST',
      url: '/api/wallet/fund',
      headers: bearer(token),
      payload: { amount_sol: 10, amount_usdc: 2000 },
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  const unsigned = (order: object) =>
    call<TUnsignedTransaction>(app, {
      method: 'POST',
      url: '/api/trading/get-unsigned-transaction',
      headers: bearer(token),
      payload: order,
    });

  it('buys GOAT (not in the identity map) with SOL: get-unsigned → sign → execute settles on chain', async () => {
    // Given a token of the market universe that the spec's identity map does not name
    expect(getTokenBySymbol('GOAT')).toBeUndefined();

    // When the wallet buys 5,000 GOAT with SOL
    const built = await unsigned({ symbol: 'GOAT/SOL', side: 'Buy', quantity: 5_000 });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body.data.quote).toMatchObject({
      venue: 'local-rfq',
      base_symbol: 'GOAT',
      quote_symbol: 'SOL',
    });
    const result = await call<TExecuteSignedTransactionResult>(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      headers: bearer(token),
      payload: { signed_transaction: wallet.signTransaction(built.body.data.unsigned_transaction) },
    });

    // Then the swap lands and the wallet holds the GOAT it bought
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.data.order).toMatchObject({ status: 'Filled', symbol: 'GOAT/SOL', side: 'Buy' });
    const suggestion = await call<TSuggestion>(app, {
      method: 'POST',
      url: '/api/trading/suggestion',
      headers: bearer(token),
      payload: { symbol: 'GOAT/SOL' },
    });
    expect(suggestion.status).toBe(200);
    expect(suggestion.body.data.available_balances.GOAT).toBe(5_000);

    // And its order book is served (the trade page polls it)
    const book = await call(app, { method: 'GET', url: '/api/trading/orderbook/GOAT-SOL' });
    expect(book.status, JSON.stringify(book.body)).toBe(200);
  });

  it('quotes every trending token against SOL and USDC', async () => {
    const trending = await call<TEnhancedTrendingToken[]>(app, {
      method: 'GET',
      url: '/api/trending/enhanced',
    });
    expect(trending.status).toBe(200);
    expect(trending.body.data.length).toBeGreaterThanOrEqual(10);
    for (const entry of trending.body.data) {
      for (const quote of ['SOL', 'USDC']) {
        // About US$ 20 of the token: within the funded wallet for every pair.
        const quantity = Number((20 / (entry.price ?? 1)).toPrecision(3));
        const built = await unsigned({ symbol: `${entry.symbol}/${quote}`, side: 'Buy', quantity });
        expect(built.status, `${entry.symbol}/${quote}: ${JSON.stringify(built.body)}`).toBe(200);
      }
    }
  });

  it('the maker holds enough of every token for a US$ 250,000 sale to it', async () => {
    // A sell quote needs the maker's quote-token inventory; a large buy quote needs its base inventory.
    const trending = await call<TEnhancedTrendingToken[]>(app, {
      method: 'GET',
      url: '/api/trending/enhanced',
    });
    for (const entry of trending.body.data) {
      const quantity = Number((250_000 / (entry.price ?? 1)).toPrecision(3));
      const built = await unsigned({ symbol: `${entry.symbol}/USDC`, side: 'Buy', quantity });
      // The wallet cannot pay for it: the answer is about the wallet's balance, never the maker's liquidity.
      expect(JSON.stringify(built.body), entry.symbol).not.toMatch(/liquidity|not available/i);
    }
  });

  it('tells which pairs are tradable before anyone clicks Buy (GET /api/trading/tradable)', async () => {
    const { status, body } = await call<TTradable>(app, {
      method: 'GET',
      url: `/api/trading/tradable?pairs=${encodeURIComponent('GOAT/SOL,POPCAT/USDC,NOPE/SOL,SOL/USDC')}`,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.pairs).toEqual([
      { pair: 'GOAT/SOL', tradable: true, reason: null },
      { pair: 'POPCAT/USDC', tradable: true, reason: null },
      { pair: 'NOPE/SOL', tradable: false, reason: 'Trading pair NOPE/SOL is not available' },
      { pair: 'SOL/USDC', tradable: true, reason: null },
    ]);
    const tooMany = Array.from({ length: 51 }, () => 'SOL/USDC').join(',');
    expect((await call(app, { method: 'GET', url: `/api/trading/tradable?pairs=${tooMany}` })).status).toBe(
      400,
    );
  });

  it('limits GET /api/trading/tradable per client: each unknown pair costs lookups', async () => {
    // Fresh lookups of pairs nobody has asked about, until the client's window is spent.
    const statuses: number[] = [];
    for (let asked = 0; asked <= TRADABLE_RATE_LIMIT.max; asked++) {
      const pairs = Array.from({ length: 3 }, (_, index) => `NOPE${asked}X${index}/SOL`).join(',');
      statuses.push((await call(app, { method: 'GET', url: `/api/trading/tradable?pairs=${pairs}` })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 429)).toHaveLength(statuses.length - statuses.indexOf(429));
    // Another client is not affected.
    const other = await call(app, {
      method: 'GET',
      url: '/api/trading/tradable?pairs=SOL/USDC',
      remoteAddress: '10.1.2.3',
    });
    expect(other.status).toBe(200);
  });
});
