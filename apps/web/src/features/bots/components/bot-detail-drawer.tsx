import { useId, useState } from 'react';
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import type { TBotDetail } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { Skeleton } from '../../../components/ui/skeleton';
import { Sparkline } from '../../../components/ui/sparkline';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { useDialogFocus } from '../../../components/ui/use-dialog-focus';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useNetwork } from '../../network';
import { ExplorerNetworkContext, TxLink } from '../../trading';
import {
  formatAmount,
  formatDuration,
  formatSigned,
  modeLabel,
  pageLabel,
  runLabel,
  toneOf,
} from '../bot-detail-model';
import { useBotDetail } from '../use-bots';
import { formatCount, formatFixed } from '../../../lib/format';

/** A figure at two decimals with separators (equity, values): 205.30, not 205.3. */
const fixed = (value: number) => formatFixed(value, 2);

const STATUS_TONE = { running: 'up', stopped: 'neutral', failed: 'down' } as const;

function Figure({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: string;
  tone?: string;
  testId?: string;
}) {
  return (
    <div className="min-w-0 rounded-md border border-line bg-raised/40 px-3 py-2">
      <dt className="text-[11px] text-faint">{label}</dt>
      <dd className={cn('num truncate text-sm', tone ?? 'text-fg')} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The open position at the live price, or a line saying the run is flat. */
function PositionBox({ detail }: { detail: TBotDetail }) {
  const { position, base_symbol: base, quote_symbol: quote } = detail;
  if (!position) {
    return (
      <p
        className="rounded-md border border-dashed border-line p-3 text-xs text-muted"
        data-testid="bot-position"
      >
        No open position: the run holds only {quote || 'its quote token'}.
      </p>
    );
  }
  const rows: [string, string, string?][] = [
    ['Size', `${formatAmount(position.base_amount)} ${base}`],
    ['Average entry', `${formatAmount(position.average_price)} ${quote}`],
    ['Live price', position.live_price === null ? '—' : `${formatAmount(position.live_price)} ${quote}`],
    ['Value', position.market_value === null ? '—' : `${fixed(position.market_value)} ${quote}`],
    [
      'Unrealized PnL',
      position.unrealized_pnl === null
        ? '—'
        : `${formatSigned(position.unrealized_pnl, quote, 4)} (${formatSigned(position.unrealized_pnl_pct ?? 0, '%')})`,
      toneOf(position.unrealized_pnl),
    ],
  ];
  return (
    <section
      aria-label="Open position"
      className="rounded-md border border-line p-3"
      data-testid="bot-position"
    >
      <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-faint uppercase">Open position</h3>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 text-xs sm:grid-cols-3">
        {rows.map(([label, value, tone]) => (
          <div key={label} className="min-w-0">
            <dt className="text-[11px] text-faint">{label}</dt>
            <dd className={cn('num truncate', tone ?? 'text-fg')}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function FillsTable({
  detail,
  onPage,
  isFetching,
}: {
  detail: TBotDetail;
  onPage: (offset: number) => void;
  isFetching: boolean;
}) {
  const { fills, base_symbol: base, quote_symbol: quote } = detail;
  const onChain = detail.run?.mode === 'mainnet';
  return (
    <section aria-label="Fills" className="min-w-0">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-[11px] font-semibold tracking-wide text-faint uppercase">Fills</h3>
        <div className="flex items-center gap-1 text-xs text-muted">
          <span className="num" data-testid="bot-fills-range">
            {pageLabel(fills)}
          </span>
          <Button
            size="xs"
            variant="ghost"
            className="w-7 px-0"
            aria-label="Newer fills"
            disabled={fills.offset === 0 || isFetching}
            onClick={() => onPage(Math.max(0, fills.offset - fills.limit))}
          >
            <ChevronLeft className="size-3.5" />
          </Button>
          <Button
            size="xs"
            variant="ghost"
            className="w-7 px-0"
            aria-label="Older fills"
            disabled={fills.offset + fills.limit >= fills.total || isFetching}
            onClick={() => onPage(fills.offset + fills.limit)}
          >
            <ChevronRight className="size-3.5" />
          </Button>
        </div>
      </div>
      {fills.items.length === 0 ? (
        <p className="rounded-md border border-dashed border-line p-3 text-xs text-muted">
          No fills yet: the bot has not traded in this run.
        </p>
      ) : (
        <Table aria-label="Bot fills">
          <THead>
            <tr>
              <Th>Time (UTC)</Th>
              <Th>Side</Th>
              <Th isNumeric>Amount</Th>
              <Th isNumeric className="hidden sm:table-cell">
                Price
              </Th>
              <Th isNumeric>PnL</Th>
              {onChain && <Th>Tx</Th>}
              <Th className="hidden md:table-cell">Reason</Th>
            </tr>
          </THead>
          <TBody>
            {fills.items.map((fill) => (
              <Tr key={fill.seq} data-testid="bot-fill">
                <Td className="num text-muted">
                  <span className="hidden sm:inline">{fill.time.slice(5, 10)} </span>
                  {fill.time.slice(11, 16)}
                </Td>
                <Td className={fill.side === 'Buy' ? 'text-up' : 'text-down'}>{fill.side}</Td>
                <Td isNumeric>
                  {formatAmount(fill.base_amount)} <span className="hidden text-faint sm:inline">{base}</span>
                </Td>
                <Td isNumeric className="hidden sm:table-cell">
                  {formatAmount(fill.price)} <span className="text-faint">{quote}</span>
                </Td>
                <Td isNumeric className={toneOf(fill.pnl)}>
                  {fill.pnl === null ? '—' : formatSigned(fill.pnl, '', 4)}
                </Td>
                {onChain && (
                  <Td>
                    <TxLink signature={fill.transaction_hash} />
                  </Td>
                )}
                <Td className="hidden max-w-48 truncate text-muted md:table-cell" title={fill.reason}>
                  {fill.reason}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </section>
  );
}

function DetailBody({
  detail,
  runId,
  onRun,
  onPage,
  isFetching,
}: {
  detail: TBotDetail;
  runId: string | null;
  onRun: (runId: string) => void;
  onPage: (offset: number) => void;
  isFetching: boolean;
}) {
  const { run, quote_symbol: quote } = detail;
  if (!run) {
    return (
      <p className="p-4 text-sm text-muted">
        This bot has not run yet. Start it in paper mode or on chain and its runs, fills and position show
        here.
      </p>
    );
  }
  const equity = detail.equity.map((point) => point.value);
  const unrealized = detail.position?.unrealized_pnl ?? null;
  return (
    <div className="grid min-w-0 gap-4 p-4">
      {detail.runs.length > 1 && (
        <label className="grid gap-1 text-[11px] text-faint">
          Run
          <select
            aria-label="Run"
            className="h-8 rounded-md border border-line bg-raised px-2 text-xs text-fg"
            value={runId ?? run.run_id}
            onChange={(event) => onRun(event.target.value)}
          >
            {detail.runs.map((row) => (
              <option key={row.run_id} value={row.run_id}>
                {runLabel(row)}
              </option>
            ))}
          </select>
        </label>
      )}
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Figure label="Run length" value={formatDuration(run.duration_seconds)} testId="bot-run-length" />
        <Figure label="Trades (round trips)" value={String(run.trades)} />
        <Figure label="Fills" value={formatCount(run.fills)} testId="bot-fill-count" />
        <Figure
          label="Realised PnL"
          value={formatSigned(run.realised_pnl, quote, 4)}
          tone={toneOf(run.realised_pnl)}
        />
        <Figure
          label="Unrealized PnL"
          value={unrealized === null ? '—' : formatSigned(unrealized, quote, 4)}
          tone={toneOf(unrealized)}
          testId="bot-unrealized"
        />
        <Figure label="Equity" value={equity.length > 0 ? `${fixed(equity.at(-1)!)} ${quote}` : '—'} />
      </dl>
      {run.message && run.status !== 'running' && (
        <Notice tone={run.status === 'failed' ? 'error' : 'info'}>{run.message}</Notice>
      )}
      <PositionBox detail={detail} />
      {equity.length > 1 && (
        <section aria-label="Equity curve" className="rounded-md border border-line p-3">
          <div className="mb-1 flex justify-between text-[11px] text-faint">
            <span>
              Equity from {formatAmount(run.initial_balance, 2)} {quote}
            </span>
            <span className="num">
              {formatAmount(Math.min(...equity), 2)} – {formatAmount(Math.max(...equity), 2)}
            </span>
          </div>
          <Sparkline values={equity} width={640} height={80} className="h-20 w-full" />
        </section>
      )}
      <FillsTable detail={detail} onPage={onPage} isFetching={isFetching} />
      {detail.errors.length > 0 && (
        <section aria-label="Errors" className="grid gap-2">
          <h3 className="text-[11px] font-semibold tracking-wide text-faint uppercase">Errors</h3>
          {detail.errors.map((error) => (
            <Notice key={error.run_id} tone="error">
              <span className="num text-faint">{error.time.replace('T', ' ').slice(0, 16)} UTC</span> ·{' '}
              {error.message}
            </Notice>
          ))}
        </section>
      )}
    </div>
  );
}

/**
 * What one of the user's bots did (a drawer from its card): its runs, a run's fills with their
 * transactions, the open position and unrealized PnL at the live price, equity and errors. It
 * refreshes on the bot's pushes (each evaluated candle) and every 15 s while the bot runs.
 */
export function BotDetailDrawer({
  botId,
  botName,
  isOpen,
  onClose,
}: {
  botId: string;
  botName: string;
  isOpen: boolean;
  onClose: () => void;
}) {
  const titleId = useId();
  const panel = useDialogFocus(isOpen, onClose);
  const { network } = useNetwork();
  const [runId, setRunId] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const query = useBotDetail(isOpen ? botId : null, runId, offset);

  if (!isOpen) return null;
  const detail = query.data;
  return (
    <ExplorerNetworkContext.Provider value={network}>
      <div className="fixed inset-0 z-50 flex justify-end bg-black/60" onClick={onClose}>
        <div
          ref={panel}
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          tabIndex={-1}
          onClick={(event) => event.stopPropagation()}
          className="flex h-full w-full max-w-3xl min-w-0 flex-col border-l border-line bg-panel shadow-xl outline-none"
          data-testid="bot-detail"
        >
          <header className="flex items-start justify-between gap-3 border-b border-line px-4 py-3">
            <div className="min-w-0">
              <h2 id={titleId} className="truncate text-sm font-semibold text-fg">
                {botName}
              </h2>
              <p className="truncate text-xs text-muted">
                {detail
                  ? `${detail.symbol} · ${detail.run ? modeLabel(detail.run.mode) : 'never run'}`
                  : 'Loading…'}
              </p>
            </div>
            <div className="flex shrink-0 items-center gap-2">
              {detail && <Badge tone={STATUS_TONE[detail.status]}>{detail.status}</Badge>}
              <Button size="xs" variant="ghost" className="w-7 px-0" aria-label="Close" onClick={onClose}>
                <X className="size-4" />
              </Button>
            </div>
          </header>
          <div className="min-h-0 flex-1 overflow-y-auto">
            {query.isPending ? (
              <div className="grid gap-3 p-4" aria-busy="true">
                <Skeleton className="h-16" />
                <Skeleton className="h-24" />
                <Skeleton className="h-48" />
              </div>
            ) : query.isError ? (
              <div className="p-4">
                <Notice tone="error">{getErrorMessage(query.error, 'Failed to load the bot')}</Notice>
              </div>
            ) : (
              <DetailBody
                detail={query.data}
                runId={runId}
                onRun={(id) => {
                  setRunId(id);
                  setOffset(0);
                }}
                onPage={setOffset}
                isFetching={query.isFetching}
              />
            )}
          </div>
        </div>
      </div>
    </ExplorerNetworkContext.Provider>
  );
}
