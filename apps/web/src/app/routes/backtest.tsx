import { useState } from 'react';
import { FlaskConical } from 'lucide-react';
import {
  BACKTEST_DEFAULT_INITIAL_BALANCE,
  BACKTEST_INITIAL_BALANCE_STEP,
  BACKTEST_INITIAL_BALANCE_STEP_MESSAGE,
  BACKTEST_MESSAGES,
  BACKTEST_MAX_COST_BPS,
  BACKTEST_MIN_INITIAL_BALANCE,
  BOT_INTERVALS,
  VALIDATION_MESSAGES,
  type TBacktestResult,
  type TBotInterval,
} from '@solterm/contracts';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Input } from '../../components/ui/input';
import { Notice } from '../../components/ui/notice';
import { PageHeader } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { getErrorMessage } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { botsApi } from '../../features/bots/bots-api';
import { BacktestProgress } from '../../features/bots/components/backtest-progress';
import { BacktestResults } from '../../features/bots/components/backtest-results';
import { useBots } from '../../features/bots/use-bots';
import {
  backtestCostsOf,
  COST_MODEL_OPTIONS,
  INITIAL_BACKTEST_COSTS,
  VENUE_COSTS_HINT,
  type BacktestCostsForm,
} from '../../features/bots/backtest-costs-model';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** /backtest (part 2 §2): a bot, a start and end date and an initial balance; then the results. */
export default function BacktestPage() {
  const bots = useBots();
  const today = new Date();
  const [botId, setBotId] = useState('');
  const [startDate, setStartDate] = useState(isoDay(new Date(today.getTime() - 30 * 86_400_000)));
  const [endDate, setEndDate] = useState(isoDay(today));
  const [balance, setBalance] = useState(String(BACKTEST_DEFAULT_INITIAL_BALANCE));
  /** Blank: the bot's own pair and interval. */
  const [symbol, setSymbol] = useState('');
  const [interval, setIntervalChoice] = useState<TBotInterval | ''>('');
  const [costs, setCosts] = useState<BacktestCostsForm>(INITIAL_BACKTEST_COSTS);
  const [isRunning, setIsRunning] = useState(false);
  /** Counts runs, so each run's progress starts empty. */
  const [runs, setRuns] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<TBacktestResult | null>(null);
  const list = bots.data ?? [];
  const selected = botId || list[0]?.bot_id || '';
  const bot = list.find((item) => item.bot_id === selected);

  async function run() {
    const refuse = (message: string) => {
      setError(message);
      notify.error(BACKTEST_MESSAGES.failed(message));
    };
    if (!selected) return refuse(VALIDATION_MESSAGES.selectBot);
    if (!startDate || !endDate) return refuse(VALIDATION_MESSAGES.selectDates);
    if (Date.parse(startDate) >= Date.parse(endDate)) return refuse(VALIDATION_MESSAGES.startBeforeEnd);
    const initialBalance = Number(balance);
    if (!(initialBalance >= BACKTEST_MIN_INITIAL_BALANCE)) {
      return refuse(`Initial balance must be at least ${BACKTEST_MIN_INITIAL_BALANCE}`);
    }
    if (initialBalance % BACKTEST_INITIAL_BALANCE_STEP !== 0) {
      return refuse(BACKTEST_INITIAL_BALANCE_STEP_MESSAGE);
    }
    const priced = backtestCostsOf(costs);
    if (!priced.ok) return refuse(priced.error);
    setError(null);
    setRuns((count) => count + 1);
    setIsRunning(true);
    try {
      const answer = await botsApi.backtest({
        bot_id: selected,
        start_date: startDate,
        end_date: endDate,
        initial_balance: initialBalance,
        ...(symbol.trim() ? { symbol: symbol.trim() } : {}),
        ...(interval ? { interval } : {}),
        costs: priced.costs,
      });
      setResult(answer);
      notify.success(BACKTEST_MESSAGES.succeeded);
    } catch (caught) {
      const message = getErrorMessage(caught, '');
      setError(message || BACKTEST_MESSAGES.failed());
      notify.error(BACKTEST_MESSAGES.failed(message || undefined));
    } finally {
      setIsRunning(false);
    }
  }

  return (
    <>
      <PageHeader
        title="Backtest"
        description="Replay a bot over any past range, priced as the live venue quotes or with your own fees and slippage, beside buy and hold."
      />
      {/* Side by side only where the trade table still has room for every column (2xl). */}
      <div className="grid min-w-0 gap-4 2xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <Card className="self-start">
          <CardHeader title="Run a backtest" icon={<FlaskConical className="size-4" />} />
          <CardBody className="grid gap-3 lg:grid-cols-2 lg:items-start 2xl:grid-cols-1">
            <Select
              label="Bot"
              value={selected}
              disabled={list.length === 0}
              options={
                list.length === 0
                  ? [
                      {
                        value: '',
                        label: bots.isPending ? 'Loading bots…' : 'No bots yet: create one on /bots',
                      },
                    ]
                  : list.map((bot) => ({
                      value: bot.bot_id,
                      label: `${bot.bot_name} · ${bot.strategy_type}`,
                    }))
              }
              onChange={(e) => setBotId(e.target.value)}
            />
            <div className="grid grid-cols-2 gap-3">
              <Input
                label="Start date"
                type="date"
                value={startDate}
                max={endDate}
                onChange={(e) => setStartDate(e.target.value)}
              />
              <Input
                label="End date"
                type="date"
                value={endDate}
                max={isoDay(today)}
                onChange={(e) => setEndDate(e.target.value)}
              />
            </div>
            <Input
              label="Initial balance"
              type="number"
              min={BACKTEST_MIN_INITIAL_BALANCE}
              step={BACKTEST_INITIAL_BALANCE_STEP}
              value={balance}
              hint={`At least ${BACKTEST_MIN_INITIAL_BALANCE}, in steps of ${BACKTEST_INITIAL_BALANCE_STEP}, in the pair's quote token`}
              onChange={(e) => setBalance(e.target.value)}
            />
            <div className="grid grid-cols-2 gap-3">
              <Input
                label="Pair"
                value={symbol}
                placeholder={bot?.config.symbol ?? 'SOL/USDC'}
                hint="Blank: the bot's own"
                onChange={(e) => setSymbol(e.target.value)}
              />
              <Select
                label="Interval"
                value={interval}
                options={[
                  { value: '', label: bot ? `Bot's (${bot.config.interval})` : "Bot's" },
                  ...BOT_INTERVALS.map((value) => ({ value, label: value })),
                ]}
                onChange={(e) => setIntervalChoice(e.target.value as TBotInterval | '')}
              />
            </div>
            <fieldset
              className="grid min-w-0 gap-3 rounded-md border border-line p-3"
              aria-label="Fees & slippage"
            >
              <legend className="px-1 text-xs font-medium text-muted">Fees &amp; slippage</legend>
              <Select
                label="Cost model"
                value={costs.model}
                options={[...COST_MODEL_OPTIONS]}
                onChange={(e) => setCosts({ ...costs, model: e.target.value as BacktestCostsForm['model'] })}
              />
              <div className="grid grid-cols-2 gap-3">
                <Input
                  label="Fee (bps)"
                  type="number"
                  min={0}
                  max={BACKTEST_MAX_COST_BPS}
                  value={costs.feeBps}
                  disabled={costs.model === 'venue'}
                  onChange={(e) => setCosts({ ...costs, feeBps: e.target.value })}
                />
                <Input
                  label="Slippage (bps)"
                  type="number"
                  min={0}
                  max={BACKTEST_MAX_COST_BPS}
                  value={costs.slippageBps}
                  disabled={costs.model === 'venue'}
                  onChange={(e) => setCosts({ ...costs, slippageBps: e.target.value })}
                />
              </div>
              <p className="text-xs text-faint">
                {costs.model === 'venue'
                  ? VENUE_COSTS_HINT
                  : `Charged on every fill, 0–${BACKTEST_MAX_COST_BPS} bps each; slippage moves the price against the trade, the fee is on top.`}
              </p>
            </fieldset>
            <div className="grid gap-3 lg:self-end 2xl:self-auto">
              {error && (
                <Notice tone="error" aria-label="Backtest error">
                  {error}
                </Notice>
              )}
              <BacktestProgress key={runs} botId={selected || null} isRunning={isRunning} />
              <Button onClick={() => void run()} disabled={isRunning || !selected} isLoading={isRunning}>
                {isRunning ? 'Running...' : 'Run Backtest'}
              </Button>
            </div>
          </CardBody>
        </Card>
        {result ? (
          <BacktestResults result={result} />
        ) : (
          <Card>
            {isRunning ? (
              <EmptyState
                icon={<FlaskConical className="size-4" />}
                title="Backtest on its way"
                description="Its place in the queue and its progress show under Run Backtest; the results grid, the chart and the trades appear here when it completes."
              />
            ) : (
              <EmptyState
                icon={<FlaskConical className="size-4" />}
                title="No backtest yet"
                description="Pick a bot, a range and a balance, then Run Backtest: the results grid, the equity and drawdown chart and the trade list appear here."
              />
            )}
          </Card>
        )}
      </div>
    </>
  );
}
