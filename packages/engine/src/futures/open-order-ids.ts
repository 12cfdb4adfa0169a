import type { BookOrder } from './order-book';

/**
 * An account's open orders, read as the set of their ids (oldest first, as the Set it replaces
 * iterated): a queue linked through the orders themselves (`ownerPrev`/`ownerNext`), so resting,
 * filling and cancelling an order touch two pointers instead of a hash set. `has` walks the queue:
 * the venue's commands never ask it (a book lookup and the order's owner answer that), only readers.
 */
export class OpenOrderIds implements ReadonlySet<number> {
  private first: BookOrder | undefined = undefined;
  private last: BookOrder | undefined = undefined;
  size = 0;

  /** Appends an order that is in no account's queue. */
  push(order: BookOrder): void {
    const last = this.last;
    order.ownerPrev = last;
    order.ownerNext = undefined;
    if (last === undefined) this.first = order;
    else last.ownerNext = order;
    this.last = order;
    this.size++;
  }

  /** Unlinks an order of this queue. */
  remove(order: BookOrder): void {
    const { ownerPrev: prev, ownerNext: next } = order;
    if (prev === undefined) this.first = next;
    else prev.ownerNext = next;
    if (next === undefined) this.last = prev;
    else next.ownerPrev = prev;
    order.ownerPrev = order.ownerNext = undefined;
    this.size--;
  }

  /** The open orders themselves, oldest first (handed out: see BookOrder's `handedOut`). */
  orders(): BookOrder[] {
    const out: BookOrder[] = [];
    for (let order = this.first; order !== undefined; order = order.ownerNext) {
      order.handedOut = true;
      out.push(order);
    }
    return out;
  }

  has(id: number): boolean {
    for (let order = this.first; order !== undefined; order = order.ownerNext)
      if (order.id === id) return true;
    return false;
  }

  *values(): SetIterator<number> {
    // A copy first: the caller may cancel orders as it goes (as it could while iterating a Set).
    const ids: number[] = [];
    for (let order = this.first; order !== undefined; order = order.ownerNext) ids.push(order.id);
    yield* ids;
  }

  keys(): SetIterator<number> {
    return this.values();
  }

  *entries(): SetIterator<[number, number]> {
    for (const id of this.values()) yield [id, id];
  }

  [Symbol.iterator](): SetIterator<number> {
    return this.values();
  }

  forEach(callback: (value: number, key: number, set: ReadonlySet<number>) => void, thisArg?: unknown): void {
    for (const id of this.values()) callback.call(thisArg, id, id, this);
  }

  /** As a Set of ids serialises: `{}`. */
  toJSON(): Record<string, never> {
    return {};
  }
}
