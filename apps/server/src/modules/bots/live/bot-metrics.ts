import { CHART_INTERVAL_SECONDS, type TBotMetrics } from '@solterm/contracts';
import { Dec, fromBaseUnits } from '@solterm/engine';
import type { BotFillRow, BotRunRow } from './bot-runs.repository';

/** What the figures read of a fill. */
export type MetricFill = Pick<BotFillRow, 'side' | 'baseAmount' | 'quoteAmount' | 'pnl' | 'time'>;

const DAY_MS = 86_400_000;

/** A bot that has never run: every figure zero or null. */
export const NO_METRICS: TBotMetrics = {
  total_trades: 0,
  total_pnl: 0,
  win_rate: 0,
  current_balance: 0,
  daily_pnl: 0,
  weekly_pnl: 0,
  monthly_pnl: 0,
  max_drawdown: 0,
  sharpe_ratio: 0,
  last_trade_time: null,
  started_at: null,
  estimated_completion: null,
  current_task: null,
  progress_percentage: 0,
};

const round = (value: Dec, places: number) => Number(value.toDecimalPlaces(places).toString());

/**
 * What a running run is doing, in words (the card's "current task"): waiting for its next candle to
 * close or, once that close has passed and the run has not yet recorded it, acting on it (deciding,
 * and trading when the strategy says so: an on-chain trade stays here until it has landed).
 */
function currentTaskOf(run: BotRunRow, now: Date): string {
  const step = CHART_INTERVAL_SECONDS[run.config.interval];
  const nextOpen = (run.lastCandle ?? run.firstCandle - step) + step;
  const closesMs = (nextOpen + step) * 1000;
  const closes = new Date(closesMs).toISOString().slice(11, 16);
  return now.getTime() < closesMs
    ? `Next ${run.config.interval} candle closes at ${closes} UTC`
    : `Acting on the ${closes} UTC ${run.config.interval} close`;
}

/**
 * A bot's figures from its newest run's own fills (part 2 §3): round trips (sells), realised PnL,
 * win rate, balance (cash plus open lots at the last evaluated close), PnL over the last day, week
 * and month, max drawdown of the realised equity (%), and a per-trade Sharpe ratio (mean over
 * standard deviation of the sells' returns, not annualised). Timing fields only while it runs.
 */
export function metricsOf(run: BotRunRow | undefined, fills: readonly MetricFill[], now: Date): TBotMetrics {
  if (!run) return NO_METRICS;
  const quote = (units: string | bigint) => fromBaseUnits(BigInt(units), run.quoteDecimals);
  const base = (units: string | bigint) => fromBaseUnits(BigInt(units), run.baseDecimals);
  let cash = BigInt(run.initialCash);
  let openBase = 0n;
  let equity = quote(run.initialCash);
  let peak = equity;
  let drawdown = new Dec(0);
  const returns: Dec[] = [];
  const sells = fills.filter((fill) => fill.side === 'Sell');
  for (const fill of fills) {
    if (fill.side === 'Buy') {
      cash -= BigInt(fill.quoteAmount);
      openBase += BigInt(fill.baseAmount);
      continue;
    }
    cash += BigInt(fill.quoteAmount);
    openBase -= BigInt(fill.baseAmount);
    const pnl = quote(fill.pnl ?? '0');
    const cost = quote(fill.quoteAmount).minus(pnl);
    if (!cost.isZero()) returns.push(pnl.div(cost));
    equity = equity.plus(pnl);
    if (equity.greaterThan(peak)) peak = equity;
    const fall = peak.minus(equity).div(peak).times(100);
    if (fall.greaterThan(drawdown)) drawdown = fall;
  }
  const pnlSince = (ms: number) =>
    sells
      .filter((fill) => fill.time.getTime() >= now.getTime() - ms)
      .reduce((sum, fill) => sum.plus(quote(fill.pnl ?? '0')), new Dec(0));
  const totalPnl = pnlSince(Number.POSITIVE_INFINITY);
  const wins = sells.filter((fill) => BigInt(fill.pnl ?? '0') > 0n).length;
  let sharpe = new Dec(0);
  if (returns.length >= 2) {
    const mean = returns.reduce((sum, r) => sum.plus(r), new Dec(0)).div(returns.length);
    const variance = returns
      .reduce((sum, r) => sum.plus(r.minus(mean).pow(2)), new Dec(0))
      .div(returns.length - 1);
    if (!variance.isZero()) sharpe = mean.div(variance.sqrt());
  }
  const lastClose = run.lastClose === null ? new Dec(0) : new Dec(run.lastClose);
  const running = run.status === 'running';
  // A run that ran its planned time keeps its timing: the card's time remaining says Completed.
  const completed =
    !running && run.stoppedAt !== null && run.stoppedAt.getTime() >= run.endsAt.getTime() - 1000;
  // (The runner ends a run in the second of its planned end, so up to a second before it.)
  const timed = running || completed;
  const span = run.endsAt.getTime() - run.startedAt.getTime();
  const elapsed = Math.min(Math.max(now.getTime() - run.startedAt.getTime(), 0), span);
  return {
    total_trades: sells.length,
    total_pnl: round(totalPnl, 6),
    win_rate: sells.length === 0 ? 0 : round(new Dec(wins).div(sells.length).times(100), 2),
    current_balance: round(quote(cash).plus(base(openBase).times(lastClose)), 6),
    daily_pnl: round(pnlSince(DAY_MS), 6),
    weekly_pnl: round(pnlSince(7 * DAY_MS), 6),
    monthly_pnl: round(pnlSince(30 * DAY_MS), 6),
    max_drawdown: round(drawdown, 2),
    sharpe_ratio: round(sharpe, 3),
    last_trade_time: fills.at(-1)?.time.toISOString() ?? null,
    started_at: timed ? run.startedAt.toISOString() : null,
    estimated_completion: timed ? run.endsAt.toISOString() : null,
    current_task: running ? currentTaskOf(run, now) : null,
    progress_percentage: completed ? 100 : running ? Math.floor((elapsed / span) * 100) : 0,
  };
}

/** The bot_timing_update of a running run (spec part 2 §3 websocket messages). */
export function timingOf(run: BotRunRow, fills: readonly MetricFill[], now: Date) {
  const metrics = metricsOf(run, fills, now);
  return {
    bot_id: run.botId,
    current_task: metrics.current_task,
    estimated_completion: metrics.estimated_completion,
    total_trades: metrics.total_trades,
    total_pnl: String(metrics.total_pnl),
    progress_percentage: metrics.progress_percentage,
    started_at: metrics.started_at,
  };
}
