import { BACKTEST_MAX_COST_BPS, BOT_INTERVALS, type TBot, type TBotInterval } from '@solterm/contracts';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import {
  COST_MODEL_OPTIONS,
  VENUE_COSTS_HINT,
  type BacktestCostsForm,
  type BacktestOptionsForm,
} from '../backtest-costs-model';

/**
 * The backtest form's choices beyond the spec's: another pair or interval than the bot's (blank: its
 * own), and "Fees & slippage" (the live venue's pricing by default, or a fixed fee and slippage).
 */
export function BacktestRunOptions({
  bot,
  value,
  onChange,
}: {
  bot: TBot | undefined;
  value: BacktestOptionsForm;
  onChange: (value: BacktestOptionsForm) => void;
}) {
  const { symbol, interval, costs } = value;
  const onCosts = (next: BacktestCostsForm) => onChange({ ...value, costs: next });
  return (
    <>
      <div className="grid grid-cols-2 gap-3">
        <Input
          label="Pair"
          value={symbol}
          placeholder={bot?.config.symbol ?? 'SOL/USDC'}
          hint="Blank: the bot's own"
          onChange={(e) => onChange({ ...value, symbol: e.target.value })}
        />
        <Select
          label="Interval"
          value={interval}
          options={[
            { value: '', label: bot ? `Bot's (${bot.config.interval})` : "Bot's" },
            ...BOT_INTERVALS.map((value) => ({ value, label: value })),
          ]}
          onChange={(e) => onChange({ ...value, interval: e.target.value as TBotInterval | '' })}
        />
      </div>
      <fieldset className="grid min-w-0 gap-3 rounded-md border border-line p-3" aria-label="Fees & slippage">
        <legend className="px-1 text-xs font-medium text-muted">Fees &amp; slippage</legend>
        <Select
          label="Cost model"
          value={costs.model}
          options={[...COST_MODEL_OPTIONS]}
          onChange={(e) => onCosts({ ...costs, model: e.target.value as BacktestCostsForm['model'] })}
        />
        <div className="grid grid-cols-2 gap-3">
          <Input
            label="Fee (bps)"
            type="number"
            min={0}
            max={BACKTEST_MAX_COST_BPS}
            value={costs.feeBps}
            disabled={costs.model === 'venue'}
            onChange={(e) => onCosts({ ...costs, feeBps: e.target.value })}
          />
          <Input
            label="Slippage (bps)"
            type="number"
            min={0}
            max={BACKTEST_MAX_COST_BPS}
            value={costs.slippageBps}
            disabled={costs.model === 'venue'}
            onChange={(e) => onCosts({ ...costs, slippageBps: e.target.value })}
          />
        </div>
        <p className="text-xs text-faint">
          {costs.model === 'venue'
            ? VENUE_COSTS_HINT
            : `Charged on every fill, 0–${BACKTEST_MAX_COST_BPS} bps each; slippage moves the price against the trade, the fee is on top.`}
        </p>
      </fieldset>
    </>
  );
}
