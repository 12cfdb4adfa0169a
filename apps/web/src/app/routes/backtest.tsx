import { useState } from 'react';
import { FlaskConical } from 'lucide-react';
import {
  BACKTEST_DEFAULT_INITIAL_BALANCE,
  BACKTEST_INITIAL_BALANCE_STEP,
  BACKTEST_MESSAGES,
  BACKTEST_MIN_INITIAL_BALANCE,
  type TBacktestResult,
  type TBot,
} from '@solterm/contracts';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Input } from '../../components/ui/input';
import { Notice } from '../../components/ui/notice';
import { PageHeader } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { TabPanel, Tabs } from '../../components/ui/tabs';
import { getErrorMessage } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { botsApi } from '../../features/bots/bots-api';
import { BacktestProgress } from '../../features/bots/components/backtest-progress';
import { BacktestResults } from '../../features/bots/components/backtest-results';
import { OptimisePanel } from '../../features/bots/components/optimise-panel';
import { useBots } from '../../features/bots/use-bots';
import { backtestRequestOf, INITIAL_BACKTEST_OPTIONS } from '../../features/bots/backtest-costs-model';
import { BacktestRunOptions } from '../../features/bots/components/backtest-run-options';

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Where the results will be: on their way, or none yet. */
function ResultsPlaceholder({ isRunning }: { isRunning: boolean }) {
  return (
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
  );
}

/** Backtest one run, or optimise a bot's parameters. */
function PageTabs({
  tab,
  onChange,
}: {
  tab: 'backtest' | 'optimise';
  onChange: (tab: 'backtest' | 'optimise') => void;
}) {
  return (
    <Tabs
      idBase="backtest-tabs"
      value={tab}
      onChange={onChange}
      ariaLabel="Backtest or optimise"
      className="mb-4"
      items={[
        { value: 'backtest', label: 'Backtest' },
        { value: 'optimise', label: 'Optimise' },
      ]}
    />
  );
}

/** The Optimise tab, starting from the Backtest tab's bot, range and balance. */
function OptimiseTab(props: {
  bots: readonly TBot[];
  botId: string;
  startDate: string;
  endDate: string;
  balance: string;
}) {
  return (
    <TabPanel idBase="backtest-tabs" value="optimise">
      <OptimisePanel
        bots={props.bots}
        initialBotId={props.botId}
        initialStartDate={props.startDate}
        initialEndDate={props.endDate}
        initialBalance={Number(props.balance) || BACKTEST_DEFAULT_INITIAL_BALANCE}
      />
    </TabPanel>
  );
}

/** /backtest (part 2 §2): a bot, a start and end date and an initial balance; then the results. */
export default function BacktestPage() {
  const bots = useBots();
  const today = new Date();
  const [botId, setBotId] = useState('');
  const [startDate, setStartDate] = useState(isoDay(new Date(today.getTime() - 30 * 86_400_000)));
  const [endDate, setEndDate] = useState(isoDay(today));
  const [balance, setBalance] = useState(String(BACKTEST_DEFAULT_INITIAL_BALANCE));
  const [options, setOptions] = useState(INITIAL_BACKTEST_OPTIONS);
  const [isRunning, setIsRunning] = useState(false);
  /** Counts runs, so each run's progress starts empty. */
  const [runs, setRuns] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<TBacktestResult | null>(null);
  const [tab, setTab] = useState<'backtest' | 'optimise'>('backtest');
  const list = bots.data ?? [];
  const selected = botId || list[0]?.bot_id || '';
  const bot = list.find((item) => item.bot_id === selected);

  async function run() {
    const built = backtestRequestOf({ ...options, botId: selected, startDate, endDate, balance });
    if (!built.ok) {
      setError(built.error);
      notify.error(BACKTEST_MESSAGES.failed(built.error));
      return;
    }
    setError(null);
    setRuns((count) => count + 1);
    setIsRunning(true);
    try {
      const answer = await botsApi.backtest(built.request);
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
      <PageTabs tab={tab} onChange={setTab} />
      {tab === 'optimise' && (
        <OptimiseTab bots={list} botId={selected} startDate={startDate} endDate={endDate} balance={balance} />
      )}
      {/* Side by side only where the trade table still has room for every column (2xl). */}
      <div
        className="grid min-w-0 gap-4 2xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]"
        hidden={tab !== 'backtest'}
      >
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
            <BacktestRunOptions bot={bot} value={options} onChange={setOptions} />
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
        {result ? <BacktestResults result={result} /> : <ResultsPlaceholder isRunning={isRunning} />}
      </div>
    </>
  );
}
