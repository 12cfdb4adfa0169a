import type { TBacktestCosts } from '@solterm/contracts';
import {
  Dec,
  fixedCostVenue,
  rfqVenue,
  type RiskRules,
  type SizingMode,
  type VenuePort,
} from '@solterm/engine';

/** What a backtest's runtime needs besides the strategy and the candles, as plain JSON. */
export interface BacktestRulesWire {
  readonly risk: {
    readonly amount: string;
    readonly maxPositions: number;
    readonly stopLossPercent: string | null;
    readonly takeProfitPercent: string | null;
    /** How buys are sized (null or absent: fixed_base of `amount`). */
    readonly sizing?: { readonly mode: SizingMode; readonly value: string } | null;
  };
  /** How fills are priced (absent: the venue's RFQ pricing, as live runs are). */
  readonly costs?: TBacktestCosts;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  readonly quoteUsdPrice: string;
  /** Quote base units, as a decimal integer string. */
  readonly initialCash: string;
}

/**
 * The runtime's rules of a backtest: the server's engine and the Python sandbox's copy of it
 * (python-mirror.ts) both build them here, so the position a strategy sees is the one the server
 * computes.
 */
export function backtestRules(rules: BacktestRulesWire): {
  risk: RiskRules;
  venue: VenuePort;
  baseDecimals: number;
  quoteDecimals: number;
  initialCash: bigint;
} {
  const dec = (value: string | null) => (value === null ? null : new Dec(value));
  return {
    risk: {
      amount: new Dec(rules.risk.amount),
      maxPositions: rules.risk.maxPositions,
      stopLossPercent: dec(rules.risk.stopLossPercent),
      takeProfitPercent: dec(rules.risk.takeProfitPercent),
      ...(rules.risk.sizing
        ? { sizing: { mode: rules.risk.sizing.mode, value: new Dec(rules.risk.sizing.value) } }
        : {}),
    },
    venue:
      rules.costs?.model === 'fixed'
        ? fixedCostVenue({
            baseDecimals: rules.baseDecimals,
            quoteDecimals: rules.quoteDecimals,
            feeBps: rules.costs.fee_bps,
            slippageBps: rules.costs.slippage_bps,
          })
        : rfqVenue({
            baseDecimals: rules.baseDecimals,
            quoteDecimals: rules.quoteDecimals,
            quoteUsdPrice: new Dec(rules.quoteUsdPrice),
          }),
    baseDecimals: rules.baseDecimals,
    quoteDecimals: rules.quoteDecimals,
    initialCash: BigInt(rules.initialCash),
  };
}

/** A job's rules as the sandbox process is sent them. */
export function rulesWireOf(job: BacktestRulesWire): BacktestRulesWire {
  return {
    risk: job.risk,
    ...(job.costs ? { costs: job.costs } : {}),
    baseDecimals: job.baseDecimals,
    quoteDecimals: job.quoteDecimals,
    quoteUsdPrice: job.quoteUsdPrice,
    initialCash: job.initialCash,
  };
}
