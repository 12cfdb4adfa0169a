import { useState, type FormEvent } from 'react';
import { BellPlus } from 'lucide-react';
import {
  ALERT_CHANNELS,
  BOT_ALERT_EVENTS,
  PRICE_ALERT_CONDITIONS,
  type TAlertChannel,
  type TAlertCreateInput,
  type TBotAlertEvent,
} from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Select } from '../../../components/ui/select';
import { useCreateAlert } from '../use-alerts';

/** What the shortcut is about: a pair (its price now prefills the value), a bot, or futures positions. */
export type AlertTarget =
  | { kind: 'price'; pair: string; price?: number }
  | { kind: 'bot'; botId: string; botName: string }
  | { kind: 'liquidation_risk'; symbol?: string };

const CHANNEL_LABELS: Record<TAlertChannel, string> = {
  in_app: 'In-app',
  email: 'Email',
  webhook: 'Webhook',
};
const CONDITION_LABELS = {
  above: 'Price above',
  below: 'Price below',
  change_percent: 'Moves by %',
} as const;

function titleOf(target: AlertTarget): string {
  if (target.kind === 'price') return `Alert me: ${target.pair}`;
  if (target.kind === 'bot') return `Alert me: ${target.botName}`;
  return `Alert me: ${target.symbol ?? 'futures positions'} near liquidation`;
}

/** The alert form of one target (price, bot or liquidation risk) and the channels. */
export function AlertForm({ target, onDone }: { target: AlertTarget; onDone: () => void }) {
  const [condition, setCondition] = useState<(typeof PRICE_ALERT_CONDITIONS)[number]>('above');
  const [value, setValue] = useState(target.kind === 'price' && target.price ? String(target.price) : '');
  const [windowMinutes, setWindowMinutes] = useState('');
  const [events, setEvents] = useState<TBotAlertEvent[]>(['started', 'stopped', 'error', 'completed']);
  const [distance, setDistance] = useState('5');
  const [channels, setChannels] = useState<TAlertChannel[]>(['in_app']);
  const create = useCreateAlert(onDone);
  const toggle = <T,>(list: T[], item: T) =>
    list.includes(item) ? list.filter((x) => x !== item) : [...list, item];

  function submit(event: FormEvent) {
    event.preventDefault();
    let alert: TAlertCreateInput;
    if (target.kind === 'price') {
      const window = condition === 'change_percent' && windowMinutes ? Number(windowMinutes) : undefined;
      alert = { kind: 'price', pair: target.pair, condition, value, window_minutes: window, channels };
    } else if (target.kind === 'bot') {
      alert = { kind: 'bot', bot_id: target.botId, events, channels };
    } else {
      alert = {
        kind: 'liquidation_risk',
        symbol: target.symbol,
        distance_percent: Number(distance),
        channels,
      };
    }
    create.mutate(alert);
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Create alert">
      {target.kind === 'price' && (
        <>
          <Select
            label="Condition"
            value={condition}
            onChange={(event) => setCondition(event.target.value as typeof condition)}
            options={PRICE_ALERT_CONDITIONS.map((option) => ({
              value: option,
              label: CONDITION_LABELS[option],
            }))}
          />
          <Input
            label={condition === 'change_percent' ? 'Change (%; negative for a fall)' : 'Price'}
            inputMode="decimal"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            required
          />
          {condition === 'change_percent' && (
            <Input
              label="Within minutes (empty: since now)"
              inputMode="numeric"
              value={windowMinutes}
              onChange={(event) => setWindowMinutes(event.target.value)}
            />
          )}
        </>
      )}
      {target.kind === 'bot' && (
        <fieldset className="flex flex-wrap gap-3">
          <legend className="mb-1 text-xs text-muted">Events</legend>
          {BOT_ALERT_EVENTS.map((name) => (
            <Checkbox
              key={name}
              label={name}
              checked={events.includes(name)}
              onChange={() => setEvents(toggle(events, name))}
            />
          ))}
        </fieldset>
      )}
      {target.kind === 'liquidation_risk' && (
        <Input
          label="Distance to liquidation price (%)"
          inputMode="decimal"
          value={distance}
          onChange={(event) => setDistance(event.target.value)}
          required
        />
      )}
      <fieldset className="flex flex-wrap gap-3">
        <legend className="mb-1 text-xs text-muted">Deliver by</legend>
        {ALERT_CHANNELS.map((channel) => (
          <Checkbox
            key={channel}
            label={CHANNEL_LABELS[channel]}
            checked={channels.includes(channel)}
            onChange={() => setChannels(toggle(channels, channel))}
          />
        ))}
      </fieldset>
      <Button
        type="submit"
        variant="primary"
        className="w-full"
        disabled={create.isPending || channels.length === 0}
      >
        Create alert
      </Button>
    </form>
  );
}

/** "Alert me": a small button opening the alert form for its target (chart, bot card, position row). */
export function AlertMeButton({ target, compact = false }: { target: AlertTarget; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="xs"
        onClick={() => setOpen(true)}
        aria-label={compact ? titleOf(target) : undefined}
        title={titleOf(target)}
      >
        <BellPlus className="size-3.5" />
        {!compact && 'Alert me'}
      </Button>
      <Modal title={titleOf(target)} isOpen={open} onClose={() => setOpen(false)}>
        <AlertForm target={target} onDone={() => setOpen(false)} />
      </Modal>
    </>
  );
}
