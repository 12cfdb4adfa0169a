import type { BookOrder } from './order-book';

/**
 * An account's open orders, read as the set of their ids (oldest first, as the Set it replaces
 * iterated): an array of the orders, each knowing its place (`ownerSlot`), so resting, filling and
 * cancelling an order touch no other order's memory but the array's last one (moved into the gap)
 * — at 10,000 resting orders a neighbour in a linked queue was a cache miss. Reads sort by the
 * orders' `seq` (the order they rested in); the venue's commands read it rarely (cancel all, a
 * leverage change), and `has` scans it: they never ask it (a book lookup and the order's owner
 * answer that), only readers.
 */
export class OpenOrderIds implements ReadonlySet<number> {
  private readonly list: BookOrder[] = [];

  get size(): number {
    return this.list.length;
  }

  /** Adds an order that is in no account's orders. */
  push(order: BookOrder): void {
    order.ownerSlot = this.list.length;
    this.list.push(order);
  }

  /** Removes an order of these. */
  remove(order: BookOrder): void {
    const list = this.list;
    const last = list.pop()!;
    if (last !== order) {
      list[order.ownerSlot] = last;
      last.ownerSlot = order.ownerSlot;
    }
    order.ownerSlot = -1;
  }

  /** The open orders themselves, oldest first. */
  orders(): BookOrder[] {
    return this.oldestFirst();
  }

  has(id: number): boolean {
    for (const order of this.list) if (order.id === id) return true;
    return false;
  }

  *values(): SetIterator<number> {
    // A copy first: the caller may cancel orders as it goes (as it could while iterating a Set).
    yield* this.oldestFirst().map((order) => order.id);
  }

  private oldestFirst(): BookOrder[] {
    return this.list.slice().sort((a, b) => a.seq - b.seq);
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
