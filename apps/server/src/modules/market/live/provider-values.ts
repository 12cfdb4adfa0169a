import type { TPool } from '@solterm/contracts';
import { parseSpecDecimal } from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import { decimalString, toSignificant, toWireNumber } from '../../../lib/wire-decimal';
import type { TDexPair } from './dexscreener';

// How the providers' answers become the API's numbers: a double's shortest text is the decimal the
// provider meant; money is rounded half up in decimals, and only then becomes a JSON number.

/** A provider's JSON number as a decimal (through its shortest text); null when missing or not finite. */
export function decimalOf(value: number | null | undefined): Dec | null {
  return value === null || value === undefined || !Number.isFinite(value)
    ? null
    : new Dec(decimalString(value));
}

/**
 * A number the provider computed (a price, a supply) on the wire as the provider sent it: a
 * double's shortest text is the decimal the provider meant. Null when missing or not finite.
 */
export function providerNumberOf(value: number | null | undefined): number | null {
  return value === null || value === undefined || !Number.isFinite(value) ? null : value;
}

/** A provider's decimal text (DexScreener prices) on the wire; null when missing or unparsable. */
export function numberFromText(text: string | null | undefined): number | null {
  const decimal = parseSpecDecimal(text);
  return decimal ? toWireNumber(decimal) : null;
}

/** A USD amount rounded half up to cents, as a decimal string (internal quotes). */
export function usdText(value: number | null | undefined): string | null {
  return decimalOf(value)?.toFixed(2) ?? null;
}

/** A USD amount rounded half up to cents, on the wire. */
export function usdOf(value: number | null | undefined): number | null {
  const text = usdText(value);
  return text === null ? null : toWireNumber(text);
}

/** A percentage rounded half up to two decimals, on the wire (0 when missing). */
export function percentOf(value: number | null | undefined): number {
  return toWireNumber(decimalOf(value)?.toFixed(2) ?? '0');
}

/** CoinGecko writes trending market caps as text ("$1,234,567"): rounded to cents, on the wire. */
export function usdFromText(text: string | undefined): number | null {
  const digits = text?.replace(/[^0-9.]/g, '');
  const decimal = digits ? parseSpecDecimal(digits) : null;
  return decimal ? toWireNumber(decimal.toFixed(2)) : null;
}

/** CoinGecko sometimes writes a trending price as text ("$0.00001167"): a price keeps its significant digits. */
export function priceFromText(text: string): number | null {
  const digits = text.replace(/[^0-9.]/g, '');
  const decimal = digits ? parseSpecDecimal(digits) : null;
  return decimal ? toWireNumber(toSignificant(decimal)) : null;
}

export function bestPair(pairs: readonly TDexPair[]): TDexPair | undefined {
  return [...pairs].sort((a, b) => (b.liquidity?.usd ?? 0) - (a.liquidity?.usd ?? 0))[0];
}

export function poolOf(pair: TDexPair): TPool {
  return {
    pair_address: pair.pairAddress,
    dex_id: pair.dexId,
    chain_id: pair.chainId,
    url: pair.url ?? null,
    labels: pair.labels ?? [],
    base_token: pair.baseToken,
    quote_token: pair.quoteToken,
    price_usd: numberFromText(pair.priceUsd),
    price_native: numberFromText(pair.priceNative),
    liquidity_usd: usdOf(pair.liquidity?.usd),
    volume_24h: usdOf(pair.volume?.h24),
    price_change_24h: pair.priceChange?.h24 === undefined ? null : percentOf(pair.priceChange.h24),
    fdv: usdOf(pair.fdv),
    market_cap: usdOf(pair.marketCap),
    pair_created_at: pair.pairCreatedAt ? new Date(pair.pairCreatedAt).toISOString() : null,
  };
}
