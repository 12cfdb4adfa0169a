import { useSyncExternalStore } from 'react';

/**
 * A prefilled order the trade page's Place Order form reads (part 2 §2: the Trending Tokens Buy
 * button switches to TOKEN/SOL and prefills the form). The form arrives with on-chain trading; the
 * intent is kept here until then, and shown.
 */
export interface OrderIntent {
  side: 'buy' | 'sell';
  /** `BONK/SOL`. */
  pair: string;
  base: string;
  quote: string;
  baseName: string;
  baseAddress: string | null;
  /** Where it came from, e.g. 'Trending Tokens'. */
  origin: string;
  createdAt: number;
}

let current: OrderIntent | null = null;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of [...listeners]) listener();
}

export const orderIntentStore = {
  get: (): OrderIntent | null => current,
  /** Records a prefilled order (stamped now), or clears it with null. */
  set(intent: Omit<OrderIntent, 'createdAt'> | null): void {
    current = intent ? { ...intent, createdAt: Date.now() } : null;
    emit();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

/** The current prefilled order, or null. */
export function useOrderIntent(): OrderIntent | null {
  return useSyncExternalStore(orderIntentStore.subscribe, orderIntentStore.get, orderIntentStore.get);
}
