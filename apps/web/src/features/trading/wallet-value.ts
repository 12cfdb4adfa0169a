import {
  isStablecoin,
  parseSpecDecimal,
  SpecDecimal,
  type TPortfolio,
  type TSpotOrder,
} from '@solterm/contracts';

/** The wallet's worth on /trade: what it holds plus what its pending limit orders hold in escrow. */
export interface WalletValue {
  /** The dashboard's portfolio value: SOL and every token, at market prices. */
  readonly holdingsUsd: SpecDecimal;
  /** Funds escrowed on chain by pending limit orders (quote for a buy, base for a sell). */
  readonly escrowedUsd: SpecDecimal;
  readonly totalUsd: SpecDecimal;
  /** Pending orders whose escrowed token has no price here (left out of the total). */
  readonly unpricedOrders: number;
}

/** A token's US-dollar price as the portfolio has it: 1 for stablecoins, SOL's price, else the token row's. */
function getUsdPrice(portfolio: TPortfolio, symbol: string): SpecDecimal | null {
  if (isStablecoin(symbol)) return new SpecDecimal(1);
  if (symbol.toUpperCase() === 'SOL') return parseSpecDecimal(portfolio.sol_price_usd);
  const row = portfolio.tokens.find((token) => token.symbol.toUpperCase() === symbol.toUpperCase());
  return row && row.price_usd !== null ? parseSpecDecimal(row.price_usd) : null;
}

/**
 * The escrow of one pending limit order in the token it locks: a buy locks the unfilled quantity
 * times the limit price in the quote token, a sell the unfilled quantity of the base token.
 */
export function getOrderEscrow(order: TSpotOrder): { token: string; amount: SpecDecimal } | null {
  if (order.order_type !== 'Limit' || order.status !== 'Pending') return null;
  const [base, quote] = order.symbol.split('/');
  if (!base || !quote) return null;
  const remaining = new SpecDecimal(order.quantity).minus(order.filled_quantity);
  if (remaining.lte(0)) return null;
  if (order.side === 'Sell') return { token: base, amount: remaining };
  const price = parseSpecDecimal(order.price);
  return price ? { token: quote, amount: remaining.times(price) } : null;
}

/**
 * /trade's Wallet value: the portfolio total (the same figure as the dashboard's, tokens included)
 * plus the funds pending limit orders escrow, valued at the portfolio's prices.
 *
 * @example
 * // 1,000 USDC of holdings and a pending buy of 0.5 SOL at 140 USDC escrowing 70 USDC:
 * getWalletValue(portfolio, [pendingBuy]).totalUsd.toString(); // '1070'
 */
export function getWalletValue(portfolio: TPortfolio, orders: readonly TSpotOrder[]): WalletValue {
  const holdingsUsd = new SpecDecimal(portfolio.total_value_usd);
  let escrowedUsd = new SpecDecimal(0);
  let unpricedOrders = 0;
  for (const order of orders) {
    const escrow = getOrderEscrow(order);
    if (!escrow) continue;
    const price = getUsdPrice(portfolio, escrow.token);
    if (price) escrowedUsd = escrowedUsd.plus(escrow.amount.times(price));
    else unpricedOrders += 1;
  }
  return { holdingsUsd, escrowedUsd, totalUsd: holdingsUsd.plus(escrowedUsd), unpricedOrders };
}
