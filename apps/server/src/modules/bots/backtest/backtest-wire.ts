import type { TBacktestResult, TBotConfig } from '@solterm/contracts';
import { MAX_BACKTEST_TRADES_LISTED } from '@solterm/contracts';
import {
  Dec,
  exact,
  fillPrice,
  fromBaseUnits,
  type BacktestResult,
  type EquityLog,
  type FillLog,
  type RuntimeFill,
} from '@solterm/engine';

/** Fills in one part of a backtest's CSV export (~1 MB of text). */
export const BACKTEST_EXPORT_PART_ROWS = 10_000;
/** The export's columns: the trade list's fields. */
export const BACKTEST_CSV_COLUMNS = [
  'time',
  'side',
  'quantity',
  'price',
  'value',
  'fee',
  'slippage',
  'pnl',
  'reason',
] as const;

/** A CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

type WireContext = Parameters<typeof resultToWire>[1];

/**
 * Every fill as CSV (the columns of the trade list), in parts of BACKTEST_EXPORT_PART_ROWS rows: the
 * first part starts with the header. Made where the backtest was computed, kept by backtest-exports.ts.
 */
export function fillsCsvParts(
  fills: FillLog,
  context: Pick<WireContext, 'baseDecimals' | 'quoteDecimals'>,
): string[] {
  const parts: string[] = [];
  for (let start = 0; start === 0 || start < fills.length; start += BACKTEST_EXPORT_PART_ROWS) {
    const rows = start === 0 ? [BACKTEST_CSV_COLUMNS.join(',')] : [];
    const end = Math.min(fills.length, start + BACKTEST_EXPORT_PART_ROWS);
    for (let i = start; i < end; i += 1) {
      const fill = fills.at(i);
      // One line a fill (a strategy's reason may hold line breaks).
      const trade = { ...tradeOf(fill, context), reason: fill.reason.replace(/[\r\n]+/g, ' ') };
      rows.push(BACKTEST_CSV_COLUMNS.map((column) => csvField(trade[column])).join(','));
    }
    parts.push(`${rows.join('\n')}\n`);
  }
  return parts;
}

function tradeOf(
  fill: RuntimeFill,
  context: Pick<WireContext, 'baseDecimals' | 'quoteDecimals'>,
): TBacktestResult['trades'][number] {
  const units = (value: bigint) => toWireNumber(fromBaseUnits(value, context.quoteDecimals));
  return {
    time: new Date(fill.time * 1000).toISOString(),
    side: fill.side,
    quantity: toWireNumber(fromBaseUnits(fill.baseAmount, context.baseDecimals)),
    price: toWireNumber(fillPrice(fill, context.baseDecimals, context.quoteDecimals).toSignificantDigits(10)),
    value: units(fill.quoteAmount),
    fee: toWireNumber(exact.toDec(fill.fee).toDecimalPlaces(context.quoteDecimals, Dec.ROUND_HALF_UP)),
    slippage: toWireNumber(
      exact.toDec(fill.slippage).toDecimalPlaces(context.quoteDecimals, Dec.ROUND_HALF_UP),
    ),
    pnl: fill.pnl === null ? null : units(fill.pnl),
    reason: fill.reason,
  };
}
import { toWireNumber } from '../../../lib/wire-decimal';

/** A backtest's result on the wire: money to the quote token's decimals, ratios to 6 decimals. */
export function resultToWire(
  result: BacktestResult,
  context: {
    symbol: string;
    interval: TBotConfig['interval'];
    from: number;
    to: number;
    baseDecimals: number;
    quoteDecimals: number;
    /** The range asked for, unix seconds (the first and last candle open asked for). */
    requestedFrom: number;
    requestedTo: number;
    intervalSeconds: number;
    maxPositions: number;
    exportId: string | null;
    costs: TBacktestResult['costs'];
    sizing: TBacktestResult['sizing'];
  },
): TBacktestResult {
  const money = (value: Dec) => toWireNumber(value.toDecimalPlaces(context.quoteDecimals, Dec.ROUND_HALF_UP));
  const ratio = (value: Dec) => toWireNumber(value.toDecimalPlaces(6, Dec.ROUND_HALF_UP));
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  const { fillLog } = result;
  const listed = Math.min(fillLog.length, MAX_BACKTEST_TRADES_LISTED);
  // Each point and fill is made from the run's log as it is written (the result keeps no copy).
  const curveOf = (log: EquityLog) =>
    Array.from({ length: log.length }, (_, i) => ({
      timestamp: iso(log.timeAt(i)),
      value: money(log.decimalAt(i)),
    }));
  return {
    initial_balance: money(result.initialBalance),
    final_balance: money(result.finalBalance),
    total_return: ratio(result.totalReturn),
    total_trades: result.totalTrades,
    win_rate: ratio(result.winRate),
    max_drawdown: ratio(result.maxDrawdown),
    sharpe_ratio: ratio(result.sharpeRatio),
    winning_trades: result.winningTrades,
    losing_trades: result.losingTrades,
    equity_curve: curveOf(result.equityLog),
    sortino_ratio: ratio(result.sortinoRatio),
    calmar_ratio: ratio(result.calmarRatio),
    profit_factor: result.profitFactor === null ? null : ratio(result.profitFactor),
    expectancy: money(result.expectancy),
    exposure: ratio(result.exposure),
    fees_paid: money(result.feesPaid),
    slippage_paid: money(result.slippagePaid),
    costs: context.costs,
    sizing: context.sizing,
    benchmark: {
      final_balance: money(result.benchmark.finalBalance),
      total_return: ratio(result.benchmark.totalReturn),
      max_drawdown: ratio(result.benchmark.maxDrawdown),
      equity_curve: curveOf(result.benchmark.equityLog),
    },
    trades: Array.from({ length: listed }, (_, i) => tradeOf(fillLog.at(i), context)),
    trades_truncated: fillLog.length > listed,
    symbol: context.symbol,
    interval: context.interval,
    start_date: iso(context.from),
    end_date: iso(context.to),
    requested_start_date: iso(context.requestedFrom),
    requested_end_date: iso(Math.max(context.requestedTo, context.requestedFrom)),
    candles: result.candles,
    skipped_signals: skippedSignals(result),
    notices: noticesOf(result, context),
    export_id: context.exportId,
  };
}

function skippedSignals(result: BacktestResult): TBacktestResult['skipped_signals'] {
  const skipped = [
    { reason: 'insufficient balance', count: result.unfundedBuys },
    { reason: 'max positions open', count: result.refusedBuys - result.unfundedBuys },
  ];
  return skipped.filter((item) => item.count > 0);
}

/** 1234567.891 → '1,234,567.89' (decimals as given, then grouped). */
function grouped(value: Dec, decimals: number): string {
  const [whole, fraction] = value.toFixed(decimals, Dec.ROUND_HALF_UP).split('.');
  const digits = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${digits}.${fraction}` : digits;
}

const count = (value: number) => value.toLocaleString('en-US');
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** What a trader must be told about the run: the range cut to the data, signals that made no trade. */
function noticesOf(
  result: BacktestResult,
  context: Parameters<typeof resultToWire>[1] & { from: number; to: number },
): string[] {
  const notices: string[] = [];
  const step = context.intervalSeconds;
  const [, quote = ''] = context.symbol.split('/');
  if (context.from - context.requestedFrom >= step) {
    notices.push(
      `No ${context.symbol} data before ${day(context.from)}: the backtest starts there, not on ${day(context.requestedFrom)}.`,
    );
  }
  // `to` is the last candle's close; more than one candle missing at the end is a cut, not the clock.
  if (context.requestedTo - context.to >= step) {
    notices.push(
      `No ${context.symbol} data after ${day(context.to)}: the backtest ends there, not on ${day(context.requestedTo)}.`,
    );
  }
  if (result.unfundedBuys > 0) {
    const first = result.firstUnfunded;
    const detail = first
      ? ` (a buy needed ${grouped(fromBaseUnits(first.cost, context.quoteDecimals), 2)} ${quote}; the balance was ${grouped(fromBaseUnits(first.cash, context.quoteDecimals), 2)} ${quote}). Lower the bot's amount or raise the initial balance.`
      : '.';
    notices.push(
      `${count(result.unfundedBuys)} buy signal${result.unfundedBuys === 1 ? '' : 's'} skipped: insufficient balance${detail}`,
    );
  }
  const capped = result.refusedBuys - result.unfundedBuys;
  if (capped > 0) {
    notices.push(
      `${count(capped)} buy signal${capped === 1 ? '' : 's'} skipped: ${context.maxPositions} position${context.maxPositions === 1 ? '' : 's'} already open (max positions).`,
    );
  }
  return notices;
}
