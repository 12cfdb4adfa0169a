import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Dec } from '../money/decimal';
import { PerpExchange } from './perp-exchange';
import { PerpError, type PerpFill } from './perp-state';
import { exchangeFromSnapshot, snapshotOf } from './perp-snapshot';
import { BTC, quote, SOL, USDC, venue } from './perp-test-venue';
import { isTriggered, type TriggerResult } from './perp-triggers';

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
    // The band: a buy at most 8 % above the oracle, a sell at most 8 % below it.
    refused(
      exchange,
      () => exchange.placeOrder({ ...order, type: 'limit', price: USDC(108.01), ioc: true }),
      'PRICE_OUT_OF_BAND',
    );
    refused(
      exchange,
      () => exchange.placeOrder({ ...order, side: 'sell', type: 'limit', price: USDC(91.99) }),
      'PRICE_OUT_OF_BAND',
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

  it('hands out copies of its orders: one it reuses for a new order leaves what a caller holds alone', () => {
    const exchange = venue();
    exchange.deposit('erin', USDC(1_000));
    exchange.deposit('finn', USDC(1_000));
    const limit = { market: 'SOL-PERP', type: 'limit' as const, leverage: 10, at: 1 };
    const { orderId: first } = exchange.placeOrder({
      ...limit,
      account: 'erin',
      side: 'buy',
      size: 100n,
      price: USDC(95),
    });
    const found = exchange.findOrder(first)!;
    const cancelled = exchange.cancelOrder('erin', first);
    // The cancelled order's object is spare now: the next resting order is made from it.
    const { orderId: second } = exchange.placeOrder({
      ...limit,
      account: 'finn',
      side: 'sell',
      size: 300n,
      price: USDC(105),
      at: 2,
    });
    expect(found).toEqual({
      id: first,
      market: 'SOL-PERP',
      account: 'erin',
      side: 'buy',
      price: USDC(95),
      size: 100n,
      remaining: 100n,
      reduceOnly: false,
      leverage: 10,
      createdAt: 1,
    });
    expect(cancelled).toEqual({ ...found, remaining: 0n });
    expect(exchange.findOrder(first)).toBeUndefined();
    expect(exchange.findOrder(second)).toMatchObject({
      id: second,
      account: 'finn',
      side: 'sell',
      remaining: 300n,
    });
    expect([...exchange.account('finn').orders]).toEqual([second]);
    expect(exchange.account('erin').orders.size).toBe(0);
  });

  it('prices a limit within 8 % of the oracle on the side it trades; the passive side is free', () => {
    const exchange = venue();
    exchange.deposit('ivy', USDC(1_000));
    const at = { account: 'ivy', market: 'SOL-PERP', type: 'limit' as const, size: 100n, leverage: 10 };
    expect(exchange.placeOrder({ ...at, side: 'buy', price: USDC(108), at: 1 }).resting).toBe(100n);
    expect(exchange.placeOrder({ ...at, side: 'buy', price: USDC(20), at: 2 }).resting).toBe(100n);
    exchange.cancelAll('ivy');
    expect(exchange.placeOrder({ ...at, side: 'sell', price: USDC(92), at: 3 }).resting).toBe(100n);
    expect(exchange.placeOrder({ ...at, side: 'sell', price: USDC(500), at: 4 }).resting).toBe(100n);
  });

  it('checks margin after the fill, marked to the oracle: a buy above it pays the difference first', () => {
    const exchange = venue();
    exchange.deposit('jo', USDC(10));
    exchange.deposit('kim', USDC(10_000));
    // 5 SOL at 100 and 100x need 5 + 0.35 fee; at 108 they also lose 40 against the oracle at once.
    const order = {
      account: 'jo',
      market: 'SOL-PERP',
      side: 'buy' as const,
      type: 'limit' as const,
      size: 5_000n,
      leverage: 100,
      ioc: true,
      at: 1,
    };
    exchange.placeOrder({ ...order, account: 'kim', side: 'sell', price: USDC(108), ioc: false });
    refused(exchange, () => exchange.placeOrder({ ...order, price: USDC(108) }), 'INSUFFICIENT_MARGIN');
    // What the equity covers at that price is accepted, and leaves it at its initial margin or above.
    const fill = exchange.placeOrder({ ...order, size: 100n, price: USDC(108) }).fills[0]!;
    expect(fill.price).toBe(USDC(108));
    const jo = exchange.account('jo');
    expect(exchange.equityOf(jo)).toBeGreaterThanOrEqual(exchange.initialRequirementOf(jo));
    expect(exchange.equityOf(jo)).toBe(USDC(10) - USDC(0.8) - 7_560n); // 0.1 SOL × 8, fee on 10.8
  });

  it('a resting order the oracle moved past the band, or its owner can no longer carry, is cancelled, not filled', () => {
    const exchange = venue();
    exchange.deposit('lee', USDC(1_000));
    exchange.deposit('max', USDC(1_000));
    exchange.deposit('ned', USDC(0.5));
    const rest = (account: string, price: bigint, size: bigint, leverage: number) =>
      exchange.placeOrder({
        account,
        market: 'SOL-PERP',
        side: 'sell',
        type: 'limit',
        size,
        price,
        leverage,
        at: 1,
      }).orderId;
    const stale = rest('lee', USDC(100), 100n, 10); // 0.1 SOL at 100
    const thin = rest('ned', USDC(102), 100n, 100); // ned's 0.5 USDC carry 0.1 SOL at 102 …
    exchange.setOracle('SOL-PERP', USDC(110)); // … not once the oracle is at 110 (0.8 USDC lost at once)
    const result = exchange.placeOrder({
      account: 'max',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 100n,
      leverage: 10,
      at: 2,
    });
    // 100 is more than 8 % below 110; ned's fill would leave ned below maintenance.
    expect(result.cancelled).toEqual([stale, thin]);
    expect(result.fills).toEqual([]);
    expect(exchange.account('lee').positions.size).toBe(0);
    expect(exchange.account('ned').collateral).toBe(USDC(0.5));
  });

  it('a reduce-only close that would take the account below zero stops there and rests nothing', () => {
    const exchange = venue();
    quote(exchange);
    exchange.deposit('ola', USDC(20));
    exchange.deposit('pat', USDC(10_000));
    exchange.placeOrder({
      account: 'ola',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 10_000n,
      leverage: 100,
      at: 1,
    });
    exchange.cancelAll('maker');
    // pat bids 0.1 SOL at 99 and 9.9 SOL at 92: selling 10 SOL there costs ola ~80 USDC of her ~19.
    for (const [price, size] of [
      [USDC(99), 100n],
      [USDC(92), 9_900n],
    ] as const) {
      exchange.placeOrder({
        account: 'pat',
        market: 'SOL-PERP',
        side: 'buy',
        type: 'limit',
        size,
        price,
        leverage: 10,
        at: 2,
      });
    }
    const close = exchange.placeOrder({
      account: 'ola',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'limit',
      size: 10_000n,
      price: USDC(92),
      leverage: 100,
      reduceOnly: true,
      at: 3,
    });
    expect(close.fills.map((fill) => fill.price)).toEqual([USDC(99)]);
    expect(close.resting).toBe(0n);
    const ola = exchange.account('ola');
    expect(exchange.equityOf(ola)).toBeGreaterThanOrEqual(exchange.maintenanceOf(ola));
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

describe('PerpExchange against colluding accounts', () => {
  /**
   * Issue 22 item 3, replayed: X rests a sell at twice the oracle, Y buys it at 100x (its margin was
   * checked at its limit price against its equity before the fill), X closes and withdraws, Y is
   * liquidated into the insurance fund and the rest of its debt is spread over everyone else. Before
   * the price band and the after-fill margin, the two rounds' 50,000 USDC in took 255,433.57 out,
   * emptied the 10,000 fund and cost the bystander 196.61 (afterwards: 49,412.48 out, fees kept).
   */
  it('a two-account wash trade far from the oracle pays out no more than went in', () => {
    const exchange = venue();
    quote(exchange, 100_000n); // 100 SOL a side at 99.99 / 100.01
    exchange.fundInsurance(USDC(10_000));
    exchange.deposit('bystander', USDC(1_000));
    const insurance = exchange.insurance;
    let deposited = 0n;
    let withdrawn = 0n;
    let washed = 0n;
    const drain = (id: string) => {
      const free = exchange.freeCollateralOf(exchange.account(id));
      if (free > 0n) {
        exchange.withdraw(id, free);
        withdrawn += free;
      }
    };
    const attempt = (command: () => void) => {
      try {
        command();
      } catch (error) {
        if (!(error instanceof PerpError)) throw error;
      }
    };
    // A fresh pair at twice the oracle, then one at the edge of the band.
    for (const [round, price] of [USDC(200), USDC(108)].entries()) {
      const [x, y] = [`x${round}`, `y${round}`];
      exchange.deposit(x, USDC(20_000));
      exchange.deposit(y, USDC(5_000));
      deposited += USDC(25_000);
      attempt(() =>
        exchange.placeOrder({
          account: x,
          market: 'SOL-PERP',
          side: 'sell',
          type: 'limit',
          size: 2_000_000n,
          price,
          leverage: 50,
          at: 1,
        }),
      );
      // Y sweeps the maker's 100 SOL and then X, as large as its margin lets it.
      for (const size of [2_300_000n, 500_000n, 150_000n]) {
        attempt(() => {
          const { fills } = exchange.placeOrder({
            account: y,
            market: 'SOL-PERP',
            side: 'buy',
            type: 'limit',
            size,
            price,
            leverage: 100,
            ioc: true,
            at: 2,
          });
          for (const fill of fills) if (fill.maker === x) washed += fill.size;
        });
      }
      exchange.cancelAll(x);
      // The maker re-quotes, deep enough for X to close.
      exchange.cancelAll('maker');
      quote(exchange, 3_000_000n);
      const short = exchange.account(x).positions.get('SOL-PERP');
      if (short) {
        exchange.placeOrder({
          account: x,
          market: 'SOL-PERP',
          side: 'buy',
          type: 'market',
          size: -short.size,
          leverage: 50,
          reduceOnly: true,
          at: 3,
        });
      }
      drain(x);
      for (const id of exchange.liquidatable()) exchange.liquidate(id, 4, 'maker');
      drain(y);
      exchange.cancelAll('maker');
      quote(exchange, 100_000n);
    }
    // Inside the band the pair did trade: Y paid X the 8 % out of its own margin, nobody else did.
    expect(washed).toBeGreaterThan(0n);
    expect(withdrawn).toBeLessThanOrEqual(deposited);
    expect(exchange.insurance).toBeGreaterThanOrEqual(insurance);
    expect(exchange.account('bystander').collateral).toBe(USDC(1_000));
    for (const id of ['x0', 'y0', 'x1', 'y1'])
      expect(exchange.account(id).collateral).toBeGreaterThanOrEqual(0n);
  });
});

// ── Properties: value conservation with an adversary among the actors ─────────────────────────

const ACTORS = ['alice', 'bob', 'mallory'] as const;

/** One rests a limit order `offsetBps` from the oracle; the other takes it at that price (IOC). */
function wash(actors: readonly string[]) {
  const pairs = actors.flatMap((maker) =>
    actors.filter((taker) => taker !== maker).map((taker) => ({ maker, taker })),
  );
  return fc.record({
    kind: fc.constant('wash' as const),
    pair: fc.constantFrom(...pairs),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    offsetBps: fc.oneof(
      fc.integer({ min: -9_000, max: 15_000 }),
      fc.integer({ min: -900, max: 900 }),
      fc.integer({ min: -900, max: 900 }),
    ),
    size: fc.oneof(fc.bigInt({ min: 1n, max: 20_000n }), fc.bigInt({ min: 1n, max: 3_000_000n })),
    makerLeverage: fc.integer({ min: 1, max: 100 }),
    takerLeverage: fc.integer({ min: 1, max: 100 }),
    takerReduceOnly: fc.constantFrom(false, false, true),
  });
}

type WashStep = (ReturnType<typeof wash> extends fc.Arbitrary<infer T> ? T : never) & { at: number };

/** Plays a wash step: each order either applies or is refused without a change. Answers the fills. */
function playWash(exchange: PerpExchange, step: WashStep) {
  const { oracle, spec } = exchange.market(step.market);
  const raw = oracle + (oracle * BigInt(step.offsetBps)) / 10_000n;
  const price = raw < spec.tick ? spec.tick : (raw / spec.tick) * spec.tick;
  const fills: PerpFill[] = [];
  const orders = [
    {
      account: step.pair.maker,
      side: step.side === 'buy' ? ('sell' as const) : ('buy' as const),
      leverage: step.makerLeverage,
      reduceOnly: false,
      ioc: false,
    },
    {
      account: step.pair.taker,
      side: step.side,
      leverage: step.takerLeverage,
      reduceOnly: step.takerReduceOnly,
      ioc: true,
    },
  ];
  let refusals = 0;
  for (const order of orders) {
    const before = JSON.stringify(snapshotOf(exchange));
    try {
      const placed = exchange.placeOrder({
        ...order,
        market: step.market,
        type: 'limit',
        size: step.size,
        price,
        at: step.at,
      });
      fills.push(...placed.fills);
    } catch (error) {
      if (!(error instanceof PerpError)) throw error;
      refusals++;
      expect(JSON.stringify(snapshotOf(exchange))).toBe(before);
    }
  }
  return { fills, refusals };
}

/** Trigger orders an action places: standalone stops and take-profits, or a position's TP/SL. */
function triggerAction(who: readonly string[]) {
  return fc.oneof(
    fc.record({
      kind: fc.constant('trigger' as const),
      who: fc.constantFrom(...who),
      market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      trigger: fc.constantFrom('stop_market' as const, 'take_profit_market' as const),
      size: fc.oneof(fc.bigInt({ min: -2n, max: 2_000n }), fc.bigInt({ min: 1n, max: 200_000n })),
      // Where the trigger sits from the oracle (either side, so some are refused as already reached).
      offsetBps: fc.oneof(fc.integer({ min: -150, max: 150 }), fc.integer({ min: -600, max: 600 })),
      reduceOnly: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('tpsl' as const),
      who: fc.constantFrom(...who),
      market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
      tpBps: fc.option(fc.integer({ min: -300, max: 600 }), { nil: undefined }),
      slBps: fc.option(fc.integer({ min: -300, max: 600 }), { nil: undefined }),
    }),
  );
}
type TriggerStep = ReturnType<typeof triggerAction> extends fc.Arbitrary<infer T> ? T : never;

function priceOff(exchange: PerpExchange, market: string, bps: number): bigint {
  const { oracle, spec } = exchange.market(market);
  const raw = oracle + (oracle * BigInt(bps)) / 10_000n;
  return raw < spec.tick ? spec.tick : (raw / spec.tick) * spec.tick;
}

/** Places a trigger action's order (a refusal throws PerpError and changes nothing). */
function playTrigger(exchange: PerpExchange, step: TriggerStep, at: number): void {
  if (step.kind === 'trigger') {
    exchange.placeTrigger({
      account: step.who,
      market: step.market,
      side: step.side,
      kind: step.trigger,
      size: step.size,
      triggerPrice: priceOff(exchange, step.market, step.offsetBps),
      reduceOnly: step.reduceOnly,
      at,
    });
    return;
  }
  const held = exchange.account(step.who).positions.get(step.market)?.size ?? 0n;
  // A TP sits on the profitable side of the position, an SL on the other (the offset's sign may
  // put either on the wrong side: refused).
  const toward = held >= 0n ? 1 : -1;
  exchange.setPositionTpsl({
    account: step.who,
    market: step.market,
    takeProfit: step.tpBps === undefined ? undefined : priceOff(exchange, step.market, toward * step.tpBps),
    stopLoss: step.slBps === undefined ? undefined : priceOff(exchange, step.market, -toward * step.slBps),
    at,
  });
}

/**
 * Fires a market's triggers (as the keeper does after an oracle move) and checks the trigger rules:
 * each fires once (never again, and nothing reached is left waiting), only when the oracle has
 * reached it, and a reduce-only one never increases its owner's position.
 */
function fireAndCheck(exchange: PerpExchange, market: string, at: number, fired: Set<number>): TriggerResult {
  const waiting = new Map<number, unknown>();
  for (const m of exchange.markets.values()) for (const t of m.triggers.values()) waiting.set(t.id, t);
  const result = exchange.fireTriggers(market, at);
  for (const entry of result.fired) {
    expect(fired.has(entry.trigger.id)).toBe(false);
    fired.add(entry.trigger.id);
    expect(waiting.has(entry.trigger.id)).toBe(true);
    expect(exchange.findTrigger(entry.trigger.id)).toBeUndefined();
    expect(isTriggered(entry.trigger, entry.oracle)).toBe(true);
    if (entry.trigger.reduceOnly) {
      const { before, after } = entry;
      expect(after < 0n ? -after : after).toBeLessThanOrEqual(before < 0n ? -before : before);
      expect(after === 0n || after > 0n === before > 0n).toBe(true);
    }
    expect(entry.result === undefined).toBe(entry.refusal !== undefined);
  }
  expect(exchange.triggeredIds(market)).toEqual([]);
  // A position's TP/SL covers the position it is attached to, on the closing side.
  for (const m of exchange.markets.values()) {
    for (const t of m.triggers.values()) {
      expect(fired.has(t.id)).toBe(false);
      if (t.attached === null) continue;
      const held = exchange.account(t.account).positions.get(t.market)?.size ?? 0n;
      expect(t.size).toBe(held < 0n ? -held : held);
      expect(held > 0n ? 'sell' : 'buy').toBe(t.side);
    }
  }
  return result;
}

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
  // Two actors trade with each other at a price far from the oracle (or at the band's edge).
  wash(ACTORS),
  triggerAction(ACTORS),
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
    const seen = { runs: 0, fills: 0, liquidations: 0, refusals: 0, triggers: 0, fired: 0, triggerFills: 0 };
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
        const fired = new Set<number>();
        const liquidateAll = () => {
          for (const id of exchange.liquidatable()) {
            const result = exchange.liquidate(id, at, 'maker');
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
                const held = exchange.accounts.get(step.who)?.positions.get(step.market)?.size ?? 0n;
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
                if (step.reduceOnly) {
                  // Reduce-only never increases (nor flips) the position.
                  const after = exchange.account(step.who).positions.get(step.market)?.size ?? 0n;
                  expect(after < 0n ? -after : after).toBeLessThanOrEqual(held < 0n ? -held : held);
                  expect(after === 0n || after > 0n === held > 0n).toBe(true);
                }
                seen.fills += placed.fills.length;
                break;
              }
              case 'trigger':
              case 'tpsl':
                playTrigger(exchange, step, at);
                seen.triggers++;
                break;
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
                // On every oracle move the keeper fires the triggers it reached, then liquidates.
                const triggered = fireAndCheck(exchange, step.market, at, fired);
                seen.fired += triggered.fired.length;
                seen.triggerFills += triggered.fired.filter((f) => (f.result?.fills.length ?? 0) > 0).length;
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
              case 'wash': {
                const played = playWash(exchange, { ...step, at });
                seen.fills += played.fills.length;
                seen.refusals += played.refusals;
                break;
              }
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
    // Triggers were placed, fired (over 3 runs: 270–320 placed, 100–140 fired, 24–33 filled).
    expect(seen.triggers).toBeGreaterThan(100);
    expect(seen.fired).toBeGreaterThan(40);
    expect(seen.triggerFills).toBeGreaterThan(8);
  }, 120_000);
});

// ── Properties: a colluding pair against the venue, the insurance fund and a bystander ────────

const PAIR = ['xavier', 'yvonne'] as const;
const pairAction = fc.oneof(
  { arbitrary: wash(PAIR), weight: 5 },
  // Stops and take-profits (standalone or a position's TP/SL) that the oracle's moves fire.
  { arbitrary: triggerAction(PAIR), weight: 5 },
  fc.record({
    kind: fc.constant('order' as const),
    who: fc.constantFrom(...PAIR),
    market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    type: fc.constantFrom('market' as const, 'limit' as const),
    size: fc.oneof(fc.bigInt({ min: 1n, max: 5_000n }), fc.bigInt({ min: 1n, max: 3_000_000n })),
    offsetBps: fc.oneof(fc.integer({ min: -9_000, max: 15_000 }), fc.integer({ min: -900, max: 900 })),
    leverage: fc.integer({ min: 1, max: 100 }),
    reduceOnly: fc.constantFrom(false, false, true),
  }),
  fc.record({ kind: fc.constant('close' as const), who: fc.constantFrom(...PAIR) }),
  fc.record({ kind: fc.constant('drain' as const), who: fc.constantFrom(...PAIR) }),
  fc.record({ kind: fc.constant('cancel' as const), who: fc.constantFrom(...PAIR) }),
  fc.record({
    kind: fc.constant('deposit' as const),
    who: fc.constantFrom(...PAIR),
    usdc: fc.integer({ min: 1, max: 20_000 }),
  }),
  fc.record({ kind: fc.constant('liquidate' as const) }),
  {
    // A colluder rests at the very edge of the band, where a liquidation's fills used to reach.
    arbitrary: fc.record({
      kind: fc.constant('edge' as const),
      who: fc.constantFrom(...PAIR),
      market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      size: fc.oneof(fc.bigInt({ min: 1n, max: 20_000n }), fc.bigInt({ min: 1n, max: 3_000_000n })),
      leverage: fc.integer({ min: 1, max: 100 }),
    }),
    weight: 2,
  },
  {
    // One rests at the oracle and the other takes it as large as its margin lets it: a position
    // close to liquidation, with its partner on the other side.
    arbitrary: fc.record({
      kind: fc.constant('leveraged' as const),
      who: fc.constantFrom(...PAIR),
      market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      leverage: fc.integer({ min: 5, max: 100 }),
    }),
    weight: 3,
  },
  {
    // The oracle moves (the keeper liquidates at once), sometimes past a bankruptcy price.
    arbitrary: fc.record({
      kind: fc.constant('oracle' as const),
      market: fc.constantFrom('SOL-PERP', 'BTC-PERP'),
      moveBps: fc.oneof(fc.integer({ min: -150, max: 150 }), fc.integer({ min: -1_500, max: 1_500 })),
    }),
    weight: 3,
  },
);

describe('PerpExchange against a colluding pair', () => {
  it(
    'trading with each other far from the oracle and resting at the band edge while it moves, two accounts take out no more than they put in plus what the oracle gives them; the insurance fund and a bystander pay only for the oracle gapping past a bankruptcy price',
    { timeout: 120_000 },
    () => {
      const seen = {
        fills: 0,
        pairFills: 0,
        refusals: 0,
        drained: 0,
        liquidations: 0,
        backstopped: 0,
        gapped: 0,
        liquidationPairFills: 0,
        triggers: 0,
        triggerFills: 0,
      };
      fc.assert(
        fc.property(
          fc.tuple(fc.integer({ min: 100, max: 20_000 }), fc.integer({ min: 100, max: 20_000 })),
          fc.array(pairAction, { minLength: 10, maxLength: 40 }),
          ([xDeposit, yDeposit], actions) => {
            const exchange = venue();
            exchange.fundInsurance(USDC(10_000));
            quote(exchange, 5_000n);
            for (const [side, price] of [
              ['buy', USDC(59_990)],
              ['sell', USDC(60_010)],
            ] as const) {
              exchange.placeOrder({
                account: 'maker',
                market: 'BTC-PERP',
                side,
                type: 'limit',
                size: 200n,
                price,
                leverage: 10,
                at: 0,
              });
            }
            exchange.deposit('bystander', USDC(1_000));
            exchange.deposit('xavier', USDC(xDeposit));
            exchange.deposit('yvonne', USDC(yDeposit));
            const insurance = exchange.insurance;
            let deposited = USDC(xDeposit) + USDC(yDeposit);
            let withdrawn = 0n;
            // What the pair gained from everyone else, valued at the oracle: buying below it or
            // selling above it (each fill may round one unit its way), and what the oracle's moves
            // did to the positions it held.
            let fair = 0n;
            // Σ over liquidations of max(0, −equity at the oracle): the loss the oracle made by
            // gapping past the account's bankruptcy price, the most the fund and the others may pay.
            let gaps = 0n;
            let insurancePaid = 0n;
            let socialized = 0n;
            const fired = new Set<number>();
            const pair = new Set<string>(PAIR);
            const pairEquity = () =>
              PAIR.reduce((sum, id) => sum + exchange.equityOf(exchange.account(id)), 0n);
            const count = (fills: readonly PerpFill[]) => {
              for (const fill of fills) {
                seen.fills++;
                const takerIn = pair.has(fill.taker);
                const makerIn = pair.has(fill.maker);
                if (takerIn && makerIn) {
                  seen.pairFills++;
                  continue;
                }
                if (!takerIn && !makerIn) continue;
                const { oracle, spec } = exchange.market(fill.market);
                const atOracle = (fill.size * oracle) / 10n ** BigInt(spec.sizeDecimals);
                const pairBuys = takerIn === (fill.side === 'buy');
                fair += (pairBuys ? atOracle - fill.notional : fill.notional - atOracle) + 1n;
              }
            };
            let at = 0;
            const liquidateAll = () => {
              for (const id of exchange.liquidatable()) {
                const equity = exchange.equityOf(exchange.account(id));
                const gap = equity < 0n ? -equity : 0n;
                const result = exchange.liquidate(id, at, 'maker');
                count(result.fills);
                seen.liquidations++;
                if (result.backstopLots.size > 0) seen.backstopped++;
                if (gap > 0n) seen.gapped++;
                seen.liquidationPairFills += result.fills.filter(
                  (fill) => pair.has(fill.taker) && pair.has(fill.maker),
                ).length;
                // Book fills never took the account below zero, the backstop took the rest at the
                // oracle: what was covered is at most what the oracle's gap left.
                expect(result.insurancePaid + result.socializedLoss).toBeLessThanOrEqual(gap);
                gaps += gap;
                insurancePaid += result.insurancePaid;
                socialized += result.socializedLoss;
              }
            };
            for (const step of actions) {
              at++;
              const before = JSON.stringify(snapshotOf(exchange));
              try {
                switch (step.kind) {
                  case 'wash': {
                    const played = playWash(exchange, { ...step, at });
                    seen.refusals += played.refusals;
                    count(played.fills);
                    break;
                  }
                  case 'order': {
                    const { oracle, spec } = exchange.market(step.market);
                    const raw = oracle + (oracle * BigInt(step.offsetBps)) / 10_000n;
                    const price = raw < spec.tick ? spec.tick : (raw / spec.tick) * spec.tick;
                    count(
                      exchange.placeOrder({
                        account: step.who,
                        market: step.market,
                        side: step.side,
                        type: step.type,
                        size: step.size,
                        price,
                        leverage: step.leverage,
                        reduceOnly: step.reduceOnly,
                        at,
                      }).fills,
                    );
                    break;
                  }
                  case 'close': {
                    // One position per step, so that a refusal is one command's.
                    const account = exchange.account(step.who);
                    for (const [market, position] of [...account.positions].slice(0, 1)) {
                      count(
                        exchange.placeOrder({
                          account: step.who,
                          market,
                          side: position.size > 0n ? 'sell' : 'buy',
                          type: 'market',
                          size: position.size > 0n ? position.size : -position.size,
                          leverage: account.leverage.get(market) ?? 1,
                          reduceOnly: true,
                          at,
                        }).fills,
                      );
                    }
                    break;
                  }
                  case 'drain': {
                    const free = exchange.freeCollateralOf(exchange.account(step.who));
                    exchange.withdraw(step.who, free);
                    withdrawn += free;
                    seen.drained++;
                    break;
                  }
                  case 'cancel':
                    exchange.cancelAll(step.who);
                    break;
                  case 'deposit':
                    exchange.deposit(step.who, USDC(step.usdc));
                    deposited += USDC(step.usdc);
                    break;
                  case 'liquidate':
                    liquidateAll();
                    break;
                  case 'edge': {
                    const { oracle, spec } = exchange.market(step.market);
                    const band = (oracle * 800n) / 10_000n;
                    const price =
                      step.side === 'buy'
                        ? ((oracle - band + spec.tick - 1n) / spec.tick) * spec.tick
                        : ((oracle + band) / spec.tick) * spec.tick;
                    count(
                      exchange.placeOrder({
                        account: step.who,
                        market: step.market,
                        side: step.side,
                        type: 'limit',
                        size: step.size,
                        price,
                        leverage: step.leverage,
                        postOnly: true,
                        at,
                      }).fills,
                    );
                    break;
                  }
                  case 'leveraged': {
                    const { oracle, spec } = exchange.market(step.market);
                    const leverage = Math.min(step.leverage, spec.maxLeverage);
                    const equity = exchange.equityOf(exchange.account(step.who));
                    const size =
                      ((equity > 0n ? equity : 0n) *
                        BigInt(leverage) *
                        9n *
                        10n ** BigInt(spec.sizeDecimals)) /
                      (10n * oracle);
                    const partner = PAIR.find((id) => id !== step.who)!;
                    const played = playWash(exchange, {
                      kind: 'wash',
                      pair: { maker: partner, taker: step.who },
                      market: step.market,
                      side: step.side,
                      offsetBps: 0,
                      size: size > 0n ? size : 1n,
                      makerLeverage: spec.maxLeverage,
                      takerLeverage: leverage,
                      takerReduceOnly: false,
                      at,
                    });
                    seen.refusals += played.refusals;
                    count(played.fills);
                    break;
                  }
                  case 'oracle': {
                    const { oracle, spec } = exchange.market(step.market);
                    const next =
                      ((oracle + (oracle * BigInt(step.moveBps)) / 10_000n) / spec.tick) * spec.tick;
                    const held = pairEquity();
                    exchange.setOracle(step.market, next);
                    fair += pairEquity() - held;
                    const triggered = fireAndCheck(exchange, step.market, at, fired);
                    seen.triggerFills += triggered.fired.filter((f) => f.result?.fills.length).length;
                    count(triggered.fired.flatMap((f) => f.result?.fills ?? []));
                    liquidateAll();
                    break;
                  }
                  case 'trigger':
                  case 'tpsl': {
                    playTrigger(exchange, step, at);
                    seen.triggers++;
                    break;
                  }
                }
              } catch (error) {
                if (!(error instanceof PerpError)) throw error;
                seen.refusals++;
                expect(JSON.stringify(snapshotOf(exchange))).toBe(before);
              }
              // Nobody outside the pair pays for it beyond the oracle's gaps: the fund shrinks by at
              // most those, the bystander (no position) only by its share of what the fund could
              // not cover, and what the pair took out and still holds is bounded.
              expect(insurancePaid + socialized).toBeLessThanOrEqual(gaps);
              expect(exchange.insurance).toBeGreaterThanOrEqual(insurance - insurancePaid);
              expect(exchange.account('bystander').collateral).toBeGreaterThanOrEqual(
                USDC(1_000) - socialized,
              );
              let held = 0n;
              for (const id of PAIR) {
                const account = exchange.account(id);
                const equity = exchange.equityOf(account);
                expect(equity).toBeGreaterThanOrEqual(0n);
                held += equity;
              }
              expect(withdrawn + held).toBeLessThanOrEqual(deposited + fair + insurancePaid + socialized);
            }
          },
        ),
        { numRuns: 200 },
      );
      // The pair really traded with each other, far from the oracle and at the band's edge, and was
      // liquidated, into the backstop and past its bankruptcy price. The sample is random: 200 runs
      // see 18–36 liquidations (8 runs), so the bound sits well below what chance reaches.
      expect(seen.pairFills).toBeGreaterThan(50);
      expect(seen.liquidations).toBeGreaterThan(5);
      expect(seen.backstopped).toBeGreaterThan(0);
      expect(seen.gapped).toBeGreaterThan(0);
      expect(seen.drained).toBeGreaterThan(50);
      expect(seen.refusals).toBeGreaterThan(100);
      // Over 4 runs: 150–190 triggers placed, 2–12 filled when fired (a CI run saw 2, so the bound
      // asks only that some did).
      expect(seen.triggers).toBeGreaterThan(60);
      expect(seen.triggerFills).toBeGreaterThan(0);
    },
  );
});
