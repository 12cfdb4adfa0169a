import { useCallback, useSyncExternalStore } from 'react';

/** A small external store: one value, replaced (never mutated) and observed. */
export interface Store<T> {
  /** The current value (the same object until it is replaced). */
  get(): T;
  /** Replaces the value (or derives it from the current one); listeners run only when it changed. */
  set(next: T | ((current: T) => T)): void;
  /** Calls `listener` after every change. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

function isUpdater<T>(next: T | ((current: T) => T)): next is (current: T) => T {
  return typeof next === 'function';
}

/**
 * A store for state that lives outside React (shared by pages, or set from outside components),
 * read in components with {@link useStore}. `get` and `subscribe` are plain functions, so they can
 * be passed around unbound. Do not store a function value (an updater would be taken for it).
 *
 * @example
 * const counter = createStore(0);
 * counter.set((n) => n + 1);
 * const n = useStore(counter, (value) => value);
 */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const resolved = isUpdater(next) ? next(value) : next;
      if (Object.is(resolved, value)) return;
      value = resolved;
      // A copy: a listener that unsubscribes (or subscribes another) does not disturb this round.
      for (const listener of [...listeners]) {
        listener();
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * A part of a store's value, re-rendering when that part changes. `select` must return a part of
 * the value (or a primitive), not a new object each call, or React would re-render forever.
 */
export function useStore<T, S>(store: Store<T>, select: (value: T) => S): S {
  const getSnapshot = useCallback(() => select(store.get()), [store, select]);
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}
