import { type Dec, fromBaseUnits } from '../money/decimal';
import { toDec, type Exact } from '../money/exact';
import type { OrderIntent } from './strategy';

/** One fill of the runtime, as the trade list shows it. */
export interface RuntimeFill {
  readonly time: number;
  readonly side: 'Buy' | 'Sell';
  readonly baseAmount: bigint;
  /** Quote paid or received, fee included (the effective price is quoteAmount / baseAmount). */
  readonly quoteAmount: bigint;
  /** The mid the venue priced at, exact. */
  readonly mid: Exact;
  /** Venue fee, whole quote tokens. */
  readonly fee: Exact;
  /** Spread, impact and rounding paid off the mid besides the fee, whole quote tokens (slippageOf). */
  readonly slippage: Exact;
  readonly reason: string;
  /** For a sell: proceeds − the lot's cost (quote base units), and when the lot was opened. */
  readonly pnl: bigint | null;
  readonly entryTime: number | null;
}

/** A strategy returned something that is not an intent (user code): the run ends with this message. */
export class StrategyError extends Error {
  override readonly name = 'StrategyError';
}

/** A fill's effective price: quote paid or received per whole base. */
export function fillPrice(fill: RuntimeFill, baseDecimals: number, quoteDecimals: number): Dec {
  return fromBaseUnits(fill.quoteAmount, quoteDecimals).div(fromBaseUnits(fill.baseAmount, baseDecimals));
}

/** A fill's mid, fee and slippage as decimals (18 significant digits). */
export function fillDecimals(fill: RuntimeFill): { mid: Dec; fee: Dec; slippage: Dec } {
  return { mid: toDec(fill.mid), fee: toDec(fill.fee), slippage: toDec(fill.slippage) };
}

/** An intent from any strategy, checked (user code may return anything). */
export function checkIntent(intent: unknown): OrderIntent {
  if (typeof intent === 'object' && intent !== null) {
    const { action, reason } = intent as { action?: unknown; reason?: unknown };
    if (action === 'buy' || action === 'sell' || action === 'exit') {
      if (reason === undefined || reason === null || typeof reason === 'string') {
        return reason ? { action, reason } : { action };
      }
    }
  }
  let shown: string;
  try {
    shown = JSON.stringify(intent)?.slice(0, 100) ?? String(intent);
  } catch {
    shown = String(intent);
  }
  throw new StrategyError(
    `onCandle returned ${shown}: expected null or { action: 'buy' | 'sell' | 'exit', reason?: string }`,
  );
}
