import { describe, expect, it } from 'vitest';
import { quote, USDC, venue } from './perp-test-venue';

describe('PerpExchange liquidations', () => {
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
    const result = exchange.liquidate('fay', 3, 'maker');
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
    const gap = -exchange.equityOf(exchange.account('gus'));
    const result = exchange.liquidate('gus', 3, 'maker');
    // Nothing in the book is better than gus's bankruptcy price: the maker takes the 9 SOL over at
    // the oracle, and the loss covered is exactly the one the oracle's gap made.
    expect(result.fills).toMatchObject([{ maker: 'maker', makerOrderId: 0, price: USDC(95), size: 9_000n }]);
    expect(result.backstopLots).toEqual(new Map([['SOL-PERP', 9_000n]]));
    // (The maker had sold gus those 9 SOL: taking them back leaves it flat.)
    expect(exchange.account('maker').positions.has('SOL-PERP')).toBe(false);
    expect(result.insurancePaid + result.socializedLoss).toBe(gap);
    expect(result.insurancePaid).toBe(USDC(1));
    expect(result.socializedLoss).toBeGreaterThan(0n);
    expect(exchange.account('gus').collateral).toBe(0n);
    expect(exchange.insurance).toBe(0n);
    expect(exchange.totalValue()).toBe(total);
  });
});

describe('PerpExchange liquidations against a colluder', () => {
  /**
   * A thin book: Y buys 9 SOL at 100x from X, the oracle falls 0.7 % and Y is liquidatable with
   * 3.07 USDC of equity, while X rests the only bid, at the band's edge 8 % under the oracle. Before
   * the bankruptcy-price limit the liquidation sold Y's 9 SOL to X at 91.36: Y ended at −68.965568,
   * the insurance fund paid all of it and X gained 71.131104 at the oracle (71.46 less its 0.328896
   * fee) — the pair's own loss moved onto the fund. Now the book is used only down to Y's bankruptcy price (99.03), the
   * maker takes the 9 SOL over at the oracle with Y's last 3.07, and the fund pays nothing.
   */
  it('a colluder resting at the band edge cannot buy a liquidation into the insurance fund', () => {
    const exchange = venue();
    exchange.fundInsurance(USDC(10_000));
    exchange.deposit('x', USDC(1_000));
    exchange.deposit('y', USDC(10));
    exchange.placeOrder({
      account: 'x',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'limit',
      size: 9_000n,
      price: USDC(100),
      leverage: 10,
      at: 1,
    });
    exchange.placeOrder({
      account: 'y',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 9_000n,
      leverage: 100,
      at: 2,
    });
    exchange.setOracle('SOL-PERP', USDC(99.3));
    exchange.placeOrder({
      account: 'x',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 9_000n,
      price: USDC(91.36), // ⌈99.3 × 0.92⌉ on the tick: the band's edge
      leverage: 10,
      at: 3,
    });
    const y = exchange.account('y');
    expect(exchange.liquidatable()).toEqual(['y']);
    expect(exchange.equityOf(y)).toBe(USDC(3.07));
    const total = exchange.totalValue();
    const xBefore = exchange.equityOf(exchange.account('x'));
    const makerBefore = exchange.equityOf(exchange.account('maker'));

    const result = exchange.liquidate('y', 4, 'maker');

    expect(result.fills.filter((fill) => fill.maker === 'x')).toEqual([]);
    expect(result.fills).toMatchObject([
      { maker: 'maker', price: USDC(99.3), size: 9_000n, liquidation: true },
    ]);
    expect(result.insurancePaid).toBe(0n);
    expect(result.socializedLoss).toBe(0n);
    expect(exchange.insurance).toBe(USDC(10_000));
    expect(result.backstopCollateral).toBe(USDC(3.07));
    expect(y.positions.size).toBe(0);
    expect(y.collateral).toBe(0n);
    // X gained nothing; the maker holds 9 SOL at the oracle and Y's last equity.
    expect(exchange.equityOf(exchange.account('x'))).toBe(xBefore);
    expect(exchange.equityOf(exchange.account('maker'))).toBe(makerBefore + USDC(3.07));
    expect(exchange.account('x').orders.size).toBe(1);
    expect(exchange.totalValue()).toBe(total);
  });

  it('a bid at or above the bankruptcy price still takes the liquidation, leaving the account no less than zero', () => {
    const exchange = venue();
    exchange.fundInsurance(USDC(10_000));
    exchange.deposit('x', USDC(1_000));
    exchange.deposit('y', USDC(10));
    exchange.placeOrder({
      account: 'x',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'limit',
      size: 9_000n,
      price: USDC(100),
      leverage: 10,
      at: 1,
    });
    exchange.placeOrder({
      account: 'y',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 9_000n,
      leverage: 100,
      at: 2,
    });
    exchange.setOracle('SOL-PERP', USDC(99.3));
    // 4 SOL at the bankruptcy price (99.03), then a bid a tick under it.
    for (const [price, size] of [
      [USDC(99.03), 4_000n],
      [USDC(99.02), 9_000n],
    ] as const) {
      exchange.placeOrder({
        account: 'x',
        market: 'SOL-PERP',
        side: 'buy',
        type: 'limit',
        size,
        price,
        leverage: 10,
        at: 3,
      });
    }
    const total = exchange.totalValue();
    const result = exchange.liquidate('y', 4, 'maker');
    expect(result.fills.map((fill) => [fill.maker, fill.price, fill.size])).toEqual([
      ['x', USDC(99.03), 4_000n],
      ['maker', USDC(99.3), 5_000n],
    ]);
    expect(result.insurancePaid).toBe(0n);
    expect(exchange.account('y').collateral).toBe(0n);
    expect(exchange.insurance).toBeGreaterThanOrEqual(USDC(10_000));
    expect(exchange.totalValue()).toBe(total);
  });

  it('without a backstop, what the book cannot take above the bankruptcy price stays open', () => {
    const exchange = venue();
    exchange.fundInsurance(USDC(10_000));
    exchange.deposit('x', USDC(1_000));
    exchange.deposit('y', USDC(10));
    exchange.placeOrder({
      account: 'x',
      market: 'SOL-PERP',
      side: 'sell',
      type: 'limit',
      size: 9_000n,
      price: USDC(100),
      leverage: 10,
      at: 1,
    });
    exchange.placeOrder({
      account: 'y',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'market',
      size: 9_000n,
      leverage: 100,
      at: 2,
    });
    exchange.setOracle('SOL-PERP', USDC(99.3));
    exchange.placeOrder({
      account: 'x',
      market: 'SOL-PERP',
      side: 'buy',
      type: 'limit',
      size: 9_000n,
      price: USDC(91.36),
      leverage: 10,
      at: 3,
    });
    const result = exchange.liquidate('y', 4);
    expect(result.fills).toEqual([]);
    expect(exchange.account('y').positions.get('SOL-PERP')?.size).toBe(9_000n);
    expect(exchange.insurance).toBe(USDC(10_000));
  });
});
