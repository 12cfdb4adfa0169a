import { AlertCircle, SearchX } from 'lucide-react';
import {
  formatMarketCapMillions,
  formatUsdPrice,
  SEARCH_MESSAGES,
  SEARCH_QUOTE_OPTIONS,
  type TPairTradability,
  type TTokenSearchResult,
} from '@solterm/contracts';
import { cn } from '../../../lib/cn';
import {
  ChangeText,
  CopyAddress,
  getPairId,
  mintOfToken,
  SafetyBadge,
  selectionFromToken,
  TokenAvatar,
  type useTokenSearch,
} from '../../market';

// The token search's dropdown: its rows and states.

export type Quote = (typeof SEARCH_QUOTE_OPTIONS)[number];

/** The quote Enter or a click on the row picks: SOL, or USDC for SOL itself. */
export function defaultQuote(result: TTokenSearchResult): Quote {
  return result.symbol.trim().toUpperCase() === 'SOL' ? 'USDC' : 'SOL';
}

/** The pair a click on the row or Enter opens, as the trade page names it (and asks about it). */
export function defaultPairId(result: TTokenSearchResult): string {
  return getPairId(selectionFromToken(result, defaultQuote(result)));
}

function chainLabel(chainId: string): string {
  return chainId.charAt(0).toUpperCase() + chainId.slice(1);
}

function ResultRow({
  result,
  index,
  isActive,
  tradability,
  onPick,
  onHover,
}: {
  result: TTokenSearchResult;
  index: number;
  isActive: boolean;
  /** The server's answer for the row's default pair; absent while unknown or when the check failed. */
  tradability: TPairTradability | undefined;
  onPick: (result: TTokenSearchResult, quote: Quote) => void;
  onHover: (index: number) => void;
}) {
  const symbol = result.symbol.trim().toUpperCase();
  const isSolana = result.chain_id === 'solana';
  return (
    <li
      data-testid="search-result"
      data-symbol={symbol}
      data-active={isActive || undefined}
      aria-current={isActive || undefined}
      onMouseEnter={() => onHover(index)}
      className={cn(
        'grid cursor-pointer grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 border-b border-line/60 px-3 py-2.5 last:border-b-0',
        'sm:grid-cols-[auto_minmax(0,1fr)_auto_auto]',
        isActive ? 'bg-hover shadow-[inset_2px_0_0_var(--color-accent)]' : 'hover:bg-hover/60',
      )}
      onClick={() => onPick(result, defaultQuote(result))}
    >
      <TokenAvatar symbol={symbol} size={30} />
      <div className="min-w-0 leading-tight">
        <div className="flex min-w-0 items-center gap-1.5">
          <span className="truncate text-[13px] font-semibold text-fg">{symbol}</span>
          {isSolana && <SafetyBadge mint={mintOfToken(symbol, result.address)} />}
          {result.dex_id && (
            <span className="rounded bg-accent-soft px-1 py-px text-[10px] font-semibold tracking-wide text-accent uppercase">
              {result.dex_id}
            </span>
          )}
          {!isSolana && (
            <span className="rounded bg-warn-soft px-1 py-px text-[10px] font-semibold tracking-wide text-warn uppercase">
              {chainLabel(result.chain_id)}
            </span>
          )}
          {tradability?.tradable === false && (
            // Informs, does not block: picking still switches the chart. It may shorten rather than
            // wrap or widen the row, so it appears without moving anything at 390 px.
            <span
              data-testid="not-tradable"
              title={tradability.reason ?? undefined}
              className="min-w-0 truncate rounded bg-raised px-1 py-px text-[10px] font-medium text-muted"
            >
              Not tradable
              {tradability.reason && <span className="sr-only">: {tradability.reason}</span>}
            </span>
          )}
        </div>
        <div className="mt-0.5 flex min-w-0 items-center gap-1.5 text-[11px] text-muted">
          <span className="truncate">{result.name}</span>
          {result.address && (
            <>
              <span className="text-faint">·</span>
              <CopyAddress address={result.address} />
            </>
          )}
        </div>
      </div>
      <div className="num text-right leading-tight">
        <p className="text-[13px] font-medium text-fg">
          {formatUsdPrice(result.price ?? result.current_price)}
        </p>
        <p className="mt-0.5 text-[11px] text-faint">
          MC <span className="text-muted">{formatMarketCapMillions(result.market_cap)}</span>{' '}
          <ChangeText value={result.price_change_24h} className="ml-1" />
        </p>
      </div>
      <div
        className="col-span-3 flex items-center justify-end gap-1 sm:col-span-1"
        role="group"
        aria-label={`Trade ${symbol} against`}
      >
        {SEARCH_QUOTE_OPTIONS.map((quote) => {
          const isSelf = quote === symbol;
          return (
            <button
              key={quote}
              type="button"
              disabled={isSelf}
              onMouseDown={(event) => event.preventDefault()}
              onClick={(event) => {
                event.stopPropagation();
                onPick(result, quote);
              }}
              aria-label={`Trade ${symbol}/${quote}`}
              title={`Switch to ${symbol}/${quote}`}
              className={cn(
                'num h-6 min-w-11 rounded border px-1.5 text-[11px] font-semibold transition-colors',
                'border-line text-muted hover:border-accent/60 hover:bg-accent-soft hover:text-accent',
                'disabled:cursor-not-allowed disabled:opacity-30 disabled:hover:border-line disabled:hover:bg-transparent disabled:hover:text-muted',
              )}
            >
              {quote}
            </button>
          );
        })}
      </div>
    </li>
  );
}

function SkeletonRows() {
  return (
    <ul aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <li key={row} className="flex items-center gap-3 border-b border-line/60 px-3 py-3 last:border-b-0">
          <span className="size-[30px] animate-pulse rounded-full bg-raised" />
          <span className="flex-1 space-y-1.5">
            <span className="block h-3 w-20 animate-pulse rounded bg-raised" />
            <span className="block h-2.5 w-36 animate-pulse rounded bg-raised" />
          </span>
          <span className="h-3 w-16 animate-pulse rounded bg-raised" />
        </li>
      ))}
    </ul>
  );
}

/** The results under the search box: a header, then the error, skeleton rows, nothing found, or the list. */
export function SearchDropdown({
  id,
  isExpanded,
  search,
  query,
  activeIndex,
  tradability,
  onPick,
  onHover,
}: {
  id: string;
  isExpanded: boolean;
  search: ReturnType<typeof useTokenSearch>;
  query: string;
  activeIndex: number;
  tradability: ReadonlyMap<string, TPairTradability>;
  onPick: (result: TTokenSearchResult, quote: Quote) => void;
  onHover: (index: number) => void;
}) {
  const results = search.results;
  return (
    <div
      id={id}
      data-testid="search-dropdown"
      className={cn(
        'z-50 overflow-y-auto border-line bg-panel shadow-2xl shadow-black/50',
        'fixed inset-x-0 top-14 h-[calc(100dvh-3.5rem)] border-t',
        !isExpanded && 'max-sm:hidden',
        'sm:absolute sm:inset-x-auto sm:top-full sm:left-0 sm:mt-1.5 sm:h-auto sm:max-h-[min(560px,75vh)] sm:w-[min(640px,calc(100vw-2rem))] sm:rounded-panel sm:border',
      )}
    >
      <div className="sticky top-0 z-10 flex items-center justify-between border-b border-line bg-panel/95 px-3 py-1.5 text-[11px] text-faint backdrop-blur">
        <span>
          {search.status === 'loading' && results.length === 0
            ? `Searching “${query}”…`
            : search.status === 'success' || results.length > 0
              ? `${results.length} ${results.length === 1 ? 'token' : 'tokens'} for “${search.query || query}”`
              : `Search for “${query}”`}
        </span>
        <span className="hidden sm:inline">↑↓ move · Enter pick · Esc close</span>
      </div>

      {search.status === 'error' ? (
        <div className="flex items-start gap-2.5 px-4 py-5 text-[13px] text-down" role="alert">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <div>
            <p className="font-medium">{search.error}</p>
            <p className="mt-0.5 text-xs text-muted">Press Enter to try again.</p>
          </div>
        </div>
      ) : search.status === 'loading' && results.length === 0 ? (
        <SkeletonRows />
      ) : results.length === 0 ? (
        <div className="flex flex-col items-center px-6 py-8 text-center">
          <SearchX aria-hidden="true" className="mb-2 size-6 text-faint" />
          <p className="text-[13px] font-medium text-fg">{SEARCH_MESSAGES.noResults}</p>
          <p className="mt-0.5 text-xs text-muted">{SEARCH_MESSAGES.noResultsHint}</p>
        </div>
      ) : (
        <ul aria-label="Search results" className={cn(search.status === 'loading' && 'opacity-60')}>
          {results.map((result, index) => (
            <ResultRow
              key={`${result.chain_id}:${result.address || result.id}:${index}`}
              result={result}
              index={index}
              isActive={index === activeIndex}
              tradability={tradability.get(defaultPairId(result))}
              onPick={onPick}
              onHover={onHover}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
