import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AlertCircle, Loader2, Search, SearchX, X } from 'lucide-react';
import {
  formatMarketCapMillions,
  formatUsdPrice,
  SEARCH_MESSAGES,
  SEARCH_MIN_CHARS,
  SEARCH_QUOTE_OPTIONS,
  type TPairTradability,
  type TTokenSearchResult,
} from '@solterm/contracts';
import { cn } from '../../../lib/cn';
import {
  ChangeText,
  CopyAddress,
  getPairId,
  type SearchSources,
  selectionFromToken,
  TokenAvatar,
  usePairSwitchCount,
  useSwitchPair,
  useTokenSearch,
} from '../../market';
import { useTradability } from '../use-tradability';

type Quote = (typeof SEARCH_QUOTE_OPTIONS)[number];

/** Pages that show the selected pair; picking a token elsewhere opens /trade. */
const PAGES_WITH_CHART = ['/dashboard', '/trade', '/future'];

/** The quote Enter or a click on the row picks: SOL, or USDC for SOL itself. */
function defaultQuote(result: TTokenSearchResult): Quote {
  return result.symbol.trim().toUpperCase() === 'SOL' ? 'USDC' : 'SOL';
}

/** The pair a click on the row or Enter opens, as the trade page names it (and asks about it). */
function defaultPairId(result: TTokenSearchResult): string {
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

/**
 * The top-bar token search (spec part 1 §2/§4): 300 ms debounce, at least 2 characters, Enter
 * searches at once, up to 15 results with symbol, DEX tag, non-Solana chain tag, name, copyable
 * shortened address, market cap in millions and price, and quote options SOL, USDC, USDT that switch
 * the pair. Arrow keys move through the results, Enter picks, Escape closes; a click outside closes.
 * On a phone it is an icon that expands over the top bar.
 */
export function TokenSearch({ sources }: { sources?: SearchSources }) {
  const search = useTokenSearch(sources);
  const { reset } = search;
  const switchPair = useSwitchPair();
  const switchCount = usePairSwitchCount();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [isOpen, setIsOpen] = useState(false);
  const [isExpanded, setIsExpanded] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();

  const query = search.text.trim();
  const hasQuery = query.length >= SEARCH_MIN_CHARS;
  const isDropdownVisible = isOpen && hasQuery && search.status !== 'idle';
  const results = search.results;
  // One tradability request per results page, for the pair each result opens; a failed check marks
  // nothing, so it never hides a tradable token.
  const tradability = useTradability(results.map(defaultPairId));

  // Any accepted pair switch (here, a coin card, a Buy button) clears the search (spec part 1 §4).
  const seenSwitchCount = useRef(switchCount);
  useEffect(() => {
    if (seenSwitchCount.current === switchCount) return;
    seenSwitchCount.current = switchCount;
    reset();
  }, [switchCount, reset]);

  // A click outside closes the dropdown (and the phone overlay).
  useEffect(() => {
    if (!isOpen && !isExpanded) return;
    function onPointerDown(event: PointerEvent) {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) {
        setIsOpen(false);
        setIsExpanded(false);
        setActiveIndex(-1);
      }
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen, isExpanded]);

  function close() {
    setIsOpen(false);
    setIsExpanded(false);
    setActiveIndex(-1);
    inputRef.current?.blur();
  }

  function pick(result: TTokenSearchResult, quote: Quote) {
    const selection = selectionFromToken(result, quote);
    if (selection.base === selection.quote) return;
    if (!switchPair(selection)) return;
    reset();
    close();
    if (!PAGES_WITH_CHART.some((page) => pathname.startsWith(page))) void navigate('/trade');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
        if (results.length === 0) return;
        event.preventDefault();
        setIsOpen(true);
        setActiveIndex((index) => (index + 1) % results.length);
        return;
      case 'ArrowUp':
        if (results.length === 0) return;
        event.preventDefault();
        setIsOpen(true);
        setActiveIndex((index) => (index <= 0 ? results.length - 1 : index - 1));
        return;
      case 'Enter': {
        event.preventDefault();
        const active = isDropdownVisible ? results[activeIndex] : undefined;
        if (active) {
          pick(active, defaultQuote(active));
          return;
        }
        setIsOpen(true);
        setActiveIndex(-1);
        search.searchNow();
        return;
      }
      case 'Escape':
        event.preventDefault();
        if (isOpen && hasQuery) {
          setIsOpen(false);
          setActiveIndex(-1);
        } else close();
        return;
      default:
        return;
    }
  }

  function expand() {
    setIsExpanded(true);
    // The input renders on this commit; focus it right after.
    requestAnimationFrame(() => inputRef.current?.focus());
  }

  const announcement =
    search.status === 'loading'
      ? 'Searching'
      : search.status === 'error'
        ? (search.error ?? '')
        : search.status === 'success'
          ? results.length === 0
            ? SEARCH_MESSAGES.noResults
            : `${results.length} results`
          : '';

  return (
    <div ref={rootRef} className="relative flex min-w-0 flex-1 justify-end sm:justify-start">
      <button
        type="button"
        onClick={expand}
        aria-label="Search tokens"
        className={cn(
          'rounded-md p-2 text-muted hover:bg-hover hover:text-fg sm:hidden',
          isExpanded && 'hidden',
        )}
      >
        <Search className="size-[18px]" />
      </button>

      <div
        className={cn(
          'w-full sm:relative sm:block sm:max-w-md',
          isExpanded
            ? 'fixed inset-x-0 top-0 z-50 flex h-14 items-center gap-2 border-b border-line bg-canvas px-3 sm:static sm:h-auto sm:border-0 sm:bg-transparent sm:px-0'
            : 'hidden',
        )}
      >
        <div className="relative min-w-0 flex-1">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-faint"
          />
          <input
            ref={inputRef}
            type="search"
            role="combobox"
            aria-label="Search tokens"
            aria-expanded={isDropdownVisible}
            aria-controls={listId}
            aria-autocomplete="list"
            autoComplete="off"
            spellCheck={false}
            placeholder={SEARCH_MESSAGES.placeholder}
            value={search.text}
            onChange={(event) => {
              search.setText(event.target.value);
              setIsOpen(true);
              setActiveIndex(-1);
            }}
            onFocus={() => setIsOpen(true)}
            onKeyDown={onKeyDown}
            className={cn(
              'h-9 w-full rounded-md border border-line bg-panel pr-9 pl-9 text-[13px] text-fg placeholder:text-faint',
              'transition-colors hover:border-line-strong focus:border-accent focus:bg-canvas focus:outline-none',
              '[&::-webkit-search-cancel-button]:hidden',
            )}
          />
          <span className="absolute inset-y-0 right-2 flex items-center">
            {search.status === 'loading' ? (
              <Loader2 aria-hidden="true" className="size-4 animate-spin text-muted" />
            ) : search.text ? (
              <button
                type="button"
                aria-label="Clear search"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => {
                  reset();
                  inputRef.current?.focus();
                }}
                className="rounded p-0.5 text-faint hover:bg-hover hover:text-fg"
              >
                <X className="size-3.5" />
              </button>
            ) : (
              <kbd className="hidden rounded border border-line px-1 font-sans text-[10px] text-faint lg:inline">
                Enter
              </kbd>
            )}
          </span>
        </div>
        {isExpanded && (
          <button
            type="button"
            onClick={close}
            className="shrink-0 px-1 text-[13px] font-medium text-muted hover:text-fg sm:hidden"
          >
            Cancel
          </button>
        )}
      </div>

      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      {isDropdownVisible && (
        <div
          id={listId}
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
                  tradability={tradability.byPair.get(defaultPairId(result))}
                  onPick={pick}
                  onHover={setActiveIndex}
                />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
