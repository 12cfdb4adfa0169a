import { describe, expect, it } from 'vitest';
import type { BookOrder } from './order-book';
import { LevelIndex, OrderIndex } from './order-index';

// The book's open-addressing tables against a Map, on random adds and deletes: sequential ids
// (as the venue hands them out), ids past 2^32, and prices past 2^32 on the tick, so probe runs
// wrap around the table and deletions shift entries back across the wrap.

function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('OrderIndex', () => {
  it('answers as a Map by id through adds, deletes and growth', () => {
    for (const base of [1, 2 ** 32 - 500, 2 ** 45]) {
      const random = lcg(base % 1_000_003);
      const index = new OrderIndex();
      const reference = new Map<number, BookOrder>();
      const live: BookOrder[] = [];
      let next = base;
      for (let step = 0; step < 12_000; step++) {
        if (live.length > 0 && random() < (live.length > 2_000 ? 0.6 : 0.4)) {
          // Mostly a recent order, sometimes one resting for long.
          const recent = live.length - 1 - Math.floor(random() * 20);
          const at = random() < 0.7 ? Math.max(0, recent) : Math.floor(random() * live.length);
          const order = live[at]!;
          live.splice(at, 1);
          index.delete(order);
          reference.delete(order.id);
        } else {
          const order = { id: next } as BookOrder;
          next += random() < 0.9 ? 1 : 1 + Math.floor(random() * 5_000);
          index.add(order);
          reference.set(order.id, order);
          live.push(order);
        }
        if (step % 251 === 0 || step === 11_999) {
          expect(index.size).toBe(reference.size);
          for (const [id, order] of reference) if (index.get(id) !== order) expect(index.get(id)).toBe(order);
          expect(index.get(next + 1)).toBeUndefined();
          expect(index.values().length).toBe(reference.size);
        }
      }
    }
  });
});

describe('OrderIndex, dense', () => {
  it('finds every order while runs wrap around the end of a small, half-full table', () => {
    const random = lcg(11);
    const index = new OrderIndex();
    const live: BookOrder[] = [];
    for (let step = 0; step < 20_000; step++) {
      // 24–31 orders in 64 slots: long runs, some across the table's end.
      if (live.length >= 31 || (live.length > 24 && random() < 0.5)) {
        const order = live.splice(Math.floor(random() * live.length), 1)[0]!;
        index.delete(order);
      } else {
        const order = { id: 1 + Math.floor(random() * 2 ** 40) } as BookOrder;
        if (index.get(order.id) !== undefined) continue;
        index.add(order);
        live.push(order);
      }
      for (const order of live) if (index.get(order.id) !== order) expect(index.get(order.id)).toBe(order);
    }
    expect(index.size).toBe(live.length);
  });
});

describe('LevelIndex', () => {
  it('answers as a Map by price through adds, deletes and growth', () => {
    const random = lcg(7);
    const index = new LevelIndex<{ key: number }>();
    const reference = new Map<number, { key: number }>();
    const tick = 1_000_000;
    const base = 6_000_000_000_000;
    for (let step = 0; step < 20_000; step++) {
      const key = base + Math.floor(random() * 5_000) * tick;
      const held = reference.get(key);
      if (held) {
        index.delete(held);
        reference.delete(key);
      } else {
        const level = { key };
        index.add(level);
        reference.set(key, level);
      }
      if (step % 251 === 0) {
        expect(index.size).toBe(reference.size);
        for (const [price, level] of reference)
          if (index.get(price) !== level) expect(index.get(price)).toBe(level);
        expect(index.get(base - tick)).toBeUndefined();
      }
    }
  });
});
