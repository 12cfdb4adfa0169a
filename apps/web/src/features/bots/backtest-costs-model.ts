import {
  BACKTEST_DEFAULT_FEE_BPS,
  BACKTEST_DEFAULT_SLIPPAGE_BPS,
  BACKTEST_INITIAL_BALANCE_STEP,
  BACKTEST_INITIAL_BALANCE_STEP_MESSAGE,
  BACKTEST_MAX_COST_BPS,
  BACKTEST_MIN_INITIAL_BALANCE,
  VALIDATION_MESSAGES,
  type TBacktestRequestInput,
  type TBotInterval,
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

/** The /backtest form's choices beyond the spec's; `symbol` and `interval` blank: the bot's own. */
export interface BacktestOptionsForm {
  symbol: string;
  interval: TBotInterval | '';
  costs: BacktestCostsForm;
}

export const INITIAL_BACKTEST_OPTIONS: BacktestOptionsForm = {
  symbol: '',
  interval: '',
  costs: INITIAL_BACKTEST_COSTS,
};

/** The /backtest form, as typed. */
export interface BacktestForm extends BacktestOptionsForm {
  botId: string;
  startDate: string;
  endDate: string;
  balance: string;
}

/**
 * The request of the /backtest form, or the first field's problem (the spec's messages; the server
 * checks them all again).
 *
 * @example backtestRequestOf({ ...form, botId: '' }); // { ok: false, error: 'Please select a bot' }
 */
export function backtestRequestOf(
  form: BacktestForm,
): { ok: true; request: TBacktestRequestInput } | { ok: false; error: string } {
  if (!form.botId) return { ok: false, error: VALIDATION_MESSAGES.selectBot };
  if (!form.startDate || !form.endDate) return { ok: false, error: VALIDATION_MESSAGES.selectDates };
  if (Date.parse(form.startDate) >= Date.parse(form.endDate)) {
    return { ok: false, error: VALIDATION_MESSAGES.startBeforeEnd };
  }
  const initialBalance = Number(form.balance);
  if (!(initialBalance >= BACKTEST_MIN_INITIAL_BALANCE)) {
    return { ok: false, error: `Initial balance must be at least ${BACKTEST_MIN_INITIAL_BALANCE}` };
  }
  if (initialBalance % BACKTEST_INITIAL_BALANCE_STEP !== 0) {
    return { ok: false, error: BACKTEST_INITIAL_BALANCE_STEP_MESSAGE };
  }
  const priced = backtestCostsOf(form.costs);
  if (!priced.ok) return priced;
  return {
    ok: true,
    request: {
      bot_id: form.botId,
      start_date: form.startDate,
      end_date: form.endDate,
      initial_balance: initialBalance,
      ...(form.symbol.trim() ? { symbol: form.symbol.trim() } : {}),
      ...(form.interval ? { interval: form.interval } : {}),
      costs: priced.costs,
    },
  };
}
