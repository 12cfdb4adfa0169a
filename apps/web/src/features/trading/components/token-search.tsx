import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Loader2, Search, X } from 'lucide-react';
import { SEARCH_MESSAGES, SEARCH_MIN_CHARS, type TTokenSearchResult } from '@solterm/contracts';
import { cn } from '../../../lib/cn';
import {
  type SearchSources,
  selectionFromToken,
  usePairSwitchCount,
  useSwitchPair,
  useTokenSearch,
} from '../../market';
import { useTradability } from '../use-tradability';
import { defaultPairId, defaultQuote, SearchDropdown, type Quote } from './token-search-dropdown';

/** Pages that show the selected pair; picking a token elsewhere opens /trade. */
const PAGES_WITH_CHART = ['/dashboard', '/trade', '/future'];

/** What a screen reader hears as the search runs. */
function describeSearchStatus(status: string, error: string | null | undefined, count: number): string {
  return status === 'loading'
    ? 'Searching'
    : status === 'error'
      ? (error ?? '')
      : status === 'success'
        ? count === 0
          ? SEARCH_MESSAGES.noResults
          : `${count} results`
        : '';
}

/** A spinner while searching, Clear once there is text, else the Enter hint. */
function SearchInputEnd({
  isLoading,
  hasText,
  onClear,
}: {
  isLoading: boolean;
  hasText: boolean;
  onClear: () => void;
}) {
  return (
    <span className="absolute inset-y-0 right-2 flex items-center">
      {isLoading ? (
        <Loader2 aria-hidden="true" className="size-4 animate-spin text-muted" />
      ) : hasText ? (
        <button
          type="button"
          aria-label="Clear search"
          onMouseDown={(event) => event.preventDefault()}
          onClick={onClear}
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
  );
}

/** The phone's search icon, which expands the search over the top bar. */
function ExpandSearchButton({ isHidden, onClick }: { isHidden: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label="Search tokens"
      className={cn('rounded-md p-2 text-muted hover:bg-hover hover:text-fg sm:hidden', isHidden && 'hidden')}
    >
      <Search className="size-[18px]" />
    </button>
  );
}

/** Closes the expanded search on a phone. */
function CancelSearchButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="shrink-0 px-1 text-[13px] font-medium text-muted hover:text-fg sm:hidden"
    >
      Cancel
    </button>
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

  const announcement = describeSearchStatus(search.status, search.error, results.length);

  return (
    <div ref={rootRef} className="relative flex min-w-0 flex-1 justify-end sm:justify-start">
      <ExpandSearchButton isHidden={isExpanded} onClick={expand} />

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
          <SearchInputEnd
            isLoading={search.status === 'loading'}
            hasText={search.text !== ''}
            onClear={() => {
              reset();
              inputRef.current?.focus();
            }}
          />
        </div>
        {isExpanded && <CancelSearchButton onClick={close} />}
      </div>

      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      {isDropdownVisible && (
        <SearchDropdown
          id={listId}
          isExpanded={isExpanded}
          search={search}
          query={query}
          activeIndex={activeIndex}
          tradability={tradability.byPair}
          onPick={pick}
          onHover={setActiveIndex}
        />
      )}
    </div>
  );
}
