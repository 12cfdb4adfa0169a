import { lazy, Suspense, type RefObject } from 'react';
import { Pencil, Save, Upload } from 'lucide-react';
import { BOT_UPLOAD_PICKER_EXTENSIONS } from '@solterm/contracts';
import { CopyButton } from '../../../components/ui/copy-button';
import { Skeleton } from '../../../components/ui/skeleton';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import type { StrategyInfo } from '../bots-api';
import {
  CATEGORY_OPTIONS,
  INTERVAL_OPTIONS,
  SIZING_OPTIONS,
  TEMPLATE_OPTIONS,
  TEMPLATES,
  parametersFor,
  switchLanguage,
  type BotFormValues,
} from '../bot-form-model';

/** The editor (CodeMirror) loads only when the code source is chosen. */

// The bot form's strategy (built-in or code) and run-settings fields.

const CodeEditor = lazy(() => import('./code-editor'));

/** Category, language, template, upload, edit and copy, the code editor, and what the code must define. */
export function CustomStrategyFields({
  values,
  set,
  isEditing,
  onToggleEditing,
  fileRef,
  onFile,
}: {
  values: BotFormValues;
  set: (patch: Partial<BotFormValues>) => void;
  isEditing: boolean;
  onToggleEditing: () => void;
  fileRef: RefObject<HTMLInputElement | null>;
  onFile: (file: File | undefined) => void;
}) {
  return (
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
          onChange={(e) => onFile(e.target.files?.[0])}
        />
        <Button variant="secondary" onClick={() => fileRef.current?.click()}>
          <Upload className="size-4" /> Upload
        </Button>
        <Button variant="secondary" onClick={onToggleEditing}>
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
            {'{"action": "buy" | "sell" | "exit"}'}; ctx has open_lots, max_positions, last_entry_price and
            params. Python 3 with its standard library, in a sandbox: no network, no files, limited memory and
            time.
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
  );
}

/** The pair, candle interval, amounts, risk rules, the strategy's parameters, description and listing. */
export function RunSettingsFields({
  values,
  set,
  strategy,
}: {
  values: BotFormValues;
  set: (patch: Partial<BotFormValues>) => void;
  strategy: StrategyInfo | undefined;
}) {
  return (
    <>
      <Input label="Pair" value={values.symbol} onChange={(e) => set({ symbol: e.target.value })} />
      <Select
        label="Candle interval"
        value={values.interval}
        options={INTERVAL_OPTIONS}
        onChange={(e) => set({ interval: e.target.value as BotFormValues['interval'] })}
      />
      <Select
        label="Position sizing"
        value={values.sizingMode}
        options={SIZING_OPTIONS}
        hint="The same in backtests and live runs"
        onChange={(e) => set({ sizingMode: e.target.value as BotFormValues['sizingMode'] })}
      />
      {values.sizingMode === 'fixed_base' ? (
        <Input
          label="Amount per trade (base token)"
          inputMode="decimal"
          value={values.amount}
          onChange={(e) => set({ amount: e.target.value })}
        />
      ) : (
        <Input
          label={
            values.sizingMode === 'percent_equity' ? 'Equity per trade (%)' : 'Spend per trade (quote token)'
          }
          inputMode="decimal"
          hint="Fees and slippage included"
          value={values.sizingValue}
          onChange={(e) => set({ sizingValue: e.target.value })}
        />
      )}
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
            onChange={(e) => set({ parameters: { ...values.parameters, [parameter.name]: e.target.value } })}
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
    </>
  );
}

/** The built-in strategy and its description. */
export function BuiltinStrategyFields({
  strategies,
  strategy,
  strategyType,
  set,
}: {
  strategies: readonly StrategyInfo[] | undefined;
  strategy: StrategyInfo | undefined;
  strategyType: string;
  set: (patch: Partial<BotFormValues>) => void;
}) {
  return (
    <>
      <Select
        label="Strategy"
        value={strategyType}
        options={(strategies ?? [{ type: 'sma_crossover', title: 'SMA crossover' }]).map((item) => ({
          value: item.type,
          label: item.title,
        }))}
        onChange={(e) => {
          const next = strategies?.find((item) => item.type === e.target.value);
          set({ strategyType: e.target.value, parameters: parametersFor(next) });
        }}
      />
      {strategy && <p className="text-xs text-muted sm:col-span-2">{strategy.description}</p>}
    </>
  );
}
