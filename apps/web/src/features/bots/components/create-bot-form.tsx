import { useEffect, useRef, useState } from 'react';
import { FlaskConical, Plus, Save, X } from 'lucide-react';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { BOT_MESSAGES, type TBacktestResult, type TBot } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardFooter, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { botsApi } from '../bots-api';
import { BuiltinStrategyFields, CustomStrategyFields, RunSettingsFields } from './bot-form-fields';
import {
  applyUpload,
  botRequestOf,
  formValuesOf,
  INITIAL_BOT_FORM,
  type BotFormValues,
} from '../bot-form-model';

import { failureMessage } from '../bot-figures';
import { useCreateBot, useStrategies, useUpdateBot } from '../use-bots';
import { BacktestProgress } from './backtest-progress';

/** The editor (CodeMirror) loads only when the code source is chosen. */

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

/** The test run's elapsed time and progress, with Cancel test. */
function TestProgress({
  testId,
  elapsed,
  onCancel,
}: {
  testId: string;
  elapsed: number;
  onCancel: () => void;
}) {
  return (
    <div className="grid gap-2 border-t border-line px-4 py-3" data-testid="bot-test-progress">
      <div className="flex items-center justify-between gap-2 text-xs text-muted">
        <span aria-live="polite">
          Testing over the last 30 days… <span className="num text-fg">{elapsed} s</span>
        </span>
        <Button size="xs" variant="ghost" onClick={onCancel}>
          <X className="size-3.5" /> Cancel test
        </Button>
      </div>
      <BacktestProgress key={testId} botId={null} isRunning />
    </div>
  );
}

/** Cancel edit (when editing), Run and Test Bot, and Create Bot or Save changes. */
function BotFormActions({
  isEditingBot,
  isSaving,
  isTesting,
  onCancelEdit,
  onTest,
  onSubmit,
}: {
  isEditingBot: boolean;
  isSaving: boolean;
  isTesting: boolean;
  onCancelEdit: () => void;
  onTest: () => void;
  onSubmit: () => void;
}) {
  return (
    <CardFooter className="flex-wrap justify-end">
      {isEditingBot && (
        <Button variant="ghost" onClick={onCancelEdit} disabled={isSaving}>
          <X className="size-4" /> Cancel edit
        </Button>
      )}
      <Button variant="secondary" onClick={onTest} isLoading={isTesting} disabled={isSaving}>
        <FlaskConical className="size-4" /> Run and Test Bot
      </Button>
      <Button onClick={onSubmit} isLoading={isSaving} disabled={isTesting}>
        {isEditingBot ? <Save className="size-4" /> : <Plus className="size-4" />}
        {isEditingBot ? 'Save changes' : 'Create Bot'}
      </Button>
    </CardFooter>
  );
}

interface CreateBotFormProps {
  onTested: (result: TBacktestResult | null) => void;
  /** A stopped bot to edit: the form is filled with it and saves it (PATCH) instead of creating one. */
  editing?: TBot | null;
  onEditDone?: () => void;
}

/**
 * The create-bot form of /bots (part 2 §2): a built-in strategy with the spec's defaults, its risk
 * settings and parameters; Run and Test Bot backtests the unsaved bot over the last 30 days from
 * 1,000 and shows the result; Create Bot saves it.
 */
export function CreateBotForm({ onTested, editing = null, onEditDone }: CreateBotFormProps) {
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
          <BuiltinStrategyFields
            strategies={strategies.data}
            strategy={strategy}
            strategyType={values.strategyType}
            set={set}
          />
        ) : (
          <CustomStrategyFields
            values={values}
            set={set}
            isEditing={isEditing}
            onToggleEditing={() => setIsEditing((editing) => !editing)}
            fileRef={fileRef}
            onFile={(file) => void onFile(file)}
          />
        )}
        <RunSettingsFields values={values} set={set} strategy={strategy} />
        {error && (
          <Notice tone="error" className="sm:col-span-2" aria-label="Bot form error">
            {error}
          </Notice>
        )}
      </CardBody>
      {test && <TestProgress testId={test.id} elapsed={elapsed} onCancel={cancelTest} />}
      <BotFormActions
        isEditingBot={Boolean(editing)}
        isSaving={isSaving}
        isTesting={isTesting}
        onCancelEdit={stopEditing}
        onTest={() => void runTest()}
        onSubmit={() => void submit()}
      />
    </Card>
  );
}
