import { useCallback, useEffect, useRef, useState } from 'react';
import {
  SEARCH_DEBOUNCE_MS,
  SEARCH_FALLBACK_THRESHOLD,
  SEARCH_MESSAGES,
  SEARCH_MIN_CHARS,
  SEARCH_RESULTS_SHOWN,
  type TTokenSearchResult,
} from '@solterm/contracts';
import { ApiError } from '../../../lib/api-client';
import { marketApi } from '../api/market-api';
import { toDecimal } from '../market-values';

export type SearchStatus = 'idle' | 'loading' | 'success' | 'error';

export interface TokenSearchState {
  /** What the user typed, untrimmed. */
  text: string;
  status: SearchStatus;
  /** At most 15, primary results first (largest market cap first), then fallback ones. */
  results: TTokenSearchResult[];
  /** 'Search failed: <message>' when status is error. */
  error: string | null;
  /** The trimmed query the results belong to. */
  query: string;
}

export interface SearchSources {
  searchPrimary(query: string, signal: AbortSignal): Promise<TTokenSearchResult[]>;
  searchFallback(query: string, signal: AbortSignal): Promise<TTokenSearchResult[]>;
}

const defaultSources: SearchSources = {
  searchPrimary: (query, signal) => marketApi.searchPrimary(query, signal),
  searchFallback: (query, signal) => marketApi.searchFallback(query, signal),
};

const PREFIX = SEARCH_MESSAGES.failed('');

/**
 * The reason to show after 'Search failed: ': the server's error text as it is (a failed search
 * answers 502 MARKET__SEARCH_FAILED with only the reason, e.g. 'DexScreener did not answer within
 * 10 s'), or the client's own message for a time-out or a network failure.
 */
function reasonOf(error: unknown): string {
  if (error instanceof ApiError) {
    return error.kind === 'http' || error.kind === 'unauthorized'
      ? (error.serverMessage ?? error.message)
      : error.message;
  }
  return error instanceof Error ? error.message : 'unexpected error';
}

/** Entries with a symbol, largest market cap first (spec part 1 §9), without duplicates. */
function usable(results: readonly TTokenSearchResult[] | null | undefined): TTokenSearchResult[] {
  if (!Array.isArray(results)) return [];
  return results
    .filter((result) => typeof result?.symbol === 'string' && result.symbol.trim() !== '')
    .map((result, index) => ({ result, index, cap: toDecimal(result.market_cap) }))
    .sort((a, b) => {
      if (a.cap && b.cap && !a.cap.eq(b.cap)) return b.cap.gt(a.cap) ? 1 : -1;
      if (a.cap && !b.cap) return -1;
      if (!a.cap && b.cap) return 1;
      return a.index - b.index;
    })
    .map(({ result }) => result);
}

function keyOf(result: TTokenSearchResult): string {
  return `${result.chain_id}:${result.address || result.id || result.symbol}`.toLowerCase();
}

/**
 * Runs one search (spec part 1 §4, §7): the primary source; when it gives fewer than 3 results
 * (or fails), the fallback source; primary results first, at most 15. Throws 'Search failed: …'
 * when no source answered.
 */
export async function searchTokens(
  sources: SearchSources,
  query: string,
  signal: AbortSignal,
): Promise<TTokenSearchResult[]> {
  let primary: TTokenSearchResult[] = [];
  let primaryError: unknown = null;
  try {
    primary = usable(await sources.searchPrimary(query, signal));
  } catch (error) {
    if (signal.aborted) throw error;
    primaryError = error;
  }
  if (primary.length >= SEARCH_FALLBACK_THRESHOLD) return primary.slice(0, SEARCH_RESULTS_SHOWN);

  let fallback: TTokenSearchResult[] = [];
  try {
    fallback = usable(await sources.searchFallback(query, signal));
  } catch (error) {
    if (signal.aborted) throw error;
    // The fallback failing leaves what the primary found; with neither, the primary's failure shows.
    if (primaryError) throw new Error(SEARCH_MESSAGES.failed(reasonOf(primaryError)));
  }
  if (primaryError && fallback.length === 0) throw new Error(SEARCH_MESSAGES.failed(reasonOf(primaryError)));

  const seen = new Set(primary.map(keyOf));
  const merged = [...primary];
  for (const result of fallback) {
    if (seen.has(keyOf(result))) continue;
    seen.add(keyOf(result));
    merged.push(result);
  }
  return merged.slice(0, SEARCH_RESULTS_SHOWN);
}

const INITIAL: TokenSearchState = { text: '', status: 'idle', results: [], error: null, query: '' };

/**
 * The top-bar search (spec part 1 §4): typing searches after 300 ms of quiet; under 2 characters
 * (after trimming) clears the results; `searchNow` (Enter) searches at once; empty text is
 * ignored. A newer search cancels an older one, so results never arrive out of order.
 */
export function useTokenSearch(sources: SearchSources = defaultSources) {
  const [state, setState] = useState<TokenSearchState>(INITIAL);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const controller = useRef<AbortController | null>(null);
  const sourcesRef = useRef(sources);
  useEffect(() => {
    sourcesRef.current = sources;
  });

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    controller.current?.abort();
    controller.current = null;
  }, []);

  useEffect(() => cancel, [cancel]);

  const run = useCallback(
    (query: string) => {
      cancel();
      const current = new AbortController();
      controller.current = current;
      setState((previous) => ({ ...previous, status: 'loading', error: null, query }));
      searchTokens(sourcesRef.current, query, current.signal).then(
        (results) => {
          if (controller.current !== current) return;
          controller.current = null;
          setState((previous) => ({ ...previous, status: 'success', results, error: null, query }));
        },
        (error: unknown) => {
          if (controller.current !== current) return;
          controller.current = null;
          const message = error instanceof Error ? error.message : SEARCH_MESSAGES.failed(reasonOf(error));
          setState((previous) => ({
            ...previous,
            status: 'error',
            results: [],
            error: message.startsWith(PREFIX) ? message : SEARCH_MESSAGES.failed(message),
            query,
          }));
        },
      );
    },
    [cancel],
  );

  /** The input changed: debounce, or clear under 2 characters. */
  const setText = useCallback(
    (text: string) => {
      const query = text.trim();
      if (query.length < SEARCH_MIN_CHARS) {
        cancel();
        setState({ ...INITIAL, text });
        return;
      }
      setState((previous) => ({ ...previous, text }));
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        run(query);
      }, SEARCH_DEBOUNCE_MS);
    },
    [cancel, run],
  );

  /** Enter: search now (no debounce). Empty or too-short text is ignored. */
  const searchNow = useCallback(() => {
    const query = state.text.trim();
    if (query.length < SEARCH_MIN_CHARS) return;
    run(query);
  }, [run, state.text]);

  /** Clears text and results (after a pair switch). */
  const reset = useCallback(() => {
    cancel();
    setState(INITIAL);
  }, [cancel]);

  return { ...state, setText, searchNow, reset };
}
