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

/**
 * The fills of a backtest while it runs, in columns: only the bigints a fill computes are kept, and
 * its objects (the fill and its three exact values) are made once, at the end (toFills). A year of
 * minutes fills ~33,000 times; made as they happen, every young-generation collection of the run
 * copies the ones made since the previous, then promotes them.
 */
export class FillLog {
  private readonly times: number[] = [];
  private readonly sells: boolean[] = [];
  private readonly baseAmounts: bigint[] = [];
  private readonly quoteAmounts: bigint[] = [];
  /** mid, fee and slippage: each one's n, and its scale. */
  private readonly exactNs: bigint[] = [];
  private readonly exactScales: number[] = [];
  private readonly reasons: string[] = [];
  /** Sells: pnl, and entry time. */
  private readonly pnls: bigint[] = [];
  private readonly entryTimes: number[] = [];

  get length(): number {
    return this.times.length;
  }

  push(
    time: number,
    side: 'Buy' | 'Sell',
    baseAmount: bigint,
    quoteAmount: bigint,
    mid: Exact,
    fee: Exact,
    slippage: Exact,
    reason: string,
  ): void {
    this.times.push(time);
    this.sells.push(side === 'Sell');
    this.baseAmounts.push(baseAmount);
    this.quoteAmounts.push(quoteAmount);
    this.exactNs.push(mid.n, fee.n, slippage.n);
    this.exactScales.push(mid.scale, fee.scale, slippage.scale);
    this.reasons.push(reason);
  }

  /** The sell just pushed closed a lot for `pnl`, opened at `entryTime`. */
  closed(pnl: bigint, entryTime: number): void {
    this.pnls.push(pnl);
    this.entryTimes.push(entryTime);
  }

  /** Appends every fill, in order, to `fills` as the runtime's fill objects. */
  appendTo(fills: RuntimeFill[]): void {
    const { exactNs: ns, exactScales: scales } = this;
    let sell = 0;
    for (let i = 0; i < this.times.length; i += 1) {
      const isSell = this.sells[i]!;
      const k = 3 * i;
      fills.push({
        time: this.times[i]!,
        side: isSell ? 'Sell' : 'Buy',
        baseAmount: this.baseAmounts[i]!,
        quoteAmount: this.quoteAmounts[i]!,
        mid: { n: ns[k]!, scale: scales[k]! },
        fee: { n: ns[k + 1]!, scale: scales[k + 1]! },
        slippage: { n: ns[k + 2]!, scale: scales[k + 2]! },
        reason: this.reasons[i]!,
        pnl: isSell ? this.pnls[sell]! : null,
        entryTime: isSell ? this.entryTimes[sell++]! : null,
      });
    }
  }
}
