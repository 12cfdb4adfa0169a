import { useState } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import type { TBot, TOptimization, TOptimizationProgress, TOptimizeObjective } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useRealtimeEvent } from '../../../lib/ws-client';
import { botsApi } from '../bots-api';
import {
  gridSize,
  parametersText,
  rangeRowsOf,
  rangesOf,
  scatterOf,
  sortTrials,
  type RangeRow,
  type TrialSortKey,
} from '../optimise-model';
import { useStrategies } from '../use-bots';
import { BotAndRange, RangeRows, SettingsFields } from './optimise-fields';

const ENDED = ['completed', 'cancelled', 'failed'];

/** The in-sample vs out-of-sample scatter: a point per trial, the diagonal where both are equal. */
function OptimiseScatter({ result }: { result: TOptimization }) {
  const { points, low, high } = scatterOf(result.trials);
  const size = 240;
  const at = (value: number) => ((value - low) / (high - low)) * size;
  return (
    <figure className="grid gap-1" aria-label="In-sample vs out-of-sample">
      <svg viewBox={`0 0 ${size} ${size}`} className="h-60 w-60 rounded bg-raised" role="img">
        <line x1={0} y1={size} x2={size} y2={0} className="stroke-muted" strokeDasharray="4 4" />
        <line x1={at(0)} y1={0} x2={at(0)} y2={size} className="stroke-border" />
        <line x1={0} y1={size - at(0)} x2={size} y2={size - at(0)} className="stroke-border" />
        {points.map((point) => (
          <circle
            key={point.index}
            cx={at(point.x)}
            cy={size - at(point.y)}
            r={point.index === result.best?.index ? 5 : 3}
            className={point.index === result.best?.index ? 'fill-accent' : 'fill-muted'}
          >
            <title>{`#${point.index}: in-sample ${point.x}, out-of-sample ${point.y}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="text-xs text-muted">
        In-sample (across) vs out-of-sample (up) {result.objective}; below the dashed line the set did worse
        on data it was not chosen on.
      </figcaption>
    </figure>
  );
}

/** The trials, sortable by number, in-sample or out-of-sample objective. */
function TrialTable({ result }: { result: TOptimization }) {
  const [sort, setSort] = useState<{ key: TrialSortKey; descending: boolean }>({
    key: 'out_of_sample_objective',
    descending: true,
  });
  const header = (key: TrialSortKey, label: string) => (
    <Th isNumeric aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        onClick={() => setSort((now) => ({ key, descending: now.key === key ? !now.descending : true }))}
      >
        {label}
        {sort.key === key ? (sort.descending ? ' ▼' : ' ▲') : ''}
      </button>
    </Th>
  );
  return (
    <Table aria-label="Optimisation trials">
      <THead>
        <Tr>
          {header('index', '#')}
          <Th>Parameters</Th>
          {header('in_sample_objective', 'In-sample')}
          {header('out_of_sample_objective', 'Out-of-sample')}
        </Tr>
      </THead>
      <TBody>
        {sortTrials(result.trials, sort.key, sort.descending).map((trial) => (
          <Tr key={trial.index} className={trial.index === result.best?.index ? 'bg-raised' : undefined}>
            <Td isNumeric>{trial.index}</Td>
            <Td>{parametersText(trial.parameters)}</Td>
            <Td isNumeric>{trial.in_sample_objective ?? '—'}</Td>
            <Td isNumeric>{trial.out_of_sample_objective ?? trial.error ?? '—'}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** The finished optimisation: the warning, the best set (applied in one click), the scatter, the trials. */
function OptimiseResult({ result, onApply }: { result: TOptimization; onApply: () => void }) {
  return (
    <Card>
      <CardHeader title={`Optimisation ${result.state}`} />
      <CardBody className="grid gap-4">
        {result.overfitting_warning && (
          <Notice tone="warn" aria-label="Overfitting warning">
            {result.overfitting_warning}
          </Notice>
        )}
        {result.best ? (
          <div className="flex flex-wrap items-center gap-3" data-testid="optimise-best">
            <span className="text-sm">
              Best (out-of-sample {result.objective} {result.best.out_of_sample_objective}):{' '}
              {parametersText(result.best.parameters)}
            </span>
            <Button size="sm" variant="secondary" onClick={onApply}>
              Apply to bot
            </Button>
          </div>
        ) : (
          <p className="text-sm text-muted">No trial succeeded.</p>
        )}
        <OptimiseScatter result={result} />
        <TrialTable result={result} />
      </CardBody>
    </Card>
  );
}

/** The live bar: queued with its place, then trials done of the total. */
function OptimiseProgressBar({ progress }: { progress: TOptimizationProgress }) {
  return (
    <div className="grid gap-1" aria-live="polite">
      <div className="flex justify-between text-xs text-muted">
        <span>
          {progress.state === 'queued' || progress.queue_ahead > 0
            ? `Queued (${progress.queue_ahead} ahead)`
            : progress.state}
        </span>
        <span className="num">
          {progress.trials_done} / {progress.trials_total} trials
        </span>
      </div>
      <div
        className="h-1.5 overflow-hidden rounded-full bg-raised"
        role="progressbar"
        aria-label="Optimisation progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.progress_percentage}
      >
        <div
          className="h-full bg-accent transition-[width]"
          style={{ width: `${progress.progress_percentage}%` }}
        />
      </div>
    </div>
  );
}

/**
 * /backtest's Optimise tab: ranges per parameter (from the strategy's declared parameters), objective,
 * method and folds; a live progress bar from the optimization_progress pushes; then the trials (a
 * sortable table), the in-sample vs out-of-sample scatter, the best set and the overfitting warning.
 */
export function OptimisePanel({
  bots,
  initialBotId,
  initialStartDate,
  initialEndDate,
  initialBalance,
}: {
  bots: readonly TBot[];
  initialBotId: string;
  initialStartDate: string;
  initialEndDate: string;
  initialBalance: number;
}) {
  const strategies = useStrategies();
  const [chosen, setChosen] = useState(initialBotId);
  const [startDate, setStartDate] = useState(initialStartDate);
  const [endDate, setEndDate] = useState(initialEndDate);
  const bot = bots.find((candidate) => candidate.bot_id === chosen) ?? bots[0];
  const [rows, setRows] = useState<RangeRow[]>([]);
  const [objective, setObjective] = useState<TOptimizeObjective>('sharpe');
  const [method, setMethod] = useState<'grid' | 'random'>('grid');
  const [maxTrials, setMaxTrials] = useState('100');
  const [folds, setFolds] = useState('2');
  const [trainFraction, setTrainFraction] = useState('0.7');
  const [id, setId] = useState<string | null>(null);
  const [progress, setProgress] = useState<TOptimizationProgress | null>(null);
  const [result, setResult] = useState<TOptimization | null>(null);
  const [error, setError] = useState<string | null>(null);

  // A new bot, or the catalogue arriving: that bot's own ranges (adjusted while rendering, not in an effect).
  const catalogue = strategies.data;
  const rowsKey = `${bot?.bot_id ?? ''}:${catalogue ? 'catalogue' : ''}`;
  const [rowsFor, setRowsFor] = useState<string | null>(null);
  if (rowsFor !== rowsKey) {
    setRowsFor(rowsKey);
    setRows(rangeRowsOf(bot, catalogue ?? []));
  }
  // A built-in's ranges come from the catalogue: until it arrives no range is shown to edit, or its
  // arrival would replace what the user typed.
  const awaitingCatalogue = strategies.isPending && bot !== undefined && bot.config.code.trim() === '';

  useRealtimeEvent('optimization_progress', ({ data }) => {
    if (data.optimization_id !== id) return;
    setProgress(data);
    if (ENDED.includes(data.state)) {
      botsApi
        .optimization(data.optimization_id)
        .then(setResult, (caught: unknown) => setError(getErrorMessage(caught, 'The optimisation failed')));
    }
  });

  const running = id !== null && !ENDED.includes(progress?.state ?? 'queued');
  const ranges = rangesOf(rows);
  const points = gridSize(ranges);

  async function start() {
    if (!bot) return;
    setError(null);
    setResult(null);
    setProgress(null);
    try {
      const answer = await botsApi.optimize({
        bot_id: bot.bot_id,
        start_date: startDate,
        end_date: endDate,
        initial_balance: initialBalance,
        parameters: ranges,
        objective,
        method,
        max_trials: Number(maxTrials),
        walk_forward: { folds: Number(folds), train_fraction: Number(trainFraction) },
      });
      setId(answer.optimization_id);
    } catch (caught) {
      setError(getErrorMessage(caught, 'The optimisation failed'));
    }
  }

  async function cancel() {
    if (id) await botsApi.cancelOptimization(id).catch(() => undefined);
  }

  async function applyBest() {
    if (!bot || !result?.best) return;
    try {
      await botsApi.update(bot.bot_id, {
        config: { ...bot.config, parameters: { ...bot.config.parameters, ...result.best.parameters } },
      });
      notify.success('The best set is now the bot’s parameters');
    } catch (caught) {
      notify.error(getErrorMessage(caught, 'The optimisation failed'));
    }
  }

  return (
    <div className="grid min-w-0 gap-4 2xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
      <Card className="self-start">
        <CardHeader title="Optimise parameters" icon={<SlidersHorizontal className="size-4" />} />
        <CardBody className="grid gap-3">
          <BotAndRange
            bots={bots}
            botId={bot?.bot_id ?? ''}
            onBot={setChosen}
            startDate={startDate}
            endDate={endDate}
            onStart={setStartDate}
            onEnd={setEndDate}
          />
          <RangeRows rows={rows} awaitingCatalogue={awaitingCatalogue} onChange={setRows} />
          <SettingsFields
            {...{ objective, setObjective, method, setMethod, maxTrials, setMaxTrials }}
            {...{ folds, setFolds, trainFraction, setTrainFraction }}
          />
          <p className="text-xs text-muted">
            {Number.isFinite(points)
              ? `${points.toLocaleString('en-US')} points in the grid`
              : 'Give numbers'}
          </p>
          {error && (
            <Notice tone="error" aria-label="Optimisation error">
              {error}
            </Notice>
          )}
          {id && progress && <OptimiseProgressBar progress={progress} />}
          <div className="flex gap-2">
            <Button
              onClick={() => void start()}
              disabled={running || !bot || awaitingCatalogue || rows.length === 0}
              isLoading={running}
            >
              {running ? 'Optimising…' : 'Run Optimisation'}
            </Button>
            {running && (
              <Button variant="outline" onClick={() => void cancel()}>
                Cancel
              </Button>
            )}
          </div>
        </CardBody>
      </Card>
      {result && <OptimiseResult result={result} onApply={() => void applyBest()} />}
    </div>
  );
}
