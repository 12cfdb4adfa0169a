import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_BOT_CONFIG,
  ZMarketplaceBotDetailSchema,
  ZMarketplacePageSchema,
  type TBot,
  type TMarketplaceBotDetail,
  type TMarketplacePage,
} from '@solterm/contracts';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { FLIP_STRATEGY } from './helpers/bot-strategies';
import { createSolanaWallet, fundedWalletUser, signInWithWallet } from './helpers/wallets';

// The marketplace: public bots only, found by name, creator or strategy and filtered by risk; figures
// computed from each bot's own fills (nothing an author sends is taken as a figure); a track record
// with a drift score against the bot's own backtest; copying once per copier, never one's own, never
// a private or deleted bot.

const NOW = new Date('2026-02-10T10:00:30Z');
const MINUTE = 60_000;

describe('the bot marketplace', () => {
  let database: TestDatabase;
  let app: TestApp;
  let author: string;
  let authorName: string;
  let copier: string;
  let walletless: string;

  const get = <T>(url: string, token: string) => call<T>(app, { method: 'GET', url, headers: bearer(token) });
  const post = <T>(url: string, token: string, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(token) });
  const market = async (token: string, query = '') => {
    const { status, body } = await get<TMarketplacePage>(`/api/bots/marketplace${query}`, token);
    expect(status, JSON.stringify(body)).toBe(200);
    return ZMarketplacePageSchema.parse(body.data);
  };
  const createBot = async (token: string, payload: object) => {
    const { status, body } = await post<TBot>('/api/bots', token, payload);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data;
  };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(NOW),
      env: { MARKET_SEED: 'marketplace', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    authorName = `quant${Date.now() % 100000}`;
    author = (await registerUser(app, { username: authorName })).token;
    walletless = (await registerUser(app)).token;
    // The copier's proven wallet holds SOL on chain, so their copy counts in user_count.
    copier = (await fundedWalletUser(app, { amount_sol: 1, amount_usdc: 0 })).token;
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('lists public bots only, with figures from their own fills; search, risk, sort and paging', async () => {
    // The author tries to set figures through the create payload: they are not fields, and ignored.
    const trend = await createBot(author, {
      name: 'Trend Rider',
      description: 'SMA 3/8 on minutes',
      strategy_type: 'sma_crossover',
      is_public: true,
      total_pnl: 1e9,
      win_rate: 100,
      user_count: 999,
      config: {
        ...DEFAULT_BOT_CONFIG,
        amount: 0.5,
        interval: '1M',
        parameters: { short_window: 3, long_window: 8 },
      },
    });
    const scalper = await createBot(author, {
      name: 'Quick Scalps',
      strategy_type: 'scalper',
      is_public: true,
      config: { ...DEFAULT_BOT_CONFIG, interval: '1M' },
    });
    const secret = await createBot(author, {
      name: 'Secret Sauce',
      strategy_type: 'dca',
      config: { interval: '1H' },
    });
    expect(trend.total_pnl).toBe(0);
    expect(trend.user_count).toBe(0);

    // It runs in paper mode for 90 minutes: the listing's figures are its fills'.
    expect((await post(`/api/bots/${trend.bot_id}/start`, author)).status).toBe(200);
    app.clock.advance(90 * MINUTE);
    await app.botRunner.pass();

    const all = await market(copier);
    expect(all.bots.map((bot) => bot.bot_id).sort()).toEqual([trend.bot_id, scalper.bot_id].sort());
    expect(all.total).toBe(2);
    const listed = all.bots.find((bot) => bot.bot_id === trend.bot_id)!;
    const own = (await get<TBot[]>('/api/bots', author)).body.data.find(
      (bot) => bot.bot_id === trend.bot_id,
    )!;
    expect(listed).toMatchObject({
      creator_name: authorName,
      user_count: 0,
      risk: 'Medium',
      record_source: 'paper',
      is_yours: false,
      total_trades: own.total_trades,
      total_pnl: own.total_pnl,
      win_rate: own.win_rate,
      description: 'SMA 3/8 on minutes',
    });
    expect(listed.total_trades).toBeGreaterThan(0);
    expect(listed.total_pnl).not.toBe(1e9);
    expect(all.bots.find((bot) => bot.bot_id === scalper.bot_id)).toMatchObject({
      risk: 'High',
      record_source: 'none',
    });

    expect((await market(copier, '?query=rider')).bots.map((bot) => bot.bot_id)).toEqual([trend.bot_id]);
    expect((await market(author, '?query=rider')).bots[0]!.is_yours).toBe(true);
    expect((await market(copier, `?query=${authorName.slice(0, 6)}`)).total).toBe(2);
    expect((await market(copier, '?query=scalper')).bots.map((bot) => bot.bot_id)).toEqual([scalper.bot_id]);
    expect((await market(copier, '?risk=High')).bots.map((bot) => bot.bot_id)).toEqual([scalper.bot_id]);
    expect((await market(copier, '?risk=Low')).bots).toEqual([]);
    expect((await market(copier, '?query=secret')).bots).toEqual([]);
    expect((await market(copier, '?sort=name')).bots.map((bot) => bot.bot_name)).toEqual([
      'Quick Scalps',
      'Trend Rider',
    ]);
    const page = await market(copier, '?limit=1&offset=1&sort=name');
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.bots.map((bot) => bot.bot_name)).toEqual(['Trend Rider']);
    expect(await market(copier, '?offset=50')).toMatchObject({ bots: [], total: 2 });
    // A 10 kB search, a bad risk, a bad page: the spec's 400s.
    for (const query of [
      `?query=${'x'.repeat(10_000)}`,
      '?risk=Extreme',
      '?limit=0',
      '?offset=-1',
      '?limit=abc',
    ]) {
      const { status } = await get(`/api/bots/marketplace${query}`, copier);
      expect(status, query.slice(0, 40)).toBe(400);
    }
    // A private bot is invisible everywhere: detail, copy.
    expect((await get(`/api/bots/marketplace/${secret.bot_id}`, copier)).status).toBe(404);
    expect((await post(`/api/bots/marketplace/${secret.bot_id}/copy`, copier)).status).toBe(404);
    expect((await call(app, { method: 'GET', url: '/api/bots/marketplace' })).status).toBe(401);
  });

  it('shows a verified track record with a drift score against the bot’s own backtest', async () => {
    // A strategy that needs no warm-up (backtests start cold, live runs warm their indicators
    // first): its paper record and its backtest over the same candles are the same trades.
    const flip = await createBot(author, {
      name: 'Flipper',
      strategy_type: 'trend',
      is_public: true,
      config: {
        ...DEFAULT_BOT_CONFIG,
        amount: 0.5,
        interval: '1M',
        code: FLIP_STRATEGY,
      },
    });
    const started = app.clock.now();
    expect((await post(`/api/bots/${flip.bot_id}/start`, author)).status).toBe(200);
    // One candle in, its window is too short to backtest: the record shows without a drift score.
    // (The clock stands 30 s into a minute: half a second past the first close, a backtest from the
    // run's start would begin less than a candle ago and is refused.)
    app.clock.advance(30_500);
    await app.botRunner.pass();
    const early = await get<TMarketplaceBotDetail>(`/api/bots/marketplace/${flip.bot_id}`, copier);
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body.data.drift).toBeNull();
    app.clock.advance(12 * MINUTE - 30_500);
    await app.botRunner.pass();
    const { status, body } = await get<TMarketplaceBotDetail>(`/api/bots/marketplace/${flip.bot_id}`, copier);
    expect(status, JSON.stringify(body)).toBe(200);
    const detail = ZMarketplaceBotDetailSchema.parse(body.data);
    expect(detail.track_record.live_since).toBe(started.toISOString());
    expect(detail.track_record.equity.length).toBeGreaterThanOrEqual(detail.track_record.fills.length + 1);
    expect(detail.track_record.fills.length).toBeGreaterThan(0);
    expect(detail.track_record.realised_pnl).toBeCloseTo(detail.total_pnl, 6);
    // A paper run trades the backtest's runtime on the same candles at the same prices: no drift.
    expect(detail.drift).not.toBeNull();
    expect(detail.drift!.trade_match_ratio).toBe(1);
    expect(detail.drift!.return_gap_pct).toBe(0);
    // Both returns at two places (never "-0.00"), fills counted as fills and trades as round trips.
    const { explanation } = detail.drift!;
    expect(explanation).toMatch(
      /^Live -?\d+\.\d\d % vs its backtest -?\d+\.\d\d % over the same candles \([+-]?\d+\.\d\d points\); (\d+) of \1 fills at the same candle and side; \d+ trades? live, \d+ in the backtest\.$/,
    );
    expect(explanation).not.toContain('-0.00');
    expect(explanation).toContain(
      `${detail.track_record.fills.length} of ${detail.track_record.fills.length} fills`,
    );
    expect(explanation).toContain(
      `${detail.total_trades} ${detail.total_trades === 1 ? 'trade' : 'trades'} live`,
    );
    expect(detail.drift!.backtest_return_pct).toBe(Number(detail.drift!.backtest_return_pct.toFixed(2)));
  });

  it('copies once per copier: never one’s own, a private or deleted bot; unpublishing keeps copies', async () => {
    const { bots } = await market(copier, '?query=rider');
    const id = bots[0]!.bot_id;
    expect((await post(`/api/bots/marketplace/${id}/copy`, walletless)).body.code).toBe(
      'MARKETPLACE__WALLET_REQUIRED',
    );
    expect((await post(`/api/bots/marketplace/${id}/copy`, author)).body.code).toBe('MARKETPLACE__OWN_BOT');
    const copied = await post<TBot>(`/api/bots/marketplace/${id}/copy`, copier);
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    expect(copied.body.data).toMatchObject({
      bot_name: 'Trend Rider',
      strategy_type: 'sma_crossover',
      is_public: false,
      status: 'stopped',
      copied_from: id,
      copied_from_label: `Trend Rider by ${authorName}`,
      total_trades: 0,
    });
    expect(copied.body.data.config).toEqual(bots[0]!.config);
    expect(bots[0]!.is_copied).toBe(false);
    expect((await market(copier, '?query=rider')).bots[0]!.is_copied).toBe(true);
    expect((await market(walletless, '?query=rider')).bots[0]!.is_copied).toBe(false);

    // A copy is a snapshot: the author's edits (stop first) do not reach it, and the copier may edit theirs.
    const authorsBot = (await get<TBot[]>('/api/bots', author)).body.data.find((bot) => bot.bot_id === id)!;
    if (authorsBot.is_running) await post(`/api/bots/${id}/stop`, author);
    const edit = (botId: string, token: string, payload: object) =>
      call<TBot>(app, { method: 'PATCH', url: `/api/bots/${botId}`, payload, headers: bearer(token) });
    const authorEdit = await edit(id, author, {
      name: 'Trend Rider v2',
      config: { ...authorsBot.config, max_positions: 3 },
    });
    expect(authorEdit.status, JSON.stringify(authorEdit.body)).toBe(200);
    const copiersView = (await get<TBot[]>('/api/bots', copier)).body.data.find(
      (bot) => bot.bot_id === copied.body.data.bot_id,
    )!;
    expect(copiersView).toMatchObject({
      bot_name: 'Trend Rider',
      copied_from_label: `Trend Rider by ${authorName}`,
    });
    expect(copiersView.config).toEqual(bots[0]!.config);
    expect((await edit(copied.body.data.bot_id, copier, { name: 'My rider' })).body.data.bot_name).toBe(
      'My rider',
    );
    // Someone else's bot cannot be edited through the marketplace's id.
    expect((await edit(id, copier, { name: 'Hijack' })).status).toBe(404);
    expect((await edit(id, author, { name: 'Trend Rider' })).status).toBe(200);
    expect((await post(`/api/bots/marketplace/${id}/copy`, copier)).body.code).toBe(
      'MARKETPLACE__ALREADY_COPIED',
    );
    expect((await market(copier, '?query=rider')).bots[0]!.user_count).toBe(1);
    const authors = (await get<TBot[]>('/api/bots', author)).body.data;
    expect(authors.find((bot) => bot.bot_id === id)!.user_count).toBe(1);

    // The copy runs like any bot of the copier's.
    expect((await post(`/api/bots/${copied.body.data.bot_id}/start`, copier)).status).toBe(200);
    await post(`/api/bots/${copied.body.data.bot_id}/stop`, copier);

    // Deleting the copy and copying again counts the copier once still.
    expect(
      (
        await call(app, {
          method: 'DELETE',
          url: `/api/bots/${copied.body.data.bot_id}`,
          headers: bearer(copier),
        })
      ).status,
    ).toBe(200);
    expect((await post(`/api/bots/marketplace/${id}/copy`, copier)).status).toBe(200);
    expect((await market(copier, '?query=rider')).bots[0]!.user_count).toBe(1);

    // user_count counts distinct users who copied with a signature-proven wallet holding SOL on
    // chain. A watch-only account cannot copy at all; a password account that typed an address
    // ('manual') neither; a fresh throwaway wallet (signed, nothing on chain) gets its copy, uncounted.
    const watchOnly = await call<{ token: string }>(app, {
      method: 'POST',
      url: '/api/auth/connect-wallet',
      payload: { wallet_address: createSolanaWallet().address, wallet_type: 'manual' },
    });
    const typed = (await registerUser(app)).token;
    const linked = await call(app, {
      method: 'POST',
      url: '/api/auth/connect-wallet-to-user',
      payload: { wallet_address: createSolanaWallet().address, wallet_type: 'manual' },
      headers: bearer(typed),
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    for (const token of [watchOnly.body.data.token, typed]) {
      const refused = await post(`/api/bots/marketplace/${id}/copy`, token);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('WALLET__WATCH_ONLY');
      expect((await get<TBot[]>('/api/bots', token)).body.data).toEqual([]);
    }
    const throwaway = (
      (await signInWithWallet(app, createSolanaWallet(), 'phantom')).body as { data: { token: string } }
    ).data.token;
    const uncounted = await post<TBot>(`/api/bots/marketplace/${id}/copy`, throwaway);
    expect(uncounted.status, JSON.stringify(uncounted.body)).toBe(200);
    expect((await market(copier, '?query=rider')).bots[0]!.user_count).toBe(1);
    // The same wallet, once it holds SOL, counts when it copies (the copy is deleted and made again).
    const fund = await post('/api/wallet/fund', throwaway, { amount_sol: 0.01, amount_usdc: 0 });
    expect(fund.status, JSON.stringify(fund.body)).toBe(200);
    await call(app, {
      method: 'DELETE',
      url: `/api/bots/${uncounted.body.data.bot_id}`,
      headers: bearer(throwaway),
    });
    expect((await post(`/api/bots/marketplace/${id}/copy`, throwaway)).status).toBe(200);
    expect((await market(copier, '?query=rider')).bots[0]!.user_count).toBe(2);

    // Unpublished: gone from the marketplace, refused to copy, while the copy keeps working.
    const unpublished = await call<TBot>(app, {
      method: 'PATCH',
      url: `/api/bots/${id}`,
      payload: { is_public: false },
      headers: bearer(author),
    });
    expect(unpublished.body.data.is_public).toBe(false);
    expect((await market(copier, '?query=rider')).bots).toEqual([]);
    expect((await post(`/api/bots/marketplace/${id}/copy`, copier)).status).toBe(404);
    const mine = (await get<TBot[]>('/api/bots', copier)).body.data;
    expect(mine).toHaveLength(1);
    expect((await post(`/api/bots/${mine[0]!.bot_id}/start`, copier)).status).toBe(200);
    // Another user cannot publish someone else's bot.
    const foreign = await call(app, {
      method: 'PATCH',
      url: `/api/bots/${id}`,
      payload: { is_public: true },
      headers: bearer(copier),
    });
    expect(foreign.status).toBe(404);

    // A deleted public bot is gone: no detail, no copy; the copies made of it keep working.
    const { bots: listed } = await market(copier, '?query=quick');
    const scalps = listed[0]!.bot_id;
    const scalpsCopy = await post<TBot>(`/api/bots/marketplace/${scalps}/copy`, copier);
    expect(scalpsCopy.status).toBe(200);
    const deleted = await call(app, {
      method: 'DELETE',
      url: `/api/bots/${scalps}`,
      headers: bearer(author),
    });
    expect(deleted.status).toBe(200);
    expect((await get(`/api/bots/marketplace/${scalps}`, copier)).status).toBe(404);
    expect((await post(`/api/bots/marketplace/${scalps}/copy`, copier)).status).toBe(404);
    const kept = (await get<TBot[]>('/api/bots', copier)).body.data.find(
      (bot) => bot.bot_id === scalpsCopy.body.data.bot_id,
    );
    expect(kept).toMatchObject({ bot_name: 'Quick Scalps', copied_from: null });
  });
});
