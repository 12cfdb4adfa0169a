import {
  BACKTEST_DEFAULT_FEE_BPS,
  BACKTEST_DEFAULT_SLIPPAGE_BPS,
  BACKTEST_MAX_COST_BPS,
  type TBacktestRequestInput,
} from '@solterm/contracts';

/** The backtest form's "Fees & slippage" fields, as typed. */
export interface BacktestCostsForm {
  model: 'venue' | 'fixed';
  feeBps: string;
  slippageBps: string;
}

export const INITIAL_BACKTEST_COSTS: BacktestCostsForm = {
  model: 'venue',
  feeBps: String(BACKTEST_DEFAULT_FEE_BPS),
  slippageBps: String(BACKTEST_DEFAULT_SLIPPAGE_BPS),
};

export const COST_MODEL_OPTIONS = [
  { value: 'venue', label: 'Live venue pricing (RFQ)' },
  { value: 'fixed', label: 'Fixed fee and slippage' },
] as const;

/** What the venue model charges, said where the fixed inputs would be. */
export const VENUE_COSTS_HINT = `The live venue's own quote: ${BACKTEST_DEFAULT_FEE_BPS} bps fee, ${BACKTEST_DEFAULT_SLIPPAGE_BPS} bps half spread plus size impact`;

/**
 * The request's `costs`, or the first field's problem (the server checks the same limits).
 *
 * @example backtestCostsOf({ model: 'fixed', feeBps: '10', slippageBps: '' }); // { ok: true, costs: { model: 'fixed', fee_bps: 10, slippage_bps: 5 } }
 */
export function backtestCostsOf(
  form: BacktestCostsForm,
): { ok: true; costs: NonNullable<TBacktestRequestInput['costs']> } | { ok: false; error: string } {
  if (form.model === 'venue') return { ok: true, costs: { model: 'venue' } };
  const bps = (text: string, name: string, fallback: number) => {
    if (text.trim() === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || value > BACKTEST_MAX_COST_BPS) {
      return `${name} must be between 0 and ${BACKTEST_MAX_COST_BPS} bps`;
    }
    return value;
  };
  const fee = bps(form.feeBps, 'Fee', BACKTEST_DEFAULT_FEE_BPS);
  if (typeof fee === 'string') return { ok: false, error: fee };
  const slippage = bps(form.slippageBps, 'Slippage', BACKTEST_DEFAULT_SLIPPAGE_BPS);
  if (typeof slippage === 'string') return { ok: false, error: slippage };
  return { ok: true, costs: { model: 'fixed', fee_bps: fee, slippage_bps: slippage } };
}
