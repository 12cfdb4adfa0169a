import { describe, expect, it } from 'vitest';
import type { PerpExchange } from './perp-exchange';
import { PerpError } from './perp-state';
import { exchangeFromSnapshot, snapshotOf } from './perp-snapshot';
import { PERP_MAX_TRIGGERS_PER_MARKET } from './perp-triggers';
import { BTC, quote, SOL, USDC, venue } from './perp-test-venue';

function refused(exchange: PerpExchange, command: () => unknown, code: string): PerpError {
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
  return caught as PerpError;
}

/** A venue quoted around 100 with alice long 1 SOL (1,000 lots). */
function withLong() {
  const exchange = venue();
  quote(exchange);
  exchange.deposit('alice', USDC(1_000));
  exchange.placeOrder({
    account: 'alice',
    market: 'SOL-PERP',
    side: 'buy',
    type: 'market',
    size: 1_000n,
    leverage: 10,
    at: 1,
  });
  return exchange;
}

const sizeOf = (exchange: PerpExchange, who: string) =>
  exchange.account(who).positions.get('SOL-PERP')?.size ?? 0n;

describe('PerpExchange trigger orders', () => {
  it('a stop market to sell waits below the oracle and fires once, as a market order under its own id', () => {
    const exchange = withLong();
    const stop = exchange.placeTrigger({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'sell',
      kind: 'stop_market',
      size: 1_000n,
      triggerPrice: USDC(95),
      reduceOnly: true,
      at: 2,
    });
    // It holds no margin and is not in the book.
    expect(exchange.account('alice').orders.has(stop.id)).toBe(false);
    expect(exchange.triggersOf('alice').map((t) => t.id)).toEqual([stop.id]);
    exchange.setOracle('SOL-PERP', USDC(96));
    expect(exchange.triggeredIds('SOL-PERP')).toEqual([]);
    expect(exchange.fireTriggers('SOL-PERP', 3).fired).toEqual([]);
    exchange.setOracle('SOL-PERP', USDC(95));
    const result = exchange.fireTriggers('SOL-PERP', 4);
    expect(result.fired).toHaveLength(1);
    const [fired] = result.fired;
    expect(fired!.oracle).toBe(USDC(95));
    expect(fired!.result!.orderId).toBe(stop.id);
    expect(fired!.result!.fills[0]!.takerOrderId).toBe(stop.id);
    expect(fired!.result!.fills[0]!.price).toBe(USDC(99.99));
    expect([fired!.before, fired!.after]).toEqual([1_000n, 0n]);
    expect(sizeOf(exchange, 'alice')).toBe(0n);
    // Fired once: gone, and a second pass fires nothing.
    expect(exchange.triggersOf('alice')).toEqual([]);
    expect(exchange.fireTriggers('SOL-PERP', 5).fired).toEqual([]);
  });

  it('refuses a trigger the oracle has already reached (the wrong side), off the tick, or too small', () => {
    const exchange = withLong();
    const base = {
      account: 'alice',
      market: 'SOL-PERP',
      size: 1_000n,
      at: 2,
    } as const;
    const wrong = refused(
      exchange,
      () => exchange.placeTrigger({ ...base, side: 'sell', kind: 'stop_market', triggerPrice: USDC(100) }),
      'TRIGGER_WRONG_SIDE',
    );
    expect(wrong.message).toMatch(/Short stop market .* must be below the oracle price/);
    refused(
      exchange,
      () =>
        exchange.placeTrigger({ ...base, side: 'sell', kind: 'take_profit_market', triggerPrice: USDC(99) }),
      'TRIGGER_WRONG_SIDE',
    );
    refused(
      exchange,
      () => exchange.placeTrigger({ ...base, side: 'buy', kind: 'stop_market', triggerPrice: USDC(99) }),
      'TRIGGER_WRONG_SIDE',
    );
    refused(
      exchange,
      () =>
        exchange.placeTrigger({ ...base, side: 'buy', kind: 'take_profit_market', triggerPrice: USDC(101) }),
      'TRIGGER_WRONG_SIDE',
    );
    refused(
      exchange,
      () =>
        exchange.placeTrigger({ ...base, side: 'sell', kind: 'stop_market', triggerPrice: USDC(95) + 1n }),
      'PRICE_INVALID',
    );
    refused(
      exchange,
      () =>
        exchange.placeTrigger({
          ...base,
          side: 'sell',
          kind: 'stop_market',
          triggerPrice: USDC(95),
          size: 0n,
        }),
      'SIZE_INVALID',
    );
    // Reduce-only needs a position on the other side.
    refused(
      exchange,
      () =>
        exchange.placeTrigger({
          ...base,
          side: 'buy',
          kind: 'stop_market',
          triggerPrice: USDC(105),
          reduceOnly: true,
        }),
      'REDUCE_ONLY_NO_POSITION',
    );
    refused(
      exchange,
      () =>
        exchange.placeTrigger({
          ...base,
          account: 'nobody',
          side: 'sell',
          kind: 'stop_market',
          triggerPrice: USDC(95),
        }),
      'ACCOUNT_UNKNOWN',
    );
  });

  it('a stop to buy opens a position at the breakout; one the margin cannot carry fires, is refused, and is gone', () => {
    const exchange = venue();
    quote(exchange);
    exchange.deposit('bea', USDC(100));
    const breakout = exchange.placeTrigger({
      account: 'bea',
      market: 'SOL-PERP',
      side: 'buy',
      kind: 'stop_market',
      size: 2_000n,
      triggerPrice: USDC(100.5),
      at: 1,
    });
    const tooBig = exchange.placeTrigger({
      account: 'bea',
      market: 'SOL-PERP',
      side: 'buy',
      kind: 'stop_market',
      size: 900_000n,
      triggerPrice: USDC(100.5),
      at: 1,
    });
    exchange.setOracle('SOL-PERP', USDC(100.6));
    const { fired } = exchange.fireTriggers('SOL-PERP', 2);
    expect(fired.map((f) => f.trigger.id)).toEqual([breakout.id, tooBig.id]);
    expect(fired[0]!.result!.fills.length).toBeGreaterThan(0);
    expect(sizeOf(exchange, 'bea')).toBe(2_000n);
    expect(fired[1]!.refusal?.code).toBe('INSUFFICIENT_MARGIN');
    expect(exchange.triggersOf('bea')).toEqual([]);
  });

  it('a position’s TP/SL: replaced, cancelled with null, resized when the position shrinks, cancelled when it closes', () => {
    const exchange = withLong();
    refused(
      exchange,
      () =>
        exchange.setPositionTpsl({ account: 'maker', market: 'BTC-PERP', takeProfit: USDC(70_000), at: 2 }),
      'TPSL_NO_POSITION',
    );
    refused(
      exchange,
      () => exchange.setPositionTpsl({ account: 'alice', market: 'SOL-PERP', takeProfit: USDC(95), at: 2 }),
      'TRIGGER_WRONG_SIDE',
    );
    // One wrong leg refuses both.
    refused(
      exchange,
      () =>
        exchange.setPositionTpsl({
          account: 'alice',
          market: 'SOL-PERP',
          takeProfit: USDC(110),
          stopLoss: USDC(101),
          at: 2,
        }),
      'TRIGGER_WRONG_SIDE',
    );
    const first = exchange.setPositionTpsl({
      account: 'alice',
      market: 'SOL-PERP',
      takeProfit: USDC(110),
      stopLoss: USDC(90),
      at: 2,
    });
    expect(first.placed.map((t) => [t.attached, t.side, t.kind, t.size, t.reduceOnly])).toEqual([
      ['tp', 'sell', 'take_profit_market', 1_000n, true],
      ['sl', 'sell', 'stop_market', 1_000n, true],
    ]);
    const second = exchange.setPositionTpsl({
      account: 'alice',
      market: 'SOL-PERP',
      takeProfit: USDC(120),
      at: 3,
    });
    expect(second.cancelled).toEqual([first.placed[0]!.id]);
    const dropped = exchange.setPositionTpsl({ account: 'alice', market: 'SOL-PERP', stopLoss: null, at: 3 });
    expect(dropped).toEqual({ placed: [], cancelled: [first.placed[1]!.id] });
    exchange.setPositionTpsl({ account: 'alice', market: 'SOL-PERP', stopLoss: USDC(91), at: 3 });
    // Half the position sold: both legs shrink with it.
    const half = exchange.placeOrder({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'market',
      size: 400n,
      at: 4,
    });
    expect(half.cancelled).toEqual([]);
    expect(exchange.triggersOf('alice').map((t) => t.size)).toEqual([600n, 600n]);
    // Closed: both are cancelled, and the closing order says so.
    const ids = exchange.triggersOf('alice').map((t) => t.id);
    const close = exchange.placeOrder({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'market',
      size: 600n,
      reduceOnly: true,
      at: 5,
    });
    expect(close.cancelled.sort()).toEqual(ids.sort());
    expect(exchange.triggersOf('alice')).toEqual([]);
  });

  it('the TP that closes a position cancels its SL (one cancels the other); a flip cancels both', () => {
    const exchange = withLong();
    const { placed } = exchange.setPositionTpsl({
      account: 'alice',
      market: 'SOL-PERP',
      takeProfit: USDC(105),
      stopLoss: USDC(95),
      at: 2,
    });
    exchange.setOracle('SOL-PERP', USDC(105));
    const { fired } = exchange.fireTriggers('SOL-PERP', 3);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.trigger.id).toBe(placed[0]!.id);
    expect(fired[0]!.result!.cancelled).toEqual([placed[1]!.id]);
    expect(exchange.triggersOf('alice')).toEqual([]);

    const flip = withLong();
    flip.setPositionTpsl({ account: 'alice', market: 'SOL-PERP', takeProfit: USDC(105), at: 2 });
    const flipped = flip.placeOrder({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'market',
      size: 2_000n,
      at: 3,
    });
    expect(sizeOf(flip, 'alice')).toBe(-1_000n);
    expect(flipped.cancelled).toHaveLength(1);
    expect(flip.triggersOf('alice')).toEqual([]);
  });

  it('a reduce-only trigger never increases a position: it is trimmed to what is left, or refused with nothing', () => {
    const exchange = withLong();
    const stop = exchange.placeTrigger({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'sell',
      kind: 'stop_market',
      size: 5_000n,
      triggerPrice: USDC(95),
      reduceOnly: true,
      at: 2,
    });
    const late = exchange.placeTrigger({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'sell',
      kind: 'stop_market',
      size: 1_000n,
      triggerPrice: USDC(94),
      reduceOnly: true,
      at: 2,
    });
    exchange.setOracle('SOL-PERP', USDC(94));
    const { fired } = exchange.fireTriggers('SOL-PERP', 3);
    expect(fired.map((f) => [f.trigger.id, f.before, f.after])).toEqual([
      [stop.id, 1_000n, 0n],
      [late.id, 0n, 0n],
    ]);
    expect(fired[1]!.refusal?.code).toBe('REDUCE_ONLY_NO_POSITION');
  });

  it('cancels only the owner’s trigger orders; liquidation cancels them all; a snapshot keeps them', () => {
    const exchange = withLong();
    const stop = exchange.placeTrigger({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'sell',
      kind: 'stop_market',
      size: 1_000n,
      triggerPrice: USDC(50),
      at: 2,
    });
    exchange.setPositionTpsl({ account: 'alice', market: 'SOL-PERP', takeProfit: USDC(150), at: 2 });
    refused(exchange, () => exchange.cancelOrder('maker', stop.id), 'ORDER_NOT_FOUND');
    const copy = exchangeFromSnapshot([SOL, BTC], snapshotOf(exchange));
    expect(snapshotOf(copy)).toEqual(snapshotOf(exchange));
    expect(copy.triggersOf('alice').map((t) => t.id)).toEqual(exchange.triggersOf('alice').map((t) => t.id));
    expect(exchange.cancelOrder('alice', stop.id)).toMatchObject({ id: stop.id, kind: 'stop_market' });
    refused(exchange, () => exchange.cancelOrder('alice', stop.id), 'ORDER_NOT_FOUND');

    // alice at 100x is liquidated by a 1.5 % drop: her TP goes with her position.
    const risky = venue();
    quote(risky);
    risky.deposit('alice', USDC(2));
    risky.placeOrder({
      account: 'alice',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 1_500n,
      leverage: 100,
      at: 1,
    });
    const { placed } = risky.setPositionTpsl({
      account: 'alice',
      market: 'SOL-PERP',
      takeProfit: USDC(150),
      at: 2,
    });
    risky.setOracle('SOL-PERP', USDC(98.5));
    expect(risky.liquidatable()).toEqual(['alice']);
    const liquidation = risky.liquidate('alice', 3, 'maker');
    expect(liquidation.cancelled).toContain(placed[0]!.id);
    expect(risky.triggersOf('alice')).toEqual([]);
  });

  it(`keeps at most ${PERP_MAX_TRIGGERS_PER_MARKET} trigger orders per account and market`, () => {
    const exchange = withLong();
    for (let i = 0; i < PERP_MAX_TRIGGERS_PER_MARKET; i++) {
      exchange.placeTrigger({
        account: 'alice',
        market: 'SOL-PERP',
        side: 'sell',
        kind: 'stop_market',
        size: 10n,
        triggerPrice: USDC(90 - i),
        at: 2,
      });
    }
    refused(
      exchange,
      () =>
        exchange.placeTrigger({
          account: 'alice',
          market: 'SOL-PERP',
          side: 'sell',
          kind: 'stop_market',
          size: 10n,
          triggerPrice: USDC(50),
          at: 3,
        }),
      'TRIGGER_LIMIT',
    );
    refused(
      exchange,
      () => exchange.setPositionTpsl({ account: 'alice', market: 'SOL-PERP', takeProfit: USDC(150), at: 3 }),
      'TRIGGER_LIMIT',
    );
  });
});
