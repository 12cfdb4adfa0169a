import { PerpExchange } from './perp-exchange';
import type { PerpMarketSpec } from './perp-state';

// The venue the PerpExchange tests start from (perp-exchange, perp-funding and perp-liquidation tests).

export const SOL: PerpMarketSpec = {
  symbol: 'SOL-PERP',
  sizeDecimals: 3,
  tick: 10_000n,
  minSize: 1n,
  maxLeverage: 100,
};
export const BTC: PerpMarketSpec = {
  symbol: 'BTC-PERP',
  sizeDecimals: 4,
  tick: 1_000_000n,
  minSize: 10n,
  maxLeverage: 50,
};
export const USDC = (n: number) => BigInt(Math.round(n * 1_000_000));

/** SOL-PERP at 100 and BTC-PERP at 60,000, with a maker holding 1,000,000 USDC. */
export function venue() {
  const exchange = new PerpExchange([SOL, BTC]);
  exchange.setOracle('SOL-PERP', USDC(100));
  exchange.setOracle('BTC-PERP', USDC(60_000));
  exchange.deposit('maker', USDC(1_000_000));
  return exchange;
}

/** The maker rests `lots` on both sides, one tick around 100. */
export function quote(exchange: PerpExchange, lots = 100_000n) {
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
