import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { FlaskConical, Pencil, Plus, Save, Upload, X } from 'lucide-react';
import { BOT_UPLOAD_PICKER_EXTENSIONS } from '@solterm/contracts';
import { CopyButton } from '../../../components/ui/copy-button';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { Skeleton } from '../../../components/ui/skeleton';
import { BOT_MESSAGES, type TBacktestResult, type TBot } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardFooter, CardHeader } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { Select } from '../../../components/ui/select';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { botsApi } from '../bots-api';
import {
  applyUpload,
  botRequestOf,
  CATEGORY_OPTIONS,
  formValuesOf,
  INITIAL_BOT_FORM,
  INTERVAL_OPTIONS,
  parametersFor,
  TEMPLATE_OPTIONS,
  TEMPLATES,
  switchLanguage,
  type BotFormValues,
} from '../bot-form-model';

import { failureMessage } from '../bot-figures';
import { useCreateBot, useStrategies, useUpdateBot } from '../use-bots';
import { BacktestProgress } from './backtest-progress';

/** The editor (CodeMirror) loads only when the code source is chosen. */
const CodeEditor = lazy(() => import('./code-editor'));

/** The toast of an edit the server refused (the spec names none for edits). */
const SAVE_FAILED = 'Failed to save bot';

/** Seconds since `since` while it is set, re-read every second (Run and Test's elapsed time). */
function useElapsedSeconds(since: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}

/**
 * The create-bot form of /bots (part 2 §2): a built-in strategy with the spec's defaults, its risk
 * settings and parameters; Run and Test Bot backtests the unsaved bot over the last 30 days from
 * 1,000 and shows the result; Create Bot saves it.
 */
export function CreateBotForm({
  onTested,
  editing = null,
  onEditDone,
}: {
  onTested: (result: TBacktestResult | null) => void;
  /** A stopped bot to edit: the form is filled with it and saves it (PATCH) instead of creating one. */
  editing?: TBot | null;
  onEditDone?: () => void;
}) {
  const strategies = useStrategies();
  const create = useCreateBot();
  const update = useUpdateBot();
  const [values, setValues] = useState<BotFormValues>(INITIAL_BOT_FORM);
  const [error, setError] = useState<string | null>(null);
  /** The running test: its id (the server's cancel names it), start time and fetch. */
  const [test, setTest] = useState<{ id: string; since: number; abort: AbortController } | null>(null);
  const isTesting = test !== null;
  const elapsed = useElapsedSeconds(test?.since ?? null);
  const [isEditing, setIsEditing] = useState(false);
  const editingId = editing?.bot_id ?? null;
  // Filled once per bot chosen (during render, React's way to reset state on a prop change): a
  // refetch of the list must not overwrite what the user typed.
  const [filledFor, setFilledFor] = useState<string | null>(null);
  if (editingId !== filledFor) {
    setFilledFor(editingId);
    if (editing) {
      setValues(formValuesOf(editing));
      setError(null);
      setIsEditing(true);
    }
  }
  const isSaving = create.isPending || update.isPending;
  const fileRef = useRef<HTMLInputElement>(null);
  const strategy = strategies.data?.find((candidate) => candidate.type === values.strategyType);
  const set = (patch: Partial<BotFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setError(null);
  };

  async function onFile(file: File | undefined) {
    if (!file) return;
    const applied = file.name.toLowerCase().endsWith('.zip')
      ? applyUpload(values, { name: file.name, text: '', bytes: new Uint8Array(await file.arrayBuffer()) })
      : applyUpload(values, { name: file.name, text: await file.text() });
    if (fileRef.current) fileRef.current.value = '';
    if (!applied.ok) {
      setError(applied.error);
      notify.error(applied.error);
      return;
    }
    setValues(applied.values);
    setError(null);
    notify.success(`${file.name} loaded`);
  }

  const requestOrError = () => {
    const built = botRequestOf(values);
    if (!built.ok) setError(built.error);
    return built.ok ? built.request : null;
  };

  async function runTest() {
    const request = requestOrError();
    if (!request) return;
    const run = { id: crypto.randomUUID(), since: Date.now(), abort: new AbortController() };
    setTest(run);
    onTested(null);
    try {
      const result = await botsApi.test(
        { strategy_type: request.strategy_type, config: request.config, test_id: run.id },
        run.abort.signal,
      );
      onTested(result);
      notify.success('Bot test completed');
    } catch (caught) {
      if (run.abort.signal.aborted) return;
      const message = getErrorMessage(caught, BOT_MESSAGES.testFailed);
      setError(message);
      notify.error(failureMessage(BOT_MESSAGES.testFailed, caught));
    } finally {
      setTest((current) => (current?.id === run.id ? null : current));
    }
  }

  /** Stops the running test: the server ends its sandbox, the page stops waiting. */
  function cancelTest() {
    if (!test) return;
    test.abort.abort();
    void botsApi.cancelTest(test.id).catch(() => undefined);
    setTest(null);
    notify.info('Test cancelled');
  }

  async function submit() {
    const request = requestOrError();
    if (!request) return;
    if (editing) {
      try {
        const bot = await update.mutateAsync({ id: editing.bot_id, changes: request });
        notify.success(`Bot "${bot.bot_name}" saved`);
        setValues(INITIAL_BOT_FORM);
        onEditDone?.();
      } catch (caught) {
        setError(getErrorMessage(caught, SAVE_FAILED));
        notify.error(failureMessage(SAVE_FAILED, caught));
      }
      return;
    }
    try {
      const bot = await create.mutateAsync(request);
      notify.success(`Bot "${bot.bot_name}" created`);
      setValues((current) => ({ ...current, name: '', description: '' }));
    } catch (caught) {
      setError(getErrorMessage(caught, BOT_MESSAGES.createFailed));
      notify.error(failureMessage(BOT_MESSAGES.createFailed, caught));
    }
  }

  function stopEditing() {
    setValues(INITIAL_BOT_FORM);
    setError(null);
    onEditDone?.();
  }

  return (
    <Card className="min-w-0" data-testid="bot-form">
      <CardHeader
        title={editing ? `Edit "${editing.bot_name}"` : 'Create a bot'}
        description={
          editing
            ? 'Its code is loaded in its sandbox and its pair checked when you save'
            : 'A built-in strategy or your own code, with its risk rules'
        }
      />
      {/* minmax(0, 1fr): a long line of code scrolls inside the editor, never widens the page. */}
      <CardBody className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-2">
        <Input
          label="Name"
          value={values.name}
          maxLength={80}
          placeholder="My SMA bot"
          onChange={(e) => set({ name: e.target.value })}
        />
        <SegmentedControl
          ariaLabel="Strategy source"
          value={values.source}
          onChange={(source) => set({ source })}
          options={[
            { value: 'builtin', label: 'Built-in' },
            { value: 'code', label: 'Your code' },
          ]}
          className="sm:col-span-2"
          isBlock
          size="sm"
        />
        {values.source === 'builtin' ? (
          <>
            <Select
              label="Strategy"
              value={values.strategyType}
              options={(strategies.data ?? [{ type: 'sma_crossover', title: 'SMA crossover' }]).map(
                (item) => ({
                  value: item.type,
                  label: item.title,
                }),
              )}
              onChange={(e) => {
                const next = strategies.data?.find((item) => item.type === e.target.value);
                set({ strategyType: e.target.value, parameters: parametersFor(next) });
              }}
            />
            {strategy && <p className="text-xs text-muted sm:col-span-2">{strategy.description}</p>}
          </>
        ) : (
          <>
            <Select
              label="Category"
              value={values.category}
              options={CATEGORY_OPTIONS}
              onChange={(e) => set({ category: e.target.value })}
            />
            <Select
              label="Language"
              value={values.language}
              options={[
                { value: 'javascript', label: 'JavaScript' },
                { value: 'python', label: 'Python' },
              ]}
              onChange={(e) => set(switchLanguage(values, e.target.value as BotFormValues['language']))}
            />
            <div className="flex flex-wrap items-end gap-2 sm:col-span-2">
              <Select
                label="Template"
                containerClassName="min-w-32 flex-1"
                value=""
                options={[{ value: '', label: 'Choose…' }, ...TEMPLATE_OPTIONS]}
                onChange={(e) => {
                  const template = TEMPLATES[values.language][e.target.value];
                  if (template) set({ code: template });
                }}
              />
              <input
                ref={fileRef}
                type="file"
                className="sr-only"
                aria-label="Upload a strategy file"
                accept={BOT_UPLOAD_PICKER_EXTENSIONS.join(',')}
                onChange={(e) => void onFile(e.target.files?.[0])}
              />
              <Button variant="secondary" onClick={() => fileRef.current?.click()}>
                <Upload className="size-4" /> Upload
              </Button>
              <Button variant="secondary" onClick={() => setIsEditing((editing) => !editing)}>
                {isEditing ? <Save className="size-4" /> : <Pencil className="size-4" />}
                {isEditing ? 'Save' : 'Edit'}
              </Button>
              <CopyButton value={values.code} label="Copy the strategy code" />
            </div>
            <div className="min-w-0 sm:col-span-2">
              <Suspense fallback={<Skeleton className="h-72" />}>
                <CodeEditor
                  value={values.code}
                  language={values.language}
                  readOnly={!isEditing}
                  label="Strategy code"
                  onChange={(code) => set({ code })}
                />
              </Suspense>
              {values.language === 'python' ? (
                <p className="mt-1 text-xs text-faint">
                  Define <code>on_candle(candle, ctx)</code> and return None or{' '}
                  {'{"action": "buy" | "sell" | "exit"}'}; ctx has open_lots, max_positions, last_entry_price
                  and params. Python 3 with its standard library, in a sandbox: no network, no files, limited
                  memory and time.
                </p>
              ) : (
                <p className="mt-1 text-xs text-faint">
                  Define <code>onCandle(candle, ctx)</code> and return null or{' '}
                  {'{ action: "buy" | "sell" | "exit" }'}; ctx has openLots, maxPositions, lastEntryPrice and
                  params. It runs in a sandbox: no network, no files, limited memory and time.
                </p>
              )}
            </div>
          </>
        )}
        <Input label="Pair" value={values.symbol} onChange={(e) => set({ symbol: e.target.value })} />
        <Select
          label="Candle interval"
          value={values.interval}
          options={INTERVAL_OPTIONS}
          onChange={(e) => set({ interval: e.target.value as BotFormValues['interval'] })}
        />
        <Input
          label="Amount per trade (base token)"
          inputMode="decimal"
          value={values.amount}
          onChange={(e) => set({ amount: e.target.value })}
        />
        <Input
          label="Max positions"
          inputMode="numeric"
          value={values.maxPositions}
          onChange={(e) => set({ maxPositions: e.target.value })}
        />
        <Input
          label="Stop loss %"
          inputMode="decimal"
          value={values.stopLoss}
          onChange={(e) => set({ stopLoss: e.target.value })}
        />
        <Input
          label="Take profit %"
          inputMode="decimal"
          value={values.takeProfit}
          onChange={(e) => set({ takeProfit: e.target.value })}
        />
        {values.source === 'builtin' &&
          strategy?.parameters.map((parameter) => (
            <Input
              key={parameter.name}
              label={parameter.label}
              inputMode="decimal"
              hint={`${parameter.min}–${parameter.max}`}
              value={values.parameters[parameter.name] ?? ''}
              onChange={(e) =>
                set({ parameters: { ...values.parameters, [parameter.name]: e.target.value } })
              }
            />
          ))}
        <Input
          label="Description"
          containerClassName="sm:col-span-2"
          value={values.description}
          maxLength={2000}
          placeholder="What it does, for you (and the marketplace if public)"
          onChange={(e) => set({ description: e.target.value })}
        />
        <Checkbox
          label="Public (listed in the marketplace)"
          checked={values.isPublic}
          onChange={(e) => set({ isPublic: e.target.checked })}
        />
        {error && (
          <Notice tone="error" className="sm:col-span-2" aria-label="Bot form error">
            {error}
          </Notice>
        )}
      </CardBody>
      {isTesting && (
        <div className="grid gap-2 border-t border-line px-4 py-3" data-testid="bot-test-progress">
          <div className="flex items-center justify-between gap-2 text-xs text-muted">
            <span aria-live="polite">
              Testing over the last 30 days… <span className="num text-fg">{elapsed} s</span>
            </span>
            <Button size="xs" variant="ghost" onClick={cancelTest}>
              <X className="size-3.5" /> Cancel test
            </Button>
          </div>
          <BacktestProgress key={test.id} botId={null} isRunning={isTesting} />
        </div>
      )}
      <CardFooter className="flex-wrap justify-end">
        {editing && (
          <Button variant="ghost" onClick={stopEditing} disabled={isSaving}>
            <X className="size-4" /> Cancel edit
          </Button>
        )}
        <Button variant="secondary" onClick={() => void runTest()} isLoading={isTesting} disabled={isSaving}>
          <FlaskConical className="size-4" /> Run and Test Bot
        </Button>
        <Button onClick={() => void submit()} isLoading={isSaving} disabled={isTesting}>
          {editing ? <Save className="size-4" /> : <Plus className="size-4" />}
          {editing ? 'Save changes' : 'Create Bot'}
        </Button>
      </CardFooter>
    </Card>
  );
}
