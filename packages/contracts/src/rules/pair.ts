import { DEFAULT_PAIR } from './constants';
import { getTokenByMint, getTokenBySymbol, isSolanaAddress } from './token-identity';

/** A trading pair read from its text form. */
export interface ParsedPair {
  /** Base symbol (upper case), or the base mint when the mint is not in the identity map. */
  readonly base: string;
  /** Quote symbol (upper case), or the quote mint when the mint is not in the identity map. */
  readonly quote: string;
  /** Base mint, when given or known from the identity map. */
  readonly baseMint?: string;
  /** Quote mint, when given or known from the identity map. */
  readonly quoteMint?: string;
}

function parsePairSide(text: string): { symbol: string; mint?: string } | null {
  const side = text.trim();
  if (side === '') return null;
  // No symbol is 32+ base58 characters, so any address form is a mint. The spec's recogniser says
  // 44 characters, but real mints such as wrapped SOL's and JUP's are 43; accepting 32–44 keeps
  // those pairs working.
  if (isSolanaAddress(side)) {
    const known = getTokenByMint(side);
    return { symbol: known?.symbol ?? side, mint: side };
  }
  const symbol = side.toUpperCase();
  const known = getTokenBySymbol(symbol);
  return known ? { symbol, mint: known.mint } : { symbol };
}

/**
 * Reads a pair written as symbols (`SOL/USDC`) or as mints (`baseMint/quoteMint`). Symbols are
 * upper-cased; mints are kept as written and resolved to their symbols when known. Returns `null`
 * when the text is not two non-empty sides around one `/`.
 *
 * @example
 * parsePair('sol/usdc');
 * // { base: 'SOL', quote: 'USDC', baseMint: 'So111…112', quoteMint: 'EPjF…Dt1v' }
 * parsePair('DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263/So11111111111111111111111111111111111111112');
 * // { base: 'BONK', quote: 'SOL', baseMint: 'DezX…B263', quoteMint: 'So111…112' }
 */
export function parsePair(text: string): ParsedPair | null {
  const sides = text.split('/');
  if (sides.length !== 2) return null;
  const base = parsePairSide(sides[0] ?? '');
  const quote = parsePairSide(sides[1] ?? '');
  if (!base || !quote) return null;
  return {
    base: base.symbol,
    quote: quote.symbol,
    ...(base.mint === undefined ? {} : { baseMint: base.mint }),
    ...(quote.mint === undefined ? {} : { quoteMint: quote.mint }),
  };
}

/**
 * {@link parsePair}, falling back to {@link DEFAULT_PAIR} (SOL/USDC) for a missing or unreadable
 * pair, e.g. the `pair` query parameter.
 *
 * @example
 * parsePairOrDefault(new URLSearchParams(location.search).get('pair')).base; // 'SOL' when absent
 */
export function parsePairOrDefault(text: string | null | undefined): ParsedPair {
  return (text ? parsePair(text) : null) ?? (parsePair(DEFAULT_PAIR) as ParsedPair);
}

/**
 * Writes a pair in its text form.
 *
 * @example
 * formatPair('sol', 'usdc'); // 'SOL/USDC'
 */
export function formatPair(base: string, quote: string): string {
  const side = (text: string) => (isSolanaAddress(text.trim()) ? text.trim() : text.trim().toUpperCase());
  return `${side(base)}/${side(quote)}`;
}

/** The trading-state slot a page uses: trading state is kept separately per context. */
export type TradingContext = 'trade' | 'dashboard' | 'futures';

/**
 * Chooses the trading context of a page from its path: whether it contains `trade`, `dashboard`
 * or `futures`, in that order, defaulting to `trade`. As the spec words it, the futures page's
 * route `/future` does not contain `futures` and therefore shares the `trade` context.
 *
 * @example
 * getTradingContext('/dashboard'); // 'dashboard'
 * getTradingContext('/future');    // 'trade'
 */
export function getTradingContext(pathname: string): TradingContext {
  const path = pathname.toLowerCase();
  if (path.includes('trade')) return 'trade';
  if (path.includes('dashboard')) return 'dashboard';
  if (path.includes('futures')) return 'futures';
  return 'trade';
}

/** The pair a dashboard coin card selects when clicked, by lower-case coin symbol. */
export const DASHBOARD_COIN_PAIRS = {
  btc: 'BTC/SOL',
  eth: 'ETH/SOL',
  sol: 'SOL/USDC',
} as const;

/** A dashboard coin card symbol. */
export type DashboardCoin = keyof typeof DASHBOARD_COIN_PAIRS;

/**
 * The pair a dashboard coin card selects, or `undefined` for a coin without a card.
 *
 * @example
 * getDashboardCoinPair('BTC'); // 'BTC/SOL'
 */
export function getDashboardCoinPair(
  symbol: string,
): (typeof DASHBOARD_COIN_PAIRS)[DashboardCoin] | undefined {
  const key = symbol.trim().toLowerCase();
  return Object.hasOwn(DASHBOARD_COIN_PAIRS, key) ? DASHBOARD_COIN_PAIRS[key as DashboardCoin] : undefined;
}
