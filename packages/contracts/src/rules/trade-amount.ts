import { VALIDATION_MESSAGES } from '../errors/messages';
import {
  MIN_TRADE_BASE_AMOUNT,
  MIN_TRADE_BASE_AMOUNT_STABLE,
  MIN_TRADE_EXTRA_FEE_RATE,
  MIN_TRADE_FEE_RATE,
  MIN_TRADE_LEVERAGE_FACTOR,
} from './constants';
import { SpecDecimal } from './decimal';
import { isStablecoin } from './token-identity';

/** The outcome of a validation: the parsed value, or the message to show. */
export type ValidationResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Why a trade number was refused. */
export type TradeNumberProblem = 'empty' | 'not_a_number' | 'not_finite' | 'not_positive';

/** The outcome of {@link parseTradeNumber}. */
export type ParsedTradeNumber =
  | { readonly ok: true; readonly value: SpecDecimal }
  | { readonly ok: false; readonly problem: TradeNumberProblem; readonly error: string };

/** A plain decimal, optionally signed, with an optional exponent: no hex, no words, no spaces inside. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * The fee the minimum-amount check assumes: (0.2 % + 0.05 %) times the leverage factor 1.
 *
 * @example
 * getMinimumTradeFeeRate().toString(); // '0.0025'
 */
export function getMinimumTradeFeeRate(): SpecDecimal {
  return new SpecDecimal(MIN_TRADE_FEE_RATE).plus(MIN_TRADE_EXTRA_FEE_RATE).times(MIN_TRADE_LEVERAGE_FACTOR);
}

/**
 * The smallest trade amount for a quote token (symbol or mint): the base minimum (0.01 for USD,
 * USDC and USDT quotes; 1e-6 for SOL and any other quote) divided by (1 − fees), in 18 digits
 * rounded half up.
 *
 * @example
 * getMinimumTradeAmount('USDC').toString(); // '0.010025062656641604'
 * getMinimumTradeAmount('SOL').toString();  // '0.0000010025062656641604'
 */
export function getMinimumTradeAmount(quoteSymbol: string): SpecDecimal {
  const base = isStablecoin(quoteSymbol) ? MIN_TRADE_BASE_AMOUNT_STABLE : MIN_TRADE_BASE_AMOUNT;
  return new SpecDecimal(base).div(new SpecDecimal(1).minus(getMinimumTradeFeeRate()));
}

/**
 * The minimum as the error message shows it: 2 decimals for stablecoin quotes, 6 otherwise.
 *
 * @example
 * formatMinimumTradeAmount('USDT'); // '0.01'
 * formatMinimumTradeAmount('SOL');  // '0.000001'
 */
export function formatMinimumTradeAmount(quoteSymbol: string): string {
  return getMinimumTradeAmount(quoteSymbol).toFixed(isStablecoin(quoteSymbol) ? 2 : 6);
}

/**
 * Parses a number typed into a trade form: commas are stripped and surrounding spaces ignored; it
 * must be a plain decimal (exponent allowed), finite as a JS number, and greater than 0.
 *
 * @example
 * parseTradeNumber('1,000.5'); // { ok: true, value: SpecDecimal(1000.5) }
 * parseTradeNumber('0');       // { ok: false, problem: 'not_positive', error: 'Amount and price must be greater than 0' }
 * parseTradeNumber('1e309');   // { ok: false, problem: 'not_finite', … }
 */
export function parseTradeNumber(raw: string | number | null | undefined): ParsedTradeNumber {
  const text = (raw === null || raw === undefined ? '' : String(raw)).replace(/,/g, '').trim();
  if (text === '') return { ok: false, problem: 'empty', error: VALIDATION_MESSAGES.amountAndPriceRequired };
  if (/^[+-]?infinity$/i.test(text))
    return { ok: false, problem: 'not_finite', error: VALIDATION_MESSAGES.notFinite };
  if (!PLAIN_NUMBER.test(text))
    return { ok: false, problem: 'not_a_number', error: VALIDATION_MESSAGES.notANumber };
  // The web form holds JS numbers, so a value past the double range is not a usable amount.
  if (!Number.isFinite(Number(text)))
    return { ok: false, problem: 'not_finite', error: VALIDATION_MESSAGES.notFinite };
  const value = new SpecDecimal(text);
  if (value.lte(0))
    return { ok: false, problem: 'not_positive', error: VALIDATION_MESSAGES.amountAndPriceNotPositive };
  return { ok: true, value };
}

/**
 * Validates a trade amount: a positive finite number (see {@link parseTradeNumber}) of at least the
 * minimum for the quote token, else `Minimum amount is <min> <base> (accounting for fees)`.
 *
 * @example
 * validateTradeAmount('0.005', 'SOL', 'USDC');
 * // { ok: false, error: 'Minimum amount is 0.01 SOL (accounting for fees)' }
 * validateTradeAmount('1,000', 'BONK', 'SOL'); // { ok: true, value: SpecDecimal(1000) }
 */
export function validateTradeAmount(
  rawInput: string,
  baseSymbol: string,
  quoteSymbol: string,
): ValidationResult<SpecDecimal> {
  const parsed = parseTradeNumber(rawInput);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  if (parsed.value.lt(getMinimumTradeAmount(quoteSymbol))) {
    return {
      ok: false,
      error: VALIDATION_MESSAGES.minimumAmount(formatMinimumTradeAmount(quoteSymbol), baseSymbol),
    };
  }
  return { ok: true, value: parsed.value };
}

/** The quick-trade form's fields. */
export interface QuickTradeInput {
  readonly amount: string;
  readonly price: string;
  readonly baseSymbol: string;
  readonly quoteSymbol: string;
}

/**
 * Validates the quick-trade form (part 1 §5): both fields present ('Please enter both amount and
 * price'), both positive finite numbers ('Amount and price must be greater than 0'), then the
 * minimum amount.
 *
 * @example
 * validateQuickTrade({ amount: '', price: '150', baseSymbol: 'SOL', quoteSymbol: 'USDC' });
 * // { ok: false, error: 'Please enter both amount and price' }
 */
export function validateQuickTrade(
  input: QuickTradeInput,
): ValidationResult<{ readonly amount: SpecDecimal; readonly price: SpecDecimal }> {
  if (input.amount.trim() === '' || input.price.trim() === '') {
    return { ok: false, error: VALIDATION_MESSAGES.amountAndPriceRequired };
  }
  const price = parseTradeNumber(input.price);
  if (!price.ok) return { ok: false, error: price.error };
  const amount = validateTradeAmount(input.amount, input.baseSymbol, input.quoteSymbol);
  if (!amount.ok) return amount;
  return { ok: true, value: { amount: amount.value, price: price.value } };
}
