import {
  MAX_OPTIMIZE_TRIALS,
  OPTIMIZE_OBJECTIVES,
  type TBot,
  type TOptimizeObjective,
} from '@solterm/contracts';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import type { RangeRow } from '../optimise-model';

// The Optimise tab's form fields (optimise-panel.tsx holds the tab, its run and its result).

/** The bot and the range optimised. */
export function BotAndRange(props: {
  bots: readonly TBot[];
  botId: string;
  onBot: (id: string) => void;
  startDate: string;
  endDate: string;
  onStart: (value: string) => void;
  onEnd: (value: string) => void;
}) {
  const { bots, botId, onBot, startDate, endDate, onStart, onEnd } = props;
  return (
    <>
      <Select
        label="Bot"
        value={botId}
        disabled={bots.length === 0}
        options={
          bots.length === 0
            ? [{ value: '', label: 'No bots yet: create one on /bots' }]
            : bots.map((item) => ({
                value: item.bot_id,
                label: `${item.bot_name} · ${item.strategy_type}`,
              }))
        }
        onChange={(e) => onBot(e.target.value)}
      />
      <div className="grid grid-cols-2 gap-3">
        <Input label="Start date" type="date" value={startDate} onChange={(e) => onStart(e.target.value)} />
        <Input label="End date" type="date" value={endDate} onChange={(e) => onEnd(e.target.value)} />
      </div>
    </>
  );
}

/** The search's settings: objective, method, trials and the walk-forward folds. */
export function SettingsFields(props: {
  objective: TOptimizeObjective;
  setObjective: (value: TOptimizeObjective) => void;
  method: 'grid' | 'random';
  setMethod: (value: 'grid' | 'random') => void;
  maxTrials: string;
  setMaxTrials: (value: string) => void;
  folds: string;
  setFolds: (value: string) => void;
  trainFraction: string;
  setTrainFraction: (value: string) => void;
}) {
  const { objective, setObjective, method, setMethod, maxTrials, setMaxTrials } = props;
  const { folds, setFolds, trainFraction, setTrainFraction } = props;
  return (
    <>
      <Select
        label="Objective"
        value={objective}
        options={OPTIMIZE_OBJECTIVES.map((value) => ({ value, label: value }))}
        onChange={(e) => setObjective(e.target.value as TOptimizeObjective)}
      />
      <div className="grid grid-cols-2 gap-2">
        <Select
          label="Method"
          value={method}
          options={[
            { value: 'grid', label: 'Grid' },
            { value: 'random', label: 'Random' },
          ]}
          onChange={(e) => setMethod(e.target.value as 'grid' | 'random')}
        />
        <Input
          label="Max trials"
          type="number"
          min={1}
          max={MAX_OPTIMIZE_TRIALS}
          value={maxTrials}
          onChange={(e) => setMaxTrials(e.target.value)}
        />
        <Input
          label="Folds"
          type="number"
          min={2}
          max={10}
          value={folds}
          onChange={(e) => setFolds(e.target.value)}
        />
        <Input
          label="Train fraction"
          type="number"
          min={0.5}
          max={0.9}
          step={0.05}
          value={trainFraction}
          onChange={(e) => setTrainFraction(e.target.value)}
        />
      </div>
    </>
  );
}

/** Min, max and step of each parameter to vary; none while the catalogue that sets them is on its way. */
export function RangeRows({
  rows,
  awaitingCatalogue,
  onChange,
}: {
  rows: readonly RangeRow[];
  awaitingCatalogue: boolean;
  onChange: (update: (now: RangeRow[]) => RangeRow[]) => void;
}) {
  if (awaitingCatalogue) {
    return (
      <p role="status" className="text-sm text-muted">
        Loading the strategy’s parameters…
      </p>
    );
  }
  if (rows.length === 0)
    return <p className="text-sm text-muted">This bot declares no parameters to vary.</p>;
  const setRow = (index: number, field: 'min' | 'max' | 'step', value: string) =>
    onChange((now) => now.map((row, at) => (at === index ? { ...row, [field]: value } : row)));
  return rows.map((row, index) => (
    <fieldset key={row.name} className="grid grid-cols-3 gap-2" aria-label={`Range of ${row.name}`}>
      <legend className="col-span-3 text-xs text-muted">{row.label}</legend>
      <Input
        label="Min"
        type="number"
        value={row.min}
        onChange={(e) => setRow(index, 'min', e.target.value)}
      />
      <Input
        label="Max"
        type="number"
        value={row.max}
        onChange={(e) => setRow(index, 'max', e.target.value)}
      />
      <Input
        label="Step"
        type="number"
        value={row.step}
        onChange={(e) => setRow(index, 'step', e.target.value)}
      />
    </fieldset>
  ));
}
