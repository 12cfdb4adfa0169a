import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Dec } from '../money/decimal';
import { PerpError, PerpExchange, type PerpMarketSpec } from './perp-exchange';
import { exchangeFromSnapshot, snapshotOf } from './perp-snapshot';

const SOL: PerpMarketSpec = {
  symbol: 'SOL-PERP',
  sizeDecimals: 3,
  tick: 10_000n,
  minSize: 1n,
  maxLeverage: 100,
};
const BTC: PerpMarketSpec = {
  symbol: 'BTC-PERP',
  sizeDecimals: 4,
  tick: 1_000_000n,
  minSize: 10n,
  maxLeverage: 50,
};
const USDC = (n: number) => BigInt(Math.round(n * 1_000_000));

function venue() {
  const exchange = new PerpExchange([SOL, BTC]);
  exchange.setOracle('SOL-PERP', USDC(100));
  exchange.setOracle('BTC-PERP', USDC(60_000));
  exchange.deposit('maker', USDC(1_000_000));
  return exchange;
}

/** The maker rests `lots` on both sides, one tick around 100. */
function quote(exchange: PerpExchange, lots = 100_000n) {
  exchange.placeOrder({
    account: 'maker',
    market: 'SOL-PERP',
    side: 'buy',
    type: 'limit',
    size: lots,
    price: USDC(99.99),
    leverage: 10,
    at: 0,
  });
  exchange.placeOrder({
    account: 'maker',
    market: 'SOL-PERP',
    side: 'sell',
    type: 'limit',
    size: lots,
    price: USDC(100.01),
    leverage: 10,
    at: 0,
  });
}

function refused(exchange: PerpExchange, command: () => unknown, code: string) {
  const before = JSON.stringify(snapshotOf(exchange));
  let caught: unknown;
  try {
    command();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(PerpError);
  expect((caught as PerpError).code).toBe(code);
  expect(JSON.stringify(snapshotOf(exchange))).toBe(before);
}

describe('PerpExchange', () => {
  it('opens a 10x long with a market order at the maker’s ask and charges the taker fee', () => {
    const exchange = venue();
    quote(exchange);
    exchange.deposit('alice', USDC(100));
    const result = exchange.placeOrder({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 9_000n,
      leverage: 10,
      at: 1,
    });
    expect(result.fills).toHaveLength(1);
    expect(result.fills[0]!.price).toBe(USDC(100.01));
    const alice = exchange.account('alice');
    expect(alice.positions.get('SOL-PERP')!.size).toBe(9_000n);
    expect(alice.collateral).toBe(USDC(100) - 630_063n); // 900.09 × 0.07 %
    expect(exchange.fees).toBe(630_063n + 360_036n);
    // Equity without the mark: 99.369937 − 900.09; it meets maintenance at 800.720063 / (9 × 0.995).
    const liq = exchange.liquidationPriceOf(alice, 'SOL-PERP')!;
    expect(liq.div(1_000_000).toFixed(4)).toBe(new Dec('800.720063').div(8.955).toFixed(4));
  });

  it('a limit order rests, fills when the market reaches it, and closing realizes the PnL', () => {
    const exchange = venue();
    exchange.deposit('bob', USDC(1_000));
    const placed = exchange.placeOrder({
      account: 'bob',
      market: 'BTC-PERP',
      side: 'sell',
      type: 'limit',
      size: 100n,
      price: USDC(61_000),
      leverage: 5,
      at: 1,
    });
    expect(placed.resting).toBe(100n);
    expect(exchange.account('bob').orderMargin).toBe(USDC(122)); // 610 / 5
    exchange.setOracle('BTC-PERP', USDC(61_500));
    const hit = exchange.placeOrder({
      account: 'maker',
      market: 'BTC-PERP',
      side: 'buy',
      type: 'limit',
      size: 100n,
      price: USDC(61_500),
      leverage: 10,
      at: 2,
    });
    expect(hit.fills[0]!.price).toBe(USDC(61_000)); // the resting order's price
    expect(exchange.account('bob').positions.get('BTC-PERP')!.size).toBe(-100n);
    expect(exchange.account('bob').orderMargin).toBe(0n);
    // The market falls; bob buys back at 59,000: +20 USDC less fees.
    exchange.setOracle('BTC-PERP', USDC(59_000));
    exchange.placeOrder({
      account: 'maker',
      market: 'BTC-PERP',
      side: 'sell',
      type: 'limit',
      size: 100n,
      price: USDC(59_000),
      leverage: 10,
      at: 3,
    });
    const close = exchange.placeOrder({
      account: 'bob',
      market: 'BTC-PERP',
      side: 'buy',
      type: 'market',
      size: 100n,
      leverage: 5,
      reduceOnly: true,
      at: 4,
    });
    expect(close.fills[0]!.takerRealized).toBe(USDC(20));
    const bob = exchange.account('bob');
    expect(bob.positions.size).toBe(0);
    expect(bob.collateral).toBe(USDC(1_000) + USDC(20) - 244_000n - 413_000n); // maker fee on 610, taker on 590
  });

  it('refuses bad orders and changes nothing', () => {
    const exchange = venue();
    quote(exchange);
    exchange.deposit('carol', USDC(10));
    const order = {
      account: 'carol',
      market: 'SOL-PERP',
      side: 'buy' as const,
      type: 'market' as const,
      size: 10n,
      leverage: 10,
      at: 1,
    };
    refused(exchange, () => exchange.placeOrder({ ...order, leverage: 0 }), 'LEVERAGE_INVALID');
    refused(exchange, () => exchange.placeOrder({ ...order, leverage: 101 }), 'LEVERAGE_INVALID');
    refused(exchange, () => exchange.placeOrder({ ...order, leverage: 2.5 }), 'LEVERAGE_INVALID');
    refused(
      exchange,
      () => exchange.placeOrder({ ...order, market: 'BTC-PERP', leverage: 51 }),
      'LEVERAGE_INVALID',
    );
    refused(exchange, () => exchange.placeOrder({ ...order, size: 0n }), 'SIZE_INVALID');
    refused(exchange, () => exchange.placeOrder({ ...order, size: -5n }), 'SIZE_INVALID');
    refused(
      exchange,
      () => exchange.placeOrder({ ...order, market: 'BTC-PERP', size: 9n }),
      'SIZE_BELOW_MIN',
    );
    refused(exchange, () => exchange.placeOrder({ ...order, size: 2_000n }), 'INSUFFICIENT_MARGIN'); // 200 USDC at 10x needs 20
    refused(
      exchange,
      () => exchange.placeOrder({ ...order, type: 'limit', price: 12_345n }),
      'PRICE_INVALID',
    );
    refused(
      exchange,
      () => exchange.placeOrder({ ...order, type: 'limit', price: USDC(101), postOnly: true }),
      'POST_ONLY_WOULD_CROSS',
    );
    refused(
      exchange,
      () => exchange.placeOrder({ ...order, side: 'sell', reduceOnly: true }),
      'REDUCE_ONLY_NO_POSITION',
    );
    refused(exchange, () => exchange.placeOrder({ ...order, market: 'ETH-PERP' }), 'MARKET_UNKNOWN');
    refused(exchange, () => exchange.placeOrder({ ...order, account: 'nobody' }), 'ACCOUNT_UNKNOWN');
    refused(exchange, () => exchange.withdraw('carol', USDC(10.01)), 'INSUFFICIENT_COLLATERAL');
    refused(exchange, () => exchange.withdraw('carol', 0n), 'AMOUNT_INVALID');
    refused(exchange, () => exchange.cancelOrder('carol', 1), 'ORDER_NOT_FOUND'); // the maker's order
    refused(exchange, () => exchange.deposit('carol', 0n), 'AMOUNT_INVALID');
  });

  it('refuses orders in a market without an oracle price', () => {
    const exchange = new PerpExchange([SOL]);
    exchange.deposit('ann', USDC(10));
    refused(
      exchange,
      () =>
        exchange.placeOrder({
          account: 'ann',
          market: 'SOL-PERP',
          side: 'buy',
          type: 'market',
          size: 10n,
          leverage: 10,
          at: 1,
        }),
      'MARKET_NO_PRICE',
    );
  });

  it('counts resting orders against margin: two orders that together exceed it', () => {
    const exchange = venue();
    exchange.deposit('dan', USDC(10));
    const order = {
      account: 'dan',
      market: 'SOL-PERP',
      side: 'buy' as const,
      type: 'limit' as const,
      size: 800n,
      price: USDC(90),
      leverage: 10,
      at: 1,
    };
    exchange.placeOrder(order); // 72 notional → 7.2 margin
    refused(exchange, () => exchange.placeOrder(order), 'INSUFFICIENT_MARGIN');
    exchange.cancelOrder('dan', exchange.account('dan').orders.values().next().value!);
    expect(exchange.account('dan').orderMargin).toBe(0n);
    exchange.placeOrder(order);
  });

  it('self-trade prevention cancels the resting order instead of trading with oneself', () => {
    const exchange = venue();
    quote(exchange);
    exchange.deposit('eve', USDC(1_000));
    const resting = exchange.placeOrder({
      account: 'eve',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'limit',
      size: 10n,
      price: USDC(100),
      leverage: 10,
      at: 1,
    });
    const taker = exchange.placeOrder({
      account: 'eve',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 10n,
      price: USDC(100.01),
      leverage: 10,
      at: 2,
    });
    expect(taker.cancelled).toEqual([resting.orderId]);
    expect(taker.fills[0]!.maker).toBe('maker');
  });

  it('liquidates below maintenance through the book; the fee goes to the insurance fund', () => {
    const exchange = venue();
    quote(exchange);
    exchange.fundInsurance(USDC(100));
    exchange.deposit('fay', USDC(10));
    exchange.placeOrder({
      account: 'fay',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 9_000n,
      leverage: 100,
      at: 1,
    });
    expect(exchange.liquidatable()).toEqual([]);
    exchange.cancelAll('maker');
    exchange.setOracle('SOL-PERP', USDC(99.3));
    exchange.placeOrder({
      account: 'maker',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 100_000n,
      price: USDC(99.29),
      leverage: 10,
      at: 2,
    });
    expect(exchange.liquidatable()).toEqual(['fay']);
    const total = exchange.totalValue();
    const result = exchange.liquidate('fay', 3);
    expect(result.fills.every((fill) => fill.liquidation)).toBe(true);
    expect(exchange.account('fay').positions.size).toBe(0);
    expect(exchange.account('fay').collateral).toBeGreaterThanOrEqual(0n);
    expect(result.fee).toBeGreaterThan(0n);
    expect(exchange.totalValue()).toBe(total);
  });

  it('bad debt is covered by the insurance fund, then spread over the others', () => {
    const exchange = venue();
    quote(exchange);
    exchange.fundInsurance(USDC(1));
    exchange.deposit('gus', USDC(10));
    exchange.placeOrder({
      account: 'gus',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 9_000n,
      leverage: 100,
      at: 1,
    });
    exchange.cancelAll('maker');
    exchange.setOracle('SOL-PERP', USDC(95)); // a gap: gus is far below zero
    exchange.placeOrder({
      account: 'maker',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 100_000n,
      price: USDC(95),
      leverage: 10,
      at: 2,
    });
    const total = exchange.totalValue();
    const result = exchange.liquidate('gus', 3);
    expect(result.insurancePaid).toBe(USDC(1));
    expect(result.socializedLoss).toBeGreaterThan(0n);
    expect(exchange.account('gus').collateral).toBe(0n);
    expect(exchange.insurance).toBe(0n);
    expect(exchange.totalValue()).toBe(total);
  });

  it('funding: longs pay shorts exactly what shorts receive', () => {
    const exchange = venue();
    quote(exchange);
    for (const name of ['a', 'b', 'c']) exchange.deposit(name, USDC(1_000));
    exchange.placeOrder({
      account: 'a',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 3_333n,
      leverage: 5,
      at: 1,
    });
    exchange.placeOrder({
      account: 'b',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'market',
      size: 1_111n,
      leverage: 5,
      at: 1,
    });
    exchange.placeOrder({
      account: 'c',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 7n,
      leverage: 5,
      at: 1,
    });
    const result = exchange.applyFunding('SOL-PERP', new Dec('0.000417'), 2);
    const sum = [...result.payments.values()].reduce((a, b) => a + b, 0n);
    expect(sum).toBe(0n);
    expect(result.payments.get('a')).toBeLessThan(0n);
    expect(result.payments.get('b')).toBeGreaterThan(0n);
  });

  it('a snapshot rebuilds the same venue', () => {
    const exchange = venue();
    quote(exchange);
    exchange.deposit('h', USDC(500));
    exchange.placeOrder({
      account: 'h',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 50n,
      price: USDC(95),
      leverage: 3,
      at: 1,
    });
    exchange.placeOrder({
      account: 'h',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'market',
      size: 20n,
      leverage: 3,
      at: 2,
    });
    const snapshot = snapshotOf(exchange);
    const rebuilt = exchangeFromSnapshot([SOL, BTC], JSON.parse(JSON.stringify(snapshot)));
    expect(snapshotOf(rebuilt)).toEqual(snapshot);
    expect(rebuilt.account('h').orderMargin).toBe(exchange.account('h').orderMargin);
    // Both answer the next order the same way.
    const next = {
      account: 'h',
      market: 'SOL-PERP',
      side: 'sell' as const,
      type: 'market' as const,
      size: 30n,
      leverage: 3,
      at: 3,
    };
    expect(rebuilt.placeOrder(next)).toEqual(exchange.placeOrder(next));
  });
});

// ── Properties: value conservation with an adversary among the actors ─────────────────────────

const ACTORS = ['alice', 'bob', 'mallory'] as const;
const action = fc.oneof(
  fc.record({
    kind: fc.constant('deposit' as const),
    who: fc.constantFrom(...ACTORS),
    usdc: fc.integer({ min: 0, max: 5_000 }),
  }),
  fc.record({
    kind: fc.constant('withdraw' as const),
    who: fc.constantFrom(...ACTORS),
    usdc: fc.integer({ min: -1, max: 6_000 }),
  }),
  fc.record({
    kind: fc.constant('order' as const),
    who: fc.constantFrom(...ACTORS, 'maker'),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    type: fc.constantFrom('market' as const, 'limit' as const),
    size: fc.oneof(fc.bigInt({ min: 1n, max: 2_000n }), fc.bigInt({ min: -5n, max: 200_000n })),
    offsetBps: fc.oneof(fc.integer({ min: -30, max: 30 }), fc.integer({ min: -1_000, max: 1_000 })),
    leverage: fc.integer({ min: 0, max: 101 }),
    reduceOnly: fc.constantFrom(false, false, false, true),
    postOnly: fc.constantFrom(false, false, false, true),
  }),
  fc.record({
    kind: fc.constant('cancel' as const),
    who: fc.constantFrom(...ACTORS, 'maker'),
    id: fc.integer({ min: 1, max: 60 }),
  }),
  fc.record({
    kind: fc.constant('oracle' as const),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    moveBps: fc.integer({ min: -1_500, max: 1_500 }),
  }),
  fc.record({
    kind: fc.constant('funding' as const),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    rate: fc.integer({ min: -10, max: 10 }),
  }),
  fc.record({ kind: fc.constant('liquidate' as const) }),
  // A position near the account's limit (50x its equity at 75x leverage): what oracle moves liquidate.
  fc.record({
    kind: fc.constant('leveraged' as const),
    who: fc.constantFrom(...ACTORS),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
  }),
);

describe('PerpExchange properties', () => {
  it('conserves value, never crosses its books, and covers bad debt — whatever the actors do', () => {
    const seen = { runs: 0, fills: 0, liquidations: 0, refusals: 0 };
    fc.assert(
      fc.property(fc.array(action, { minLength: 40, maxLength: 80 }), (actions) => {
        seen.runs++;
        const exchange = venue();
        exchange.fundInsurance(USDC(10_000));
        quote(exchange, 5_000n);
        for (const actor of ACTORS) exchange.deposit(actor, USDC(1_000));
        exchange.placeOrder({
          account: 'maker',
          market: 'BTC-PERP',
          side: 'buy',
          type: 'limit',
          size: 200n,
          price: USDC(59_990),
          leverage: 10,
          at: 0,
        });
        exchange.placeOrder({
          account: 'maker',
          market: 'BTC-PERP',
          side: 'sell',
          type: 'limit',
          size: 200n,
          price: USDC(60_010),
          leverage: 10,
          at: 0,
        });
        let vault = USDC(1_000_000) + USDC(10_000) + USDC(1_000) * BigInt(ACTORS.length);
        let at = 0;
        const liquidateAll = () => {
          for (const id of exchange.liquidatable()) {
            const result = exchange.liquidate(id, at);
            seen.liquidations++;
            const account = exchange.account(id);
            // No collateral left negative once flat, unless every other account's was spent too.
            if (account.positions.size === 0 && account.collateral < 0n) {
              expect(exchange.insurance).toBe(0n);
              expect(
                [...exchange.accounts.values()].filter((a) => a !== account && a.collateral > 0n),
              ).toEqual([]);
            }
            expect(result.fee).toBeGreaterThanOrEqual(0n);
          }
        };
        for (const step of actions) {
          at++;
          const before = JSON.stringify(snapshotOf(exchange));
          try {
            switch (step.kind) {
              case 'deposit':
                exchange.deposit(step.who, USDC(step.usdc));
                vault += USDC(step.usdc);
                break;
              case 'withdraw': {
                const amount = USDC(step.usdc);
                exchange.withdraw(step.who, amount);
                vault -= amount;
                break;
              }
              case 'order': {
                const { oracle, spec } = exchange.market(step.market);
                const raw = oracle + (oracle * BigInt(step.offsetBps)) / 10_000n;
                const price = (raw / spec.tick) * spec.tick;
                const placed = exchange.placeOrder({
                  account: step.who,
                  market: step.market,
                  side: step.side,
                  type: step.type,
                  size: step.size,
                  price,
                  leverage: step.leverage,
                  reduceOnly: step.reduceOnly,
                  postOnly: step.postOnly,
                  at,
                });
                seen.fills += placed.fills.length;
                break;
              }
              case 'leveraged': {
                const { oracle, spec } = exchange.market(step.market);
                const equity = exchange.equityOf(exchange.account(step.who));
                const size = ((equity > 0n ? equity : 0n) * 50n * 10n ** BigInt(spec.sizeDecimals)) / oracle;
                const placed = exchange.placeOrder({
                  account: step.who,
                  market: step.market,
                  side: step.side,
                  type: 'market',
                  size,
                  leverage: 75,
                  at,
                });
                seen.fills += placed.fills.length;
                break;
              }
              case 'cancel':
                exchange.cancelOrder(step.who, step.id);
                break;
              case 'oracle': {
                const { oracle, spec } = exchange.market(step.market);
                const next = ((oracle + (oracle * BigInt(step.moveBps)) / 10_000n) / spec.tick) * spec.tick;
                exchange.setOracle(step.market, next);
                // The keeper liquidates on every oracle move.
                liquidateAll();
                break;
              }
              case 'funding': {
                const result = exchange.applyFunding(step.market, new Dec(step.rate).div(10_000), at);
                expect([...result.payments.values()].reduce((a, b) => a + b, 0n)).toBe(0n);
                break;
              }
              case 'liquidate':
                liquidateAll();
                break;
            }
          } catch (error) {
            if (!(error instanceof PerpError)) throw error;
            seen.refusals++;
            // A refusal changes nothing.
            expect(JSON.stringify(snapshotOf(exchange))).toBe(before);
          }
          // The vault holds exactly what the venue owes.
          expect(exchange.totalValue()).toBe(vault);
          expect(exchange.insurance).toBeGreaterThanOrEqual(0n);
          for (const [symbol, market] of exchange.markets) {
            let net = 0n;
            for (const account of exchange.accounts.values())
              net += account.positions.get(symbol)?.size ?? 0n;
            expect(net).toBe(0n);
            const bid = market.book.bestPrice('buy');
            const ask = market.book.bestPrice('sell');
            if (bid !== undefined && ask !== undefined) expect(bid < ask).toBe(true);
          }
          for (const account of exchange.accounts.values()) {
            // Withdrawals never take collateral below zero, and order margin matches the open orders.
            let held = 0n;
            for (const id of account.orders) held += exchange.orderMarginOf(exchange.findOrder(id)!);
            expect(account.orderMargin).toBe(held);
          }
        }
      }),
      { numRuns: 300 },
    );
    // The actions reach the interesting paths (counted over a fixed sample, so this cannot pass vacuously).
    expect(seen.fills).toBeGreaterThan(100);
    expect(seen.liquidations).toBeGreaterThan(0);
    expect(seen.refusals).toBeGreaterThan(100);
  });
});
