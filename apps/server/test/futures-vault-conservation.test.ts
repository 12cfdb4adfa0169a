import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TFuturesDeposit } from '@solterm/contracts';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { fundedWalletUser, type SolanaSigningWallet } from './helpers/wallets';
import { PERP_MARKETS } from '../src/modules/futures/perp-markets';
import { makerQuotes } from '../src/modules/futures/perp-keeper';
import { MAKER_ACCOUNT } from '../src/modules/futures/perp-commands';

// The vault on chain holds exactly what the venue owes (Σ collateral + open quotes + insurance +
// fees + withdrawals not yet paid) after every step of random deposits, trades, oracle moves,
// funding, liquidations and withdrawals by three traders — one of them an adversary who also tries
// to withdraw more than is free, to cancel and close what is not his, and to replay a deposit.

interface User {
  token: string;
  wallet: SolanaSigningWallet;
}

const step = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), who: fc.nat(2), usdc: fc.integer({ min: 1, max: 60 }) }),
  fc.record({
    kind: fc.constant('order' as const),
    who: fc.nat(2),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    side: fc.constantFrom('Long' as const, 'Short' as const),
    type: fc.constantFrom('Market' as const, 'Limit' as const),
    notional: fc.integer({ min: 5, max: 3000 }),
    offsetBps: fc.integer({ min: -50, max: 50 }),
    leverage: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({
    kind: fc.constant('leverage' as const),
    who: fc.nat(2),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    leverage: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    who: fc.nat(2),
    usdc: fc.integer({ min: 1, max: 200 }),
  }),
  fc.record({
    kind: fc.constant('close' as const),
    who: fc.nat(2),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    bps: fc.integer({ min: -300, max: 300 }),
  }),
  fc.record({
    kind: fc.constant('funding' as const),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    rate: fc.integer({ min: -10, max: 10 }),
  }),
  fc.record({
    kind: fc.constant('adversary' as const),
    trick: fc.constantFrom('overdraw', 'cancel', 'replay', 'wash'),
    /** Where a wash trade is priced, as a multiple of the oracle. */
    factor: fc.constantFrom(2, 0.5, 1.5, 1.07, 0.93),
  }),
);

describe('futures vault conservation on the embedded cluster', () => {
  let database: TestDatabase;
  let app: TestApp;
  let users: User[];
  const replayable: string[] = [];

  const post = <T>(url: string, user: User, payload: object = {}) =>
    call<T>(app, { method: 'POST', url, payload, headers: bearer(user.token) });
  const venue = () => app.perpVenue.trading!;

  async function deposit(user: User, usdc: number) {
    const initialized = (
      await call<{ initialized: boolean }>(app, {
        method: 'GET',
        url: '/api/futures/account',
        headers: bearer(user.token),
      })
    ).body.data.initialized;
    const built = await post<TFuturesDeposit>(
      initialized ? '/api/futures/collateral/deposit' : '/api/futures/account/initialize',
      user,
      { amount: usdc },
    );
    if (built.status !== 200) return;
    const signed = user.wallet.signTransaction(built.body.data.unsigned_transaction);
    replayable.push(signed);
    await post('/api/trading/execute-signed-transaction', user, { signed_transaction: signed });
  }

  async function move(symbol: string, bps: number) {
    const perp = PERP_MARKETS.find((m) => m.symbol === symbol)!;
    const exchange = await venue().ledger.read();
    const oracle = exchange.market(symbol).oracle;
    const next = ((oracle * BigInt(10_000 + bps)) / 10_000n / perp.tick) * perp.tick;
    await venue().run({ k: 'oracle', prices: { [symbol]: next.toString() }, at: app.clock.now().getTime() });
    const inventory =
      (await venue().ledger.read()).accounts.get(MAKER_ACCOUNT)?.positions.get(symbol)?.size ?? 0n;
    const { bids, asks } = makerQuotes(perp, next, inventory);
    await venue().run({ k: 'quote', market: symbol, bids, asks, at: app.clock.now().getTime() });
    await app.perpKeeper!.liquidate();
  }

  async function expectVaultMatches() {
    await app.perpKeeper!.reconcile();
    const { vault, owed } = app.perpKeeper!.lastReconciliation()!;
    expect(vault).toBe(owed);
    const exchange = await venue().ledger.read();
    for (const account of exchange.accounts.values()) {
      if (account.positions.size === 0) expect(account.collateral).toBeGreaterThanOrEqual(0n);
    }
    expect(exchange.insurance).toBeGreaterThanOrEqual(0n);
  }

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await createTestApp({
      database,
      clock: createClock(new Date('2026-01-15T12:00:30Z')),
      env: { MARKET_SEED: 'vault', MARKET_TICK_MS: '3600000', JOBS: 'off' },
    });
    users = [];
    for (let i = 0; i < 3; i++) users.push(await fundedWalletUser(app, { amount_sol: 5, amount_usdc: 1000 }));
    await app.perpKeeper!.tick(true);
    for (const user of users) await deposit(user, 200);
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('holds exactly what the venue owes after every step', async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 16 }), async (actions) => {
        for (const action of actions) {
          steps++;
          switch (action.kind) {
            case 'deposit':
              await deposit(users[action.who]!, action.usdc);
              break;
            case 'order': {
              const market = (await venue().ledger.read()).market(action.market);
              const oracle = Number(market.oracle) / 1e6;
              const perp = PERP_MARKETS.find((m) => m.symbol === action.market)!;
              const amount = (action.notional / oracle).toFixed(perp.sizeDecimals);
              const price = (oracle * (1 + action.offsetBps / 10_000)).toFixed(6);
              await post('/api/futures/order', users[action.who]!, {
                symbol: action.market,
                side: action.side,
                order_type: action.type,
                amount,
                price: action.type === 'Limit' ? price : undefined,
                leverage: action.leverage,
              });
              break;
            }
            case 'leverage':
              await post('/api/futures/leverage', users[action.who]!, {
                symbol: action.market,
                leverage: action.leverage,
              });
              break;
            case 'withdraw':
              await post('/api/futures/collateral/withdraw', users[action.who]!, { amount: action.usdc });
              break;
            case 'close':
              await post('/api/futures/position/close', users[action.who]!, { position_id: action.market });
              break;
            case 'move':
              await move(action.market, action.bps);
              break;
            case 'funding':
              await venue().run({
                k: 'funding',
                market: action.market,
                rate: String(action.rate / 10_000),
                at: app.clock.now().getTime(),
              });
              break;
            case 'adversary': {
              const mallory = users[2]!;
              if (action.trick === 'overdraw') {
                const answer = await post('/api/futures/collateral/withdraw', mallory, { amount: 1_000_000 });
                expect(answer.status).toBeGreaterThanOrEqual(400);
              } else if (action.trick === 'cancel') {
                const orders = (
                  await call<{ id: string; status: string }[]>(app, {
                    method: 'GET',
                    url: '/api/futures/orders',
                    headers: bearer(users[0]!.token),
                  })
                ).body.data;
                const open = orders.find((order) => order.status === 'Open');
                if (open)
                  expect((await post(`/api/futures/orders/${open.id}/cancel`, mallory)).status).toBe(404);
              } else if (action.trick === 'wash') {
                // Mallory and a colluder trade with each other away from the oracle: one rests, the
                // other takes at 100x. Past the 8% band the taker is refused; inside it, the
                // taker's margin pays for the price it gives away.
                const oracle = Number((await venue().ledger.read()).market('SOL-PERP').oracle) / 1e6;
                const price = (oracle * action.factor).toFixed(2);
                const up = action.factor > 1;
                const rest = await post<{ order: { id: string } }>('/api/futures/order', users[1]!, {
                  symbol: 'SOL-PERP',
                  side: up ? 'Short' : 'Long',
                  order_type: 'Limit',
                  amount: '1',
                  price,
                  leverage: 50,
                });
                const take = await post('/api/futures/order', mallory, {
                  symbol: 'SOL-PERP',
                  side: up ? 'Long' : 'Short',
                  order_type: 'Limit',
                  amount: '1.5',
                  price,
                  leverage: 100,
                  ioc: true,
                });
                if (Math.abs(action.factor - 1) > 0.1)
                  expect(take.body.code).toBe('FUTURES__PRICE_OUT_OF_BAND');
                if (rest.status === 200)
                  await post(`/api/futures/orders/${rest.body.data.order.id}/cancel`, users[1]!);
              } else if (replayable.length > 0) {
                // A deposit transaction already executed: executing it again credits nothing twice.
                await post('/api/trading/execute-signed-transaction', mallory, {
                  signed_transaction: replayable[0]!,
                });
              }
              break;
            }
          }
          await expectVaultMatches();
        }
      }),
      { numRuns: 6 },
    );
    expect(steps).toBeGreaterThan(40);
  }, 300_000);
});
