import { useState } from 'react';
import { FlaskConical } from 'lucide-react';
import {
  BACKTEST_DEFAULT_INITIAL_BALANCE,
  BACKTEST_INITIAL_BALANCE_STEP,
  BACKTEST_INITIAL_BALANCE_STEP_MESSAGE,
  BACKTEST_MESSAGES,
  BACKTEST_MIN_INITIAL_BALANCE,
  VALIDATION_MESSAGES,
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

/** What is wrong with the form, or null. */
function formError(botId: string, startDate: string, endDate: string, balance: string): string | null {
  if (!botId) return VALIDATION_MESSAGES.selectBot;
  if (!startDate || !endDate) return VALIDATION_MESSAGES.selectDates;
  if (Date.parse(startDate) >= Date.parse(endDate)) return VALIDATION_MESSAGES.startBeforeEnd;
  const initialBalance = Number(balance);
  if (!(initialBalance >= BACKTEST_MIN_INITIAL_BALANCE)) {
    return `Initial balance must be at least ${BACKTEST_MIN_INITIAL_BALANCE}`;
  }
  if (initialBalance % BACKTEST_INITIAL_BALANCE_STEP !== 0) return BACKTEST_INITIAL_BALANCE_STEP_MESSAGE;
  return null;
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
  const [isRunning, setIsRunning] = useState(false);
  /** Counts runs, so each run's progress starts empty. */
  const [runs, setRuns] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<TBacktestResult | null>(null);
  const [tab, setTab] = useState<'backtest' | 'optimise'>('backtest');
  const list = bots.data ?? [];
  const selected = botId || list[0]?.bot_id || '';

  async function run() {
    const refuse = (message: string) => {
      setError(message);
      notify.error(BACKTEST_MESSAGES.failed(message));
    };
    const refused = formError(selected, startDate, endDate, balance);
    if (refused) return refuse(refused);
    const initialBalance = Number(balance);
    setError(null);
    setRuns((count) => count + 1);
    setIsRunning(true);
    try {
      const answer = await botsApi.backtest({
        bot_id: selected,
        start_date: startDate,
        end_date: endDate,
        initial_balance: initialBalance,
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
        description="Replay a bot over any past range with the live venue's prices and fees."
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
            <div className="grid gap-3 lg:pt-6 2xl:pt-0">
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
