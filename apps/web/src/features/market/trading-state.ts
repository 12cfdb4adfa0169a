import {
  DEFAULT_PAIR,
  getTokenByMint,
  getTokenBySymbol,
  isSolanaAddress,
  PAIR_SWITCH_SUPPRESSION_MS,
  parsePair,
  shortenAddress,
  TOAST_SUPPRESSION_MS,
  type TradingContext,
} from '@solterm/contracts';
import { createStore } from '../../lib/create-store';

/**
 * The selected pair of one page context (spec part 1 §2/§4: trading state is kept separately per
 * page — trade, dashboard, futures — and switching sets the pair, token address and names).
 */
export interface PairSelection {
  /** Display form, symbols: `BONK/SOL`. */
  pair: string;
  /** Base symbol (upper case), or the mint when the token has no known symbol. */
  base: string;
  /** Quote symbol (upper case). */
  quote: string;
  /** The base token's address (mint on Solana) when known. */
  baseAddress: string | null;
  /** The quote token's mint when known. */
  quoteAddress: string | null;
  /** The base token's name, as toasts and headers show it. */
  baseName: string;
  /** Chain of the base token: `solana`, or another chain for a search result elsewhere. */
  chainId: string;
}

const SOLANA = 'solana';

/** Names of the dashboard coins, nicer than the identity map's bridge names ("Wrapped BTC (Wormhole)"). */
const FRIENDLY_NAMES: Readonly<Record<string, string>> = { BTC: 'Bitcoin', ETH: 'Ethereum', SOL: 'Solana' };

function nameOf(symbol: string, mint: string | undefined): string {
  if (FRIENDLY_NAMES[symbol]) return FRIENDLY_NAMES[symbol];
  const known = getTokenBySymbol(symbol) ?? (mint ? getTokenByMint(mint) : undefined);
  if (known) return known.name;
  return isSolanaAddress(symbol) ? shortenAddress(symbol) : symbol;
}

/**
 * A selection from a pair text (`SOL/USDC`, `BONK/SOL`, `baseMint/quoteMint`), or `null` when the
 * text is not a pair. Known tokens get their mints and names from the identity map.
 *
 * @example selectionFromPair('btc/sol')?.baseName; // 'Bitcoin'
 */
export function selectionFromPair(text: string): PairSelection | null {
  const parsed = parsePair(text);
  if (!parsed || parsed.base === parsed.quote) return null;
  return {
    pair: `${parsed.base}/${parsed.quote}`,
    base: parsed.base,
    quote: parsed.quote,
    baseAddress: parsed.baseMint ?? null,
    quoteAddress: parsed.quoteMint ?? null,
    baseName: nameOf(parsed.base, parsed.baseMint),
    chainId: SOLANA,
  };
}

/** The token facts a search result or trending row gives. */
export interface TokenFacts {
  symbol: string;
  name: string;
  address: string | null;
  chain_id?: string | null;
}

/**
 * The selection for trading a token against a quote (search result + quote option, trending Buy).
 *
 * @example selectionFromToken({ symbol: 'bonk', name: 'Bonk', address: 'DezX…B263' }, 'SOL').pair; // 'BONK/SOL'
 */
export function selectionFromToken(token: TokenFacts, quote: string): PairSelection {
  const base = token.symbol.trim().toUpperCase();
  const quoteSymbol = quote.trim().toUpperCase();
  return {
    pair: `${base}/${quoteSymbol}`,
    base,
    quote: quoteSymbol,
    baseAddress: token.address?.trim() || (getTokenBySymbol(base)?.mint ?? null),
    quoteAddress: getTokenBySymbol(quoteSymbol)?.mint ?? null,
    baseName: token.name.trim() || base,
    chainId: token.chain_id?.trim().toLowerCase() || SOLANA,
  };
}

/**
 * How the API names the pair. Symbols (`BONK/SOL`), except for a Solana token whose address is not
 * the identity map's mint of its symbol: then its mint (`<mint>/SOL`), so the server prices the
 * token the user picked and not another with the same ticker.
 *
 * @example getPairId(selectionFromPair('SOL/USDC')!); // 'SOL/USDC'
 */
export function getPairId(selection: PairSelection): string {
  const { baseAddress, base, quote, chainId } = selection;
  const isOwnMint =
    chainId === SOLANA &&
    baseAddress !== null &&
    isSolanaAddress(baseAddress) &&
    getTokenBySymbol(base)?.mint !== baseAddress &&
    baseAddress !== base;
  return isOwnMint ? `${baseAddress}/${quote}` : `${base}/${quote}`;
}

/** The default selection of every context (spec part 1 §9: SOL/USDC). */
export const DEFAULT_SELECTION: PairSelection = selectionFromPair(DEFAULT_PAIR) as PairSelection;

const CONTEXTS: readonly TradingContext[] = ['trade', 'dashboard', 'futures'];
const STORAGE_KEY = 'solterm.trading_state';

type Selections = Record<TradingContext, PairSelection>;

function isSelection(value: unknown): value is PairSelection {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.pair === 'string' &&
    typeof record.base === 'string' &&
    typeof record.quote === 'string' &&
    typeof record.baseName === 'string' &&
    typeof record.chainId === 'string'
  );
}

export interface TradingStoreOptions {
  /** Default Date.now. */
  now?: () => number;
  /** Where selections survive a reload (default sessionStorage; null keeps them in memory). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/**
 * The per-context selections. Switch calls within 100 ms of the previous accepted one are ignored
 * (spec part 1 §4), and a switch toast within 100 ms of the previous one is suppressed.
 */
export function createTradingStore(options: TradingStoreOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const storage =
    options.storage === undefined
      ? typeof window === 'undefined'
        ? null
        : window.sessionStorage
      : options.storage;

  function load(): Selections {
    const selections: Selections = {
      trade: DEFAULT_SELECTION,
      dashboard: DEFAULT_SELECTION,
      futures: DEFAULT_SELECTION,
    };
    try {
      const stored = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null') as Record<string, unknown> | null;
      for (const context of CONTEXTS) {
        const value = stored?.[context];
        if (isSelection(value)) selections[context] = value;
      }
    } catch {
      // Unreadable storage: start from the defaults.
    }
    return selections;
  }

  const state = createStore({ selections: load(), switchCount: 0 });
  let lastSwitchAt = Number.NEGATIVE_INFINITY;
  let lastToastAt = Number.NEGATIVE_INFINITY;

  function commit(context: TradingContext, selection: PairSelection, isSwitch: boolean): void {
    const { selections, switchCount } = state.get();
    const next = { ...selections, [context]: selection };
    try {
      storage?.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage full or blocked: the selection still holds for this page's life.
    }
    state.set({ selections: next, switchCount: isSwitch ? switchCount + 1 : switchCount });
  }

  return {
    getSelection(context: TradingContext): PairSelection {
      return state.get().selections[context];
    },

    /** How many switches were accepted (the search clears its results when this moves). */
    getSwitchCount(): number {
      return state.get().switchCount;
    },

    subscribe: state.subscribe,

    /** Sets a context's pair without the switch rules (the `pair` query parameter). */
    setSelection(context: TradingContext, selection: PairSelection): void {
      const current = state.get().selections[context];
      if (current.pair === selection.pair && current.baseAddress === selection.baseAddress) return;
      commit(context, selection, false);
    },

    /**
     * Switches a context's pair. Returns false, changing nothing, when the previous accepted switch
     * was less than 100 ms ago.
     */
    switchPair(context: TradingContext, selection: PairSelection): boolean {
      const at = now();
      if (at - lastSwitchAt < PAIR_SWITCH_SUPPRESSION_MS) return false;
      lastSwitchAt = at;
      commit(context, selection, true);
      return true;
    },

    /** True when a switch toast may show now (none within the last 100 ms); records it. */
    claimToast(): boolean {
      const at = now();
      if (at - lastToastAt < TOAST_SUPPRESSION_MS) return false;
      lastToastAt = at;
      return true;
    },
  };
}

export type TradingStore = ReturnType<typeof createTradingStore>;

/** The app's trading state. */
export const tradingStore: TradingStore = createTradingStore();
