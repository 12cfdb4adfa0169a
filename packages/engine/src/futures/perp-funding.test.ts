import { describe, expect, it } from 'vitest';
import { Dec } from '../money/decimal';
import { quote, USDC, venue } from './perp-test-venue';

describe('PerpExchange funding', () => {
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
});
