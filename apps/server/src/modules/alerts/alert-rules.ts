import { Dec } from '@solterm/engine';
import type { TAlert, TAlertCreate, TBotAlertEvent, TFuturesPosition } from '@solterm/contracts';
import type { AlertRow, Trigger } from './alerts.repository';

export type PriceRule = Extract<TAlertCreate, { kind: 'price' }>;
export type BotRule = Extract<TAlertCreate, { kind: 'bot' }>;
export type LiquidationRule = Extract<TAlertCreate, { kind: 'liquidation_risk' }>;
/** What an alert row's `rule` holds: the create request without kind and channels. */
export type StoredRule =
  | Omit<PriceRule, 'kind' | 'channels'>
  | Omit<BotRule, 'kind' | 'channels'>
  | Omit<LiquidationRule, 'kind' | 'channels'>;

/** A bot run's lifecycle and fills, as bot alerts read them. */
export interface BotRunActivity {
  runId: string;
  botId: string;
  botName: string;
  status: 'running' | 'stopped' | 'failed';
  message: string | null;
  startedAt: Date;
  stoppedAt: Date | null;
  endsAt: Date;
  fills: { seq: number; time: Date; side: string; reason: string }[];
}

/** A short description of an alert ("SOL/USDC above 150"). */
export function alertLabel(kind: string, rule: StoredRule): string {
  if (kind === 'price') {
    const price = rule as Omit<PriceRule, 'kind' | 'channels'>;
    if (price.condition === 'change_percent') {
      const window = price.window_minutes ? ` within ${price.window_minutes} min` : '';
      return `${price.pair} moves ${price.value}%${window}`;
    }
    return `${price.pair} ${price.condition} ${price.value}`;
  }
  if (kind === 'bot') return `Bot: ${(rule as Omit<BotRule, 'kind' | 'channels'>).events.join(', ')}`;
  const risk = rule as Omit<LiquidationRule, 'kind' | 'channels'>;
  return `${risk.symbol ?? 'Any position'} within ${risk.distance_percent}% of liquidation`;
}

export function alertToWire(row: AlertRow): TAlert {
  const rule = row.rule as StoredRule;
  const common = {
    id: row.id,
    channels: row.channels as TAlert['channels'],
    status: row.status as TAlert['status'],
    created_at: row.createdAt.toISOString(),
    triggered_at: row.triggeredAt?.toISOString() ?? null,
    label: alertLabel(row.kind, rule),
  };
  if (row.kind === 'price') {
    const price = rule as Omit<PriceRule, 'kind' | 'channels'>;
    return {
      ...common,
      kind: 'price',
      pair: price.pair,
      condition: price.condition,
      value: price.value,
      window_minutes: price.window_minutes ?? null,
      reference_price: row.referencePrice,
    };
  }
  if (row.kind === 'bot') {
    const bot = rule as Omit<BotRule, 'kind' | 'channels'>;
    return { ...common, kind: 'bot', bot_id: bot.bot_id, events: bot.events };
  }
  const risk = rule as Omit<LiquidationRule, 'kind' | 'channels'>;
  return {
    ...common,
    kind: 'liquidation_risk',
    symbol: risk.symbol ?? null,
    distance_percent: risk.distance_percent,
  };
}

/**
 * Whether a price alert's condition holds: above/below compare the pair's price with the value;
 * change_percent compares the change from `reference` (the price `window_minutes` ago, or at
 * creation) with the value: a positive value fires on a rise of at least that much, a negative one
 * on a fall.
 */
export function priceTrigger(
  rule: Omit<PriceRule, 'kind' | 'channels'>,
  price: Dec,
  reference: Dec | null,
): Trigger | null {
  if (rule.condition === 'above' || rule.condition === 'below') {
    const value = new Dec(rule.value);
    const hit = rule.condition === 'above' ? price.gte(value) : price.lte(value);
    if (!hit) return null;
    return {
      key: 'price',
      oneShot: true,
      title: `${rule.pair} is ${rule.condition} ${rule.value}`,
      body: `${rule.pair} is at ${price.toSignificantDigits(10).toFixed()} (alert: ${rule.condition} ${rule.value}).`,
    };
  }
  if (!reference || reference.lte(0)) return null;
  const change = price.minus(reference).div(reference).times(100);
  const target = new Dec(rule.value);
  const hit = target.gt(0) ? change.gte(target) : change.lte(target);
  if (!hit) return null;
  const since = rule.window_minutes ? `in ${rule.window_minutes} min` : 'since the alert was set';
  return {
    key: 'price',
    oneShot: true,
    title: `${rule.pair} moved ${change.toFixed(2)}%`,
    body: `${rule.pair} moved ${change.toFixed(2)}% ${since}, from ${reference.toSignificantDigits(10).toFixed()} to ${price.toSignificantDigits(10).toFixed()}.`,
  };
}

/** The events of a bot's runs an alert watching `events` fires for (each once, by its key). */
export function botTriggers(
  events: readonly TBotAlertEvent[],
  runs: readonly BotRunActivity[],
  since: Date,
): Trigger[] {
  const wanted = new Set(events);
  const triggers: Trigger[] = [];
  const add = (event: TBotAlertEvent, key: string, title: string, body: string) => {
    if (wanted.has(event)) triggers.push({ key, title, body, oneShot: false });
  };
  for (const run of runs) {
    const name = `Bot "${run.botName}"`;
    if (run.startedAt >= since) add('started', `started:${run.runId}`, `${name} started`, `${name} started.`);
    for (const fill of run.fills) {
      if (fill.time < since) continue;
      add(
        'fill',
        `fill:${run.runId}:${fill.seq}`,
        `${name}: ${fill.side}`,
        `${name} filled a ${fill.side.toLowerCase()} (${fill.reason}).`,
      );
    }
    if (!run.stoppedAt || run.stoppedAt < since) continue;
    const message = run.message ?? '';
    if (run.status === 'failed')
      add('error', `error:${run.runId}`, `${name} failed`, message || `${name} failed.`);
    else if (run.stoppedAt.getTime() >= run.endsAt.getTime() - 1000)
      add(
        'completed',
        `completed:${run.runId}`,
        `${name} completed`,
        message || `${name} completed its run.`,
      );
    else add('stopped', `stopped:${run.runId}`, `${name} stopped`, message || `${name} stopped.`);
  }
  return triggers;
}

/**
 * Positions within `distance_percent` of their liquidation price: |mark − liq| / mark × 100. One
 * trigger per position (its id): a position that leaves the zone and comes back does not fire again.
 */
export function liquidationTriggers(
  rule: Omit<LiquidationRule, 'kind' | 'channels'>,
  positions: readonly TFuturesPosition[],
): Trigger[] {
  const triggers: Trigger[] = [];
  for (const position of positions) {
    if (rule.symbol && position.symbol !== rule.symbol && position.market_symbol !== rule.symbol) continue;
    if (position.liquidation_price === null) continue;
    const mark = new Dec(position.mark_price);
    if (mark.lte(0)) continue;
    const distance = mark.minus(position.liquidation_price).abs().div(mark).times(100);
    if (distance.gt(rule.distance_percent)) continue;
    triggers.push({
      key: `position:${position.id}`,
      oneShot: false,
      title: `${position.symbol} ${position.side} is ${distance.toFixed(2)}% from liquidation`,
      body: `Your ${position.side} ${position.size} ${position.symbol} is marked at ${position.mark_price}; its liquidation price is ${position.liquidation_price}.`,
    });
  }
  return triggers;
}
