import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PerpExchange } from './perp-exchange';
import { PerpError, type PerpMarketSpec } from './perp-state';
import { initialMargin, notionalOf } from './perp-math';
import { exchangeFromSnapshot, snapshotOf } from './perp-snapshot';

// Leverage is the account's per-market setting (issue 24: a 0.01 SOL order at 1x re-levered a 1 SOL
// 20x long to 1x). Only setLeverage changes it while the market has a position or orders.

const SOL: PerpMarketSpec = {
  symbol: 'SOL-PERP',
  sizeDecimals: 3,
  tick: 10_000n,
  minSize: 1n,
  maxLeverage: 100,
};
const USDC = (n: number) => BigInt(Math.round(n * 1_000_000));

function venue() {
  const exchange = new PerpExchange([SOL]);
  exchange.setOracle('SOL-PERP', USDC(100));
  exchange.deposit('maker', USDC(10_000_000));
  for (const [side, price] of [
    ['buy', USDC(99.99)],
    ['sell', USDC(100.01)],
  ] as const) {
    exchange.placeOrder({
      account: 'maker',
      market: 'SOL-PERP',
      side,
      type: 'limit',
      size: 1_000_000n,
      price,
      leverage: 10,
      at: 0,
    });
  }
  return exchange;
}

const positionMargin = (exchange: PerpExchange, id: string) => {
  const account = exchange.account(id);
  const position = account.positions.get('SOL-PERP');
  if (!position) return 0n;
  const notional = notionalOf(position.size, exchange.market('SOL-PERP').oracle, SOL.sizeDecimals);
  return initialMargin(notional, exchange.leverageOf(account, 'SOL-PERP'));
};

describe('PerpExchange leverage setting', () => {
  it('an order at another leverage leaves a 20x long at 20x: refused while it is open, never re-levered', () => {
    const exchange = venue();
    exchange.deposit('alice', USDC(400));
    exchange.setLeverage('alice', 'SOL-PERP', 20);
    exchange.placeOrder({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 1_000n,
      at: 1,
    });
    const before = positionMargin(exchange, 'alice');
    expect(before).toBe(initialMargin(USDC(100), 20));
    const snapshot = JSON.stringify(snapshotOf(exchange));
    let caught: unknown;
    try {
      exchange.placeOrder({
        account: 'alice',
        market: 'SOL-PERP',
        side: 'buy',
        type: 'limit',
        size: 10n,
        price: USDC(99),
        leverage: 1,
        at: 2,
      });
    } catch (error) {
      caught = error;
    }
    expect((caught as PerpError).code).toBe('LEVERAGE_MISMATCH');
    expect((caught as PerpError).message).toContain('leverage is 20x');
    expect(JSON.stringify(snapshotOf(exchange))).toBe(snapshot);
    // Without a leverage (or with the setting's) the order is margined at 20x.
    exchange.placeOrder({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 10n,
      price: USDC(99),
      at: 3,
    });
    expect(exchange.leverageOf(exchange.account('alice'), 'SOL-PERP')).toBe(20);
    expect(positionMargin(exchange, 'alice')).toBe(before);
    expect(exchange.account('alice').orderMargin).toBe(initialMargin(USDC(0.99), 20));
  });

  it('setLeverage re-margins the position and open orders, and refuses what equity cannot carry', () => {
    const exchange = venue();
    exchange.deposit('bob', USDC(30));
    exchange.setLeverage('bob', 'SOL-PERP', 20);
    exchange.placeOrder({
      account: 'bob',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 2_000n,
      at: 1,
    });
    exchange.placeOrder({
      account: 'bob',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 1_000n,
      price: USDC(95),
      at: 2,
    });
    const snapshot = JSON.stringify(snapshotOf(exchange));
    // 200 USDC notional + 95 resting at 1x needs ~295 USDC: refused, nothing changed.
    let caught: unknown;
    try {
      exchange.setLeverage('bob', 'SOL-PERP', 1);
    } catch (error) {
      caught = error;
    }
    expect((caught as PerpError).code).toBe('LEVERAGE_UNDERMARGINED');
    expect(JSON.stringify(snapshotOf(exchange))).toBe(snapshot);
    exchange.setLeverage('bob', 'SOL-PERP', 10);
    const account = exchange.account('bob');
    expect(exchange.leverageOf(account, 'SOL-PERP')).toBe(10);
    expect(account.orderMargin).toBe(initialMargin(USDC(95), 10));
    expect(positionMargin(exchange, 'bob')).toBe(initialMargin(USDC(200), 10));
    // A snapshot keeps the setting and the orders' margin.
    const restored = exchangeFromSnapshot([SOL], snapshotOf(exchange));
    expect(restored.account('bob').orderMargin).toBe(account.orderMargin);
    expect(restored.leverageOf(restored.account('bob'), 'SOL-PERP')).toBe(10);
    // Raising it is never refused.
    exchange.setLeverage('bob', 'SOL-PERP', 100);
    expect(() => exchange.setLeverage('bob', 'SOL-PERP', 101)).toThrow(PerpError);
  });

  it('with nothing open in the market, an order’s leverage becomes the setting', () => {
    const exchange = venue();
    exchange.deposit('carol', USDC(100));
    expect(exchange.leverageOf(exchange.account('carol'), 'SOL-PERP')).toBe(10);
    exchange.placeOrder({
      account: 'carol',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'market',
      size: 100n,
      leverage: 5,
      at: 1,
    });
    expect(exchange.leverageOf(exchange.account('carol'), 'SOL-PERP')).toBe(5);
  });

  it('no sequence of orders, cancels and oracle moves changes a leverage in use; only setLeverage does', () => {
    const action = fc.oneof(
      fc.record({
        k: fc.constant('order' as const),
        who: fc.constantFrom('a', 'b'),
        side: fc.constantFrom('buy' as const, 'sell' as const),
        type: fc.constantFrom('market' as const, 'limit' as const),
        lots: fc.integer({ min: 1, max: 3_000 }),
        offset: fc.integer({ min: -200, max: 200 }),
        leverage: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        reduceOnly: fc.boolean(),
      }),
      fc.record({ k: fc.constant('cancel' as const), who: fc.constantFrom('a', 'b'), nth: fc.nat(5) }),
      fc.record({ k: fc.constant('oracle' as const), price: fc.integer({ min: 9_000, max: 11_000 }) }),
      fc.record({
        k: fc.constant('leverage' as const),
        who: fc.constantFrom('a', 'b'),
        leverage: fc.integer({ min: 1, max: 100 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(action, { minLength: 5, maxLength: 40 }), (actions) => {
        const exchange = venue();
        exchange.deposit('a', USDC(500));
        exchange.deposit('b', USDC(500));
        for (const [n, step] of actions.entries()) {
          const settings = new Map(
            ['a', 'b'].map((id) => {
              const account = exchange.account(id);
              return [
                id,
                {
                  leverage: exchange.leverageOf(account, 'SOL-PERP'),
                  inUse: exchange.hasExposureIn(account, 'SOL-PERP'),
                },
              ];
            }),
          );
          const orderLeverages = () =>
            ['a', 'b'].flatMap((id) =>
              [...exchange.account(id).orders].map(
                (order) => [id, exchange.findOrder(order)!.leverage] as const,
              ),
            );
          try {
            if (step.k === 'order') {
              const price = ((USDC(100) + BigInt(step.offset) * 10_000n) / SOL.tick) * SOL.tick;
              exchange.placeOrder({
                account: step.who,
                market: 'SOL-PERP',
                side: step.side,
                type: step.type,
                size: BigInt(step.lots),
                price: step.type === 'limit' ? price : undefined,
                leverage: step.leverage,
                reduceOnly: step.reduceOnly,
                at: n,
              });
            } else if (step.k === 'cancel') {
              const id = [...exchange.account(step.who).orders][step.nth];
              if (id !== undefined) exchange.cancelOrder(step.who, id);
            } else if (step.k === 'oracle') {
              exchange.setOracle('SOL-PERP', BigInt(step.price) * 10_000n);
            } else {
              exchange.setLeverage(step.who, 'SOL-PERP', step.leverage);
            }
          } catch (error) {
            if (!(error instanceof PerpError)) throw error;
          }
          for (const [id, before] of settings) {
            const account = exchange.account(id);
            const after = exchange.leverageOf(account, 'SOL-PERP');
            if (step.k !== 'leverage' || step.who !== id) {
              // An order may set the leverage only of a market where nothing was open.
              if (before.inUse) expect(after).toBe(before.leverage);
            }
            // The position and every open order are margined at the account's setting.
            for (const [owner, leverage] of orderLeverages())
              expect(leverage).toBe(exchange.leverageOf(exchange.account(owner), 'SOL-PERP'));
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
