import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getTokenBySymbol,
  RISK_DEMO_TOKENS,
  USDC_MINT,
  WRAPPED_SOL_MINT,
  ZTokenSafetySchema,
  type TEnhancedTrendingToken,
  type TTokenSafety,
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
import { TOKEN_SAFETY_RATE_LIMIT } from '../src/modules/safety/safety.routes';

const mintOf = (symbol: string) => RISK_DEMO_TOKENS.find((token) => token.symbol === symbol)!.mint;

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

    // When the wallet buys 1,000 GOAT with SOL (~2 SOL: the wallet's 10 stay enough as the market moves;
    // 5,000 once cost 10.11)
    const built = await unsigned({ symbol: 'GOAT/SOL', side: 'Buy', quantity: 1_000 });
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
    expect(suggestion.body.data.available_balances.GOAT).toBe(1_000);

    // And its order book is served (the trade page polls it)
    const book = await call(app, { method: 'GET', url: '/api/trading/orderbook/GOAT-SOL' });
    expect(book.status, JSON.stringify(book.body)).toBe(200);
  });

  it('quotes every trending token against SOL and USDC', async () => {
    const token2022 = new Set(
      RISK_DEMO_TOKENS.filter((token) => token.setup.program === 'spl-token-2022').map(
        (token) => token.symbol,
      ),
    );
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
        const label = `${entry.symbol}/${quote}: ${JSON.stringify(built.body)}`;
        if (token2022.has(entry.symbol)) {
          // A Token-2022 token can trend (its simulated volume moves like any other's); the venue
          // refuses it by name.
          expect(built.status, label).toBe(400);
          expect(built.body).toMatchObject({ code: 'TRADING__TOKEN_2022_UNSUPPORTED' });
        } else {
          expect(built.status, label).toBe(200);
        }
      }
    }
  });

  it('the maker holds enough of every token for a US$ 250,000 sale to it', async () => {
    // A sell quote needs the maker's quote-token inventory; a large buy quote needs its base inventory.
    const trending = await call<TEnhancedTrendingToken[]>(app, {
      method: 'GET',
      url: '/api/trending/enhanced',
    });
    // The risk demonstration tokens are small markets by design (a whole supply of 1,000,000 worth
    // US$ 20,000-120,000; the maker holds 40 % of WHALE's): no maker could sell US$ 250,000 of one.
    // They trend only when their simulated volume does, so they are left out rather than make this
    // depend on the market's random path.
    const small = new Set(RISK_DEMO_TOKENS.map((token) => token.symbol));
    for (const entry of trending.body.data) {
      if (small.has(entry.symbol)) continue;
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

  // ── Token safety, read from the embedded cluster ────────────────────────────────────────────────

  const safetyOf = async (mint: string, remoteAddress?: string) => {
    const answer = await call<TTokenSafety>(app, {
      method: 'GET',
      url: `/api/tokens/${mint}/safety`,
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    if (answer.status === 200) ZTokenSafetySchema.parse(answer.body.data);
    return answer;
  };
  const flagOf = (safety: TTokenSafety, code: string) => safety.flags.find((flag) => flag.code === code);

  it('SOL and USDC read ok: the maker, escrow and vault are labelled, not concentration', async () => {
    for (const mint of [WRAPPED_SOL_MINT, USDC_MINT]) {
      const { status, body } = await safetyOf(mint);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.data.level, JSON.stringify(body.data.flags)).toBe('ok');
      expect(body.data.token_program).toBe('spl-token');
      expect(body.data.top_holders[0]).toMatchObject({ label: 'Venue market maker' });
      expect(body.data.flags.every((flag) => flag.severity === 'info')).toBe(true);
    }
    const usdc = (await safetyOf(USDC_MINT)).body.data;
    // The funded wallet holds 2,000 USDC besides the maker's inventory: far below any threshold.
    expect(usdc.decimals).toBe(6);
    expect(BigInt(usdc.supply)).toBeGreaterThan(50_000_000n * 10n ** 6n);
    expect(flagOf(usdc, 'mint_authority')).toMatchObject({ severity: 'info' });
    expect(usdc.top10_share).toBeLessThan(1);
  });

  it('FROST: a live freeze authority (and mint authority) of its issuer reads danger', async () => {
    const { status, body } = await safetyOf(mintOf('FROST'));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.freeze_authority).toBe(RISK_DEMO_TOKENS[0]!.setup.freezeAuthority);
    expect(flagOf(body.data, 'freeze_authority')).toMatchObject({ severity: 'danger' });
    expect(flagOf(body.data, 'freeze_authority')?.message).toMatch(/can freeze your tokens/);
    expect(flagOf(body.data, 'mint_authority')).toMatchObject({ severity: 'warning' });
    expect(body.data.level).toBe('danger');
  });

  it('TOLL: a Token-2022 transfer fee is flagged with its rate; the venue refuses it by name', async () => {
    const { body } = await safetyOf(mintOf('TOLL'));
    expect(body.data.token_program).toBe('spl-token-2022');
    expect(body.data.extensions).toEqual(['transferFeeConfig']);
    expect(body.data.mint_authority).toBeNull();
    expect(flagOf(body.data, 'transfer_fee')).toMatchObject({ severity: 'warning' });
    expect(flagOf(body.data, 'transfer_fee')?.message).toMatch(/^Transfer fee of 5%/);
    expect(body.data.level).toBe('caution');
    const refused = await unsigned({ symbol: 'TOLL/USDC', side: 'Buy', quantity: 100 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'TRADING__TOKEN_2022_UNSUPPORTED',
      error: 'TOLL is a Token-2022 token: spot trading here supports SPL Token mints only',
    });
  });

  it('PUPPET: a Token-2022 permanent delegate reads danger', async () => {
    const { body } = await safetyOf(mintOf('PUPPET'));
    expect(body.data.extensions).toEqual(['permanentDelegate']);
    expect(flagOf(body.data, 'permanent_delegate')?.message).toContain(
      RISK_DEMO_TOKENS.find((token) => token.symbol === 'PUPPET')!.setup.permanentDelegate,
    );
    expect(flagOf(body.data, 'permanent_delegate')).toMatchObject({ severity: 'danger' });
    expect(body.data.level).toBe('danger');
  });

  it('WHALE: one outside wallet holding 60 % flags both concentrations from getTokenLargestAccounts', async () => {
    const { body } = await safetyOf(mintOf('WHALE'));
    const whale = RISK_DEMO_TOKENS.find((token) => token.symbol === 'WHALE')!.setup.outsideHolder!.owner;
    expect(body.data.top_holders[0]).toMatchObject({ address: whale, share: 60, label: null });
    expect(body.data.top_holders[1]).toMatchObject({ share: 40, label: 'Venue market maker' });
    expect(body.data.top10_share).toBe(60);
    expect(flagOf(body.data, 'top10_concentration')).toMatchObject({ severity: 'warning' });
    expect(flagOf(body.data, 'single_holder_concentration')).toMatchObject({ severity: 'danger' });
    expect(flagOf(body.data, 'single_holder_concentration')?.message).toContain('60.00%');
    expect(flagOf(body.data, 'mint_authority')).toBeUndefined();
    expect(body.data.level).toBe('danger');
  });

  it('refuses a bad mint: 400 for a malformed address, 404 for an account that is no mint', async () => {
    const malformed = await call(app, { method: 'GET', url: '/api/tokens/not-a-mint/safety' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/mint must be a Solana address/);
    const wallet404 = await safetyOf(wallet.address);
    expect(wallet404.status).toBe(404);
    expect(wallet404.body).toMatchObject({ code: 'MARKET__NOT_A_MINT' });
    expect(wallet404.body.error).toContain(wallet.address);
  });

  it('serves a mint from its cache for a minute, then reads the chain again', async () => {
    const before = (await safetyOf(mintOf('FROST'))).body.data;
    // FROST is a classic SPL mint: the venue trades it (its freeze authority is never used here).
    const built = await unsigned({ symbol: 'FROST/USDC', side: 'Buy', quantity: 1_000 });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const bought = await call(app, {
      method: 'POST',
      url: '/api/trading/execute-signed-transaction',
      headers: bearer(token),
      payload: { signed_transaction: wallet.signTransaction(built.body.data.unsigned_transaction) },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const cached = (await safetyOf(mintOf('FROST'))).body.data;
    expect(cached).toEqual(before);
    app.clock.advance(61_000);
    const fresh = (await safetyOf(mintOf('FROST'))).body.data;
    expect(fresh.checked_at).not.toBe(before.checked_at);
    expect(fresh.top_holders).toContainEqual(
      expect.objectContaining({ address: wallet.address, amount: '1000000000', label: null }),
    );
  });

  it('limits GET /api/tokens/{mint}/safety per client', async () => {
    const statuses: number[] = [];
    for (let asked = 0; asked <= TOKEN_SAFETY_RATE_LIMIT.max; asked++) {
      statuses.push((await safetyOf(USDC_MINT, '10.9.9.9')).status);
    }
    expect(statuses.slice(0, TOKEN_SAFETY_RATE_LIMIT.max).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await safetyOf(USDC_MINT, '10.9.9.10')).status).toBe(200);
  });
});
