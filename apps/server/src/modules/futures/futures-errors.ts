import { parseFuturesDecimal, type ErrorCode } from '@solterm/contracts';
import { PerpError, type Dec, type PerpErrorCode } from '@solterm/engine';
import { AppError } from '../../lib/app-error';
import { isRelayError, moneyRequestErrorOf } from '../relay/relay.service';

/** Engine refusals as the API's errors (spec §5 and §8 wording). */
const PERP_ERRORS: Record<PerpErrorCode, ErrorCode> = {
  MARKET_UNKNOWN: 'FUTURES__MARKET_UNSUPPORTED',
  MARKET_NO_PRICE: 'FUTURES__NO_MARKET_PRICE',
  SIZE_INVALID: 'FUTURES__AMOUNT_OR_PRICE_INVALID',
  SIZE_BELOW_MIN: 'FUTURES__BELOW_MIN_ORDER_SIZE',
  PRICE_INVALID: 'FUTURES__AMOUNT_OR_PRICE_INVALID',
  PRICE_OUT_OF_BAND: 'FUTURES__PRICE_OUT_OF_BAND',
  LEVERAGE_INVALID: 'FUTURES__LEVERAGE_INVALID',
  LEVERAGE_MISMATCH: 'FUTURES__LEVERAGE_MISMATCH',
  LEVERAGE_UNDERMARGINED: 'FUTURES__LEVERAGE_UNDERMARGINED',
  INSUFFICIENT_MARGIN: 'FUTURES__INSUFFICIENT_MARGIN',
  POST_ONLY_WOULD_CROSS: 'FUTURES__POST_ONLY_WOULD_CROSS',
  REDUCE_ONLY_NO_POSITION: 'FUTURES__REDUCE_ONLY_NO_POSITION',
  NO_LIQUIDITY: 'FUTURES__NO_LIQUIDITY',
  ORDER_NOT_FOUND: 'FUTURES__ORDER_NOT_FOUND',
  AMOUNT_INVALID: 'FUTURES__AMOUNT_OR_PRICE_INVALID',
  INSUFFICIENT_COLLATERAL: 'FUTURES__INSUFFICIENT_FREE_COLLATERAL',
  ACCOUNT_UNKNOWN: 'FUTURES__NOT_INITIALIZED',
  TRIGGER_WRONG_SIDE: 'FUTURES__TRIGGER_WRONG_SIDE',
  TRIGGER_LIMIT: 'FUTURES__TRIGGER_LIMIT',
  TPSL_NO_POSITION: 'FUTURES__TPSL_NO_POSITION',
};

/** Refusals whose engine message names the account's figures (its leverage, the market). */
const SPECIFIC: ReadonlySet<PerpErrorCode> = new Set([
  'LEVERAGE_MISMATCH',
  'LEVERAGE_UNDERMARGINED',
  'TRIGGER_WRONG_SIDE',
  'TRIGGER_LIMIT',
]);

/** An engine refusal as the API's error; anything else unchanged. */
export function asAppError(error: unknown): unknown {
  if (!(error instanceof PerpError)) return error;
  const code = PERP_ERRORS[error.code];
  if (!SPECIFIC.has(error.code)) return new AppError(code);
  return new AppError(
    code,
    code === 'FUTURES__LEVERAGE_MISMATCH' ? `Order failed: ${error.message}` : error.message,
  );
}

/** The relay's refusals and engine refusals of a withdrawal, in futures' words. */
export function futuresErrorOf(error: unknown): unknown {
  return isRelayError(error) ? moneyRequestErrorOf(error) : asAppError(error);
}

/** A number the user typed: a plain decimal (no sign, exponent, hex or spaces) above 0, or the given refusal. */
export function positiveDecimal(input: number | string | undefined, refusal: ErrorCode): Dec {
  const value = parseFuturesDecimal(input);
  if (!value || value.lte(0)) throw new AppError(refusal);
  return value;
}
