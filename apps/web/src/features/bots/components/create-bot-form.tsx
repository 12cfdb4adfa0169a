import { useState } from 'react';
import { FlaskConical, Plus } from 'lucide-react';
import { BOT_MESSAGES, type TBacktestResult } from '@solterm/contracts';
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
  botRequestOf,
  INITIAL_BOT_FORM,
  INTERVAL_OPTIONS,
  parametersFor,
  type BotFormValues,
} from '../bot-form-model';
import { useCreateBot, useStrategies } from '../use-bots';

/**
 * The create-bot form of /bots (part 2 §2): a built-in strategy with the spec's defaults, its risk
 * settings and parameters; Run and Test Bot backtests the unsaved bot over the last 30 days from
 * 1,000 and shows the result; Create Bot saves it.
 */
export function CreateBotForm({ onTested }: { onTested: (result: TBacktestResult | null) => void }) {
  const strategies = useStrategies();
  const create = useCreateBot();
  const [values, setValues] = useState<BotFormValues>(INITIAL_BOT_FORM);
  const [error, setError] = useState<string | null>(null);
  const [isTesting, setIsTesting] = useState(false);
  const strategy = strategies.data?.find((candidate) => candidate.type === values.strategyType);
  const set = (patch: Partial<BotFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setError(null);
  };

  const requestOrError = () => {
    const built = botRequestOf(values);
    if (!built.ok) setError(built.error);
    return built.ok ? built.request : null;
  };

  async function runTest() {
    const request = requestOrError();
    if (!request) return;
    setIsTesting(true);
    onTested(null);
    try {
      const result = await botsApi.test({ strategy_type: request.strategy_type, config: request.config });
      onTested(result);
      notify.success('Bot test completed');
    } catch (caught) {
      const message = getErrorMessage(caught, BOT_MESSAGES.testFailed);
      setError(message);
      notify.error(`${BOT_MESSAGES.testFailed}: ${message}`);
    } finally {
      setIsTesting(false);
    }
  }

  async function submit() {
    const request = requestOrError();
    if (!request) return;
    try {
      const bot = await create.mutateAsync(request);
      notify.success(`Bot "${bot.bot_name}" created`);
      setValues((current) => ({ ...current, name: '', description: '' }));
    } catch (caught) {
      const message = getErrorMessage(caught, BOT_MESSAGES.createFailed);
      setError(message);
      notify.error(`${BOT_MESSAGES.createFailed}: ${message}`);
    }
  }

  return (
    <Card>
      <CardHeader title="Create a bot" description="A built-in strategy, its risk rules and parameters" />
      <CardBody className="grid gap-3 sm:grid-cols-2">
        <Input
          label="Name"
          value={values.name}
          maxLength={80}
          placeholder="My SMA bot"
          onChange={(e) => set({ name: e.target.value })}
        />
        <Select
          label="Strategy"
          value={values.strategyType}
          options={(strategies.data ?? [{ type: 'sma_crossover', title: 'SMA crossover' }]).map((item) => ({
            value: item.type,
            label: item.title,
          }))}
          onChange={(e) => {
            const next = strategies.data?.find((item) => item.type === e.target.value);
            set({ strategyType: e.target.value, parameters: parametersFor(next) });
          }}
        />
        {strategy && <p className="text-xs text-muted sm:col-span-2">{strategy.description}</p>}
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
        {strategy?.parameters.map((parameter) => (
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
        <Notice tone="info" className="sm:col-span-2">
          Your own Python or JavaScript strategies (editor and .py/.js/.json/.zip upload) arrive with the
          sandboxed code runtime.
        </Notice>
        {error && (
          <Notice tone="error" className="sm:col-span-2" aria-label="Bot form error">
            {error}
          </Notice>
        )}
      </CardBody>
      <CardFooter className="flex-wrap justify-end">
        <Button
          variant="secondary"
          onClick={() => void runTest()}
          isLoading={isTesting}
          disabled={create.isPending}
        >
          <FlaskConical className="size-4" /> Run and Test Bot
        </Button>
        <Button onClick={() => void submit()} isLoading={create.isPending} disabled={isTesting}>
          <Plus className="size-4" /> Create Bot
        </Button>
      </CardFooter>
    </Card>
  );
}
