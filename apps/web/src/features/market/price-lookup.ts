import {
  getFullNameForTruncatedSymbol,
  isStablecoin,
  MARKET_MESSAGES,
  SpecDecimal,
} from '@solterm/contracts';
import { isPositive, toDecimal } from './market-values';
import { getPairId, type PairSelection } from './trading-state';

/** Dashboard coin prices keyed by lower-case symbol (GET /market/dashboard-coins), JSON numbers. */
export type WireCoinPrices = Readonly<Record<string, { price: number; change_24h: number } | undefined>>;

/** The calls the lookup makes, injected so the order can be tested and caches shared. */
export interface PriceSources {
  /** GET /trading/pair/{id}. */
  getPairPrice(pairId: string): Promise<{
    price: number;
    change_24h?: number | null;
    base_price_usd?: number | null;
  }>;
  /** GET /market/dashboard-coins (btc, eth, sol). */
  getDashboardCoins(): Promise<WireCoinPrices>;
  /** GET /market/data/{symbol}. */
  getMarketData(symbol: string): Promise<{ price: number; change_24h?: number | null }>;
}

/** Where the displayed price came from. */
export type PriceSource = 'pair' | 'dashboard' | 'market' | 'unavailable';

export interface PairPrice {
  /** Price of one base unit in quote units; zero when unavailable. */
  price: SpecDecimal;
  /** 24 h change in percent, when the source gave one. */
  change24h: SpecDecimal | null;
  /** The base token's USD price, when known. */
  baseUsd: SpecDecimal | null;
  source: PriceSource;
  /** 'USD price not available' when every source failed. */
  message: string | null;
}

const ZERO = new SpecDecimal(0);
const ONE = new SpecDecimal(1);

async function attempt<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch {
    return null;
  }
}

function coinOf(coins: WireCoinPrices | null, symbol: string) {
  return coins?.[symbol.toLowerCase()];
}

/**
 * Market data of a symbol; a symbol that looks truncated (`BITCO`) is retried with its full name
 * (spec part 1 §4).
 */
async function marketPrice(sources: PriceSources, symbol: string) {
  const data = await attempt(() => sources.getMarketData(symbol));
  if (data && isPositive(data.price)) return data;
  const fullName = getFullNameForTruncatedSymbol(symbol);
  if (!fullName) return null;
  const retried = await attempt(() => sources.getMarketData(fullName));
  return retried && isPositive(retried.price) ? retried : null;
}

/**
 * USD price of a quote token (spec part 1 §4 "quote-token price fallback"): stablecoins are 1,
 * then dashboard prices, then symbol market data. The spec's further steps (a price aggregator,
 * then for SOL a swap quote) are provider calls the server makes behind /market/data, so the
 * browser does not repeat them.
 */
export async function lookupQuoteUsd(
  sources: PriceSources,
  quote: string,
  coins?: WireCoinPrices | null,
): Promise<SpecDecimal | null> {
  if (isStablecoin(quote)) return ONE;
  const dashboard = coins === undefined ? await attempt(() => sources.getDashboardCoins()) : coins;
  const coin = coinOf(dashboard, quote);
  if (coin && isPositive(coin.price)) return toDecimal(coin.price);
  const market = await marketPrice(sources, quote);
  return market ? toDecimal(market.price) : null;
}

/**
 * The price of a pair (spec part 1 §4): the pair endpoint when it answers a price above 0; else the
 * base's USD price from the dashboard coin prices, else from its market data, converted into the
 * quote with the quote-token fallback; else 0 with 'USD price not available'.
 */
export async function lookupPairPrice(sources: PriceSources, selection: PairSelection): Promise<PairPrice> {
  const pair = await attempt(() => sources.getPairPrice(getPairId(selection)));
  if (pair && isPositive(pair.price)) {
    return {
      price: toDecimal(pair.price) ?? ZERO,
      change24h: toDecimal(pair.change_24h),
      baseUsd: isPositive(pair.base_price_usd) ? toDecimal(pair.base_price_usd) : null,
      source: 'pair',
      message: null,
    };
  }

  const coins = await attempt(() => sources.getDashboardCoins());
  let baseUsd: SpecDecimal | null = null;
  let change24h: SpecDecimal | null = null;
  let source: PriceSource = 'unavailable';
  const coin = coinOf(coins, selection.base);
  if (coin && isPositive(coin.price)) {
    baseUsd = toDecimal(coin.price);
    change24h = toDecimal(coin.change_24h);
    source = 'dashboard';
  } else {
    const market = await marketPrice(sources, selection.base);
    if (market) {
      baseUsd = toDecimal(market.price);
      change24h = toDecimal(market.change_24h);
      source = 'market';
    }
  }

  const quoteUsd = baseUsd ? await lookupQuoteUsd(sources, selection.quote, coins) : null;
  if (!baseUsd || !quoteUsd || quoteUsd.isZero()) {
    return {
      price: ZERO,
      change24h: null,
      baseUsd,
      source: 'unavailable',
      message: MARKET_MESSAGES.usdPriceUnavailable,
    };
  }
  return {
    price: baseUsd.div(quoteUsd),
    // A USD change is the pair's change only against a stable quote.
    change24h: isStablecoin(selection.quote) ? change24h : null,
    baseUsd,
    source,
    message: null,
  };
}
