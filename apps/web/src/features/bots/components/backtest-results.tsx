import { Download, FileJson } from 'lucide-react';
import {
  BACKTEST_SHARPE_DECIMALS,
  BACKTEST_WIN_RATE_DECIMALS,
  parsePair,
  type TBacktestResult,
} from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader, Stat } from '../../../components/ui/card';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import { Notice } from '../../../components/ui/notice';
import { notify } from '../../../lib/toast';
import { backtestJson, backtestTradesCsv, downloadBacktestExport, downloadText } from '../backtest-export';
import { BacktestTradesChart } from './backtest-trades-chart';
import { EquityChart } from './equity-chart';
import { formatCount, formatFixed, formatSignedPercent } from '../../../lib/format';

/** Trades the page lists; the export holds them all. */
const LISTED_TRADES = 200;

const toneOf = (value: number) => {
  const shown = formatFixed(value, 2);
  return shown === '0.00' ? 'neutral' : value > 0 ? 'up' : 'down';
};

type BacktestStat = { label: string; value: string; tone?: 'up' | 'down' | 'neutral' };

/** The spec's grid of figures. */
function getHeadlineStats(result: TBacktestResult, quote: string): BacktestStat[] {
  const stats: BacktestStat[] = [
    { label: `Initial balance (${quote})`, value: formatFixed(result.initial_balance, 2) },
    { label: `Final balance (${quote})`, value: formatFixed(result.final_balance, 2) },
    {
      label: 'Total return',
      value: formatSignedPercent(result.total_return),
      tone: toneOf(result.total_return),
    },
    { label: 'Total trades', value: formatCount(result.total_trades) },
    { label: 'Win rate', value: `${formatFixed(result.win_rate, BACKTEST_WIN_RATE_DECIMALS)}%` },
    {
      label: 'Max drawdown',
      value: `${formatFixed(result.max_drawdown, 2)}%`,
      tone: toneOf(-result.max_drawdown),
    },
    { label: 'Sharpe ratio', value: formatFixed(result.sharpe_ratio, BACKTEST_SHARPE_DECIMALS) },
    { label: 'Winning trades', value: formatCount(result.winning_trades) },
    { label: 'Losing trades', value: formatCount(result.losing_trades) },
  ];
  if (result.equity_curve.length > 0) {
    stats.push({ label: 'Data points (hours)', value: formatCount(result.equity_curve.length) });
  }
  return stats;
}

/** The metrics a trader also asks for. */
function getMoreMetrics(result: TBacktestResult, quote: string): BacktestStat[] {
  return [
    { label: 'Sortino', value: formatFixed(result.sortino_ratio, 3) },
    { label: 'Calmar', value: formatFixed(result.calmar_ratio, 3) },
    {
      label: 'Profit factor',
      value: result.profit_factor === null ? '—' : formatFixed(result.profit_factor, 2),
    },
    { label: `Expectancy (${quote})`, value: formatFixed(result.expectancy, 4) },
    { label: 'Exposure', value: `${formatFixed(result.exposure, 1)}%` },
  ];
}

/** 'Venue RFQ pricing' or 'Fixed: 10 bps fee, 20 bps slippage'. */
export function costsLabel(costs: TBacktestResult['costs']): string {
  return costs.model === 'venue'
    ? 'Venue RFQ pricing'
    : `Fixed: ${costs.fee_bps ?? 0} bps fee, ${costs.slippage_bps ?? 0} bps slippage`;
}

/** '10% of equity', '100 USDC a buy' or '0.5 SOL a buy'. */
export function sizingLabel(sizing: TBacktestResult['sizing'], symbol: string): string {
  const pair = parsePair(symbol);
  if (sizing.mode === 'percent_equity') return `${sizing.value}% of equity`;
  if (sizing.mode === 'fixed_quote') return `${sizing.value} ${pair?.quote ?? 'quote'} a buy`;
  return `${sizing.value} ${pair?.base ?? 'base'} a buy`;
}

/** The buy-and-hold benchmark beside the strategy, and what the fills cost. */
function getBenchmarkAndCosts(result: TBacktestResult, quote: string): BacktestStat[] {
  const held = result.benchmark;
  return [
    {
      label: 'Buy & hold return',
      value: formatSignedPercent(held.total_return),
      tone: toneOf(held.total_return),
    },
    {
      label: 'Buy & hold drawdown',
      value: `${formatFixed(held.max_drawdown, 2)}%`,
      tone: toneOf(-held.max_drawdown),
    },
    { label: `Fees paid (${quote})`, value: formatFixed(result.fees_paid, 4) },
    { label: `Slippage paid (${quote})`, value: formatFixed(result.slippage_paid, 4) },
    { label: 'Costs', value: costsLabel(result.costs) },
    { label: 'Sizing', value: sizingLabel(result.sizing, result.symbol) },
  ];
}

/** What the trade list holds: the fills listed, or why there is none. */
function tradesDescription(result: TBacktestResult): string {
  if (result.trades.length === 0) {
    return result.skipped_signals.length > 0
      ? `No trade: ${result.skipped_signals.map((item) => `${formatCount(item.count)} signals skipped (${item.reason})`).join(', ')}.`
      : 'The strategy made no trade in this range.';
  }
  const shown = formatCount(Math.min(LISTED_TRADES, result.trades.length));
  return `${result.trades_truncated ? 'More than ' : ''}${formatCount(result.trades.length)} fills; the first ${shown} shown${result.export_id ? ', every fill in the CSV export' : ''}`;
}

/** A row of small figures under the grid (wrapped, never cut). */
function FigureStrip({
  figures,
  className,
  testId,
}: {
  figures: BacktestStat[];
  className: string;
  testId?: string;
}) {
  return (
    <div
      className={cn('grid gap-x-4 gap-y-2 border-t border-line px-4 py-3 text-xs', className)}
      data-testid={testId}
    >
      {figures.map((item) => (
        <div key={item.label} className="min-w-0">
          <div className="text-faint">{item.label}</div>
          <div
            className={cn(
              'num break-words',
              item.tone === 'up' ? 'text-up' : item.tone === 'down' ? 'text-down' : 'text-fg',
            )}
          >
            {item.value}
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * A backtest's result (part 2 §2): the spec's grid (initial and final balance, total return styled by
 * sign, total trades, win rate to 1 decimal, max drawdown, Sharpe to 3 decimals, winning and losing
 * trades, data points in hours when there is a curve), the metrics a trader also asks for, the chart,
 * and the trade list with CSV and JSON export.
 */
export function BacktestResults({
  result,
  title = 'Backtest results',
}: {
  result: TBacktestResult;
  title?: string;
}) {
  const quote = parsePair(result.symbol)?.quote ?? 'USDC';
  const slug = `backtest-${result.symbol.replace('/', '-')}-${result.start_date.slice(0, 10)}-${result.end_date.slice(0, 10)}`;
  const stats = getHeadlineStats(result, quote);
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="backtest-results">
      <Card>
        <CardHeader
          title={title}
          description={`${result.symbol} · ${result.interval} candles · ${result.start_date.slice(0, 10)} → ${result.end_date.slice(0, 10)} · ${formatCount(result.candles)} candles`}
        />
        {result.notices.length > 0 && (
          <div className="grid gap-2 px-4 pt-3">
            {result.notices.map((notice) => (
              <Notice key={notice} tone="warn" aria-label="Backtest notice">
                {notice}
              </Notice>
            ))}
          </div>
        )}
        <CardBody className="grid grid-cols-2 gap-x-4 gap-y-4 sm:grid-cols-3 lg:grid-cols-5">
          {stats.map((stat) => (
            <Stat key={stat.label} label={stat.label} value={stat.value} tone={stat.tone} />
          ))}
        </CardBody>
        <FigureStrip
          figures={getBenchmarkAndCosts(result, quote)}
          className="grid-cols-2 sm:grid-cols-3 lg:grid-cols-6"
          testId="backtest-benchmark"
        />
        <FigureStrip figures={getMoreMetrics(result, quote)} className="grid-cols-3 sm:grid-cols-5" />
      </Card>
      <div className="grid min-w-0 grid-cols-1 gap-4 xl:grid-cols-2">
        <Card className="min-w-0">
          <CardHeader
            title="Price and trades"
            description={`${result.symbol} over the tested period, each fill marked on its candle`}
          />
          <div className="p-2">
            <BacktestTradesChart result={result} />
          </div>
        </Card>
        <Card className="min-w-0">
          <CardHeader
            title="Portfolio value and drawdown"
            description="Value and buy & hold (dashed) on the left axis, drawdown from the running peak on the right"
          />
          <div className="p-2">
            <EquityChart result={result} quote={quote} />
          </div>
        </Card>
      </div>
      <Card>
        <CardHeader
          title="Trades"
          description={tradesDescription(result)}
          actions={
            <>
              <Button
                size="xs"
                variant="secondary"
                onClick={() => {
                  if (!result.export_id) {
                    downloadText(`${slug}.csv`, backtestTradesCsv(result), 'text/csv');
                    return;
                  }
                  downloadBacktestExport(result.export_id, `${slug}.csv`).catch((error: unknown) =>
                    notify.error(error instanceof Error ? error.message : 'The export failed'),
                  );
                }}
              >
                <Download className="size-3.5" /> CSV
              </Button>
              <Button
                size="xs"
                variant="secondary"
                onClick={() => downloadText(`${slug}.json`, backtestJson(result), 'application/json')}
              >
                <FileJson className="size-3.5" /> JSON
              </Button>
            </>
          }
        />
        {result.trades.length > 0 && (
          <div className="max-h-96 overflow-auto">
            <Table aria-label="Backtest trades">
              <THead>
                <Tr>
                  <Th>Time</Th>
                  <Th>Side</Th>
                  <Th isNumeric>Quantity</Th>
                  <Th isNumeric>Price</Th>
                  <Th isNumeric>Value</Th>
                  <Th isNumeric>Fee</Th>
                  <Th isNumeric>Slippage</Th>
                  <Th isNumeric>PnL</Th>
                  <Th>Reason</Th>
                </Tr>
              </THead>
              <TBody>
                {result.trades.slice(0, LISTED_TRADES).map((trade, index) => (
                  <Tr key={`${trade.time}-${index}`}>
                    <Td className="num text-muted">{trade.time.slice(0, 16).replace('T', ' ')}</Td>
                    <Td className={trade.side === 'Buy' ? 'text-up' : 'text-down'}>{trade.side}</Td>
                    <Td isNumeric>{trade.quantity}</Td>
                    <Td isNumeric>{trade.price}</Td>
                    <Td isNumeric>{formatFixed(trade.value, 4)}</Td>
                    <Td isNumeric className="text-muted">
                      {formatFixed(trade.fee, 4)}
                    </Td>
                    <Td isNumeric className="text-muted">
                      {formatFixed(trade.slippage, 4)}
                    </Td>
                    <Td
                      isNumeric
                      className={cn(trade.pnl !== null && (trade.pnl >= 0 ? 'text-up' : 'text-down'))}
                    >
                      {trade.pnl === null ? '—' : formatFixed(trade.pnl, 4)}
                    </Td>
                    <Td className="min-w-40 whitespace-normal break-words text-muted">{trade.reason}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </div>
        )}
      </Card>
    </div>
  );
}
