import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createStore, useStore } from './create-store';

describe('createStore', () => {
  it('replaces the value and tells its listeners, only when it changed', () => {
    const store = createStore({ count: 0 });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);

    store.set({ count: 1 });
    store.set((current) => ({ count: current.count + 1 }));
    expect(store.get()).toEqual({ count: 2 });
    expect(listener).toHaveBeenCalledTimes(2);

    // The same object again is no change.
    store.set((current) => current);
    store.set(store.get());
    expect(listener).toHaveBeenCalledTimes(2);

    unsubscribe();
    store.set({ count: 3 });
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('runs every listener of a change even when one unsubscribes another during it', () => {
    const store = createStore(0);
    const second = vi.fn();
    let unsubscribeSecond = () => {};
    store.subscribe(() => unsubscribeSecond());
    unsubscribeSecond = store.subscribe(second);

    store.set(1);
    expect(second).toHaveBeenCalledTimes(1);
    store.set(2);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('re-renders a component when the part it reads changes, and not for other parts', () => {
    const store = createStore({ pair: 'SOL/USDC', switches: 0 });
    let renders = 0;
    const selectPair = (value: { pair: string }) => value.pair;
    const { result } = renderHook(() => {
      renders += 1;
      return useStore(store, selectPair);
    });
    expect(result.current).toBe('SOL/USDC');
    const rendersBefore = renders;

    act(() => store.set((value) => ({ ...value, switches: value.switches + 1 })));
    expect(renders).toBe(rendersBefore);

    act(() => store.set((value) => ({ ...value, pair: 'BONK/SOL' })));
    expect(result.current).toBe('BONK/SOL');
  });
});
