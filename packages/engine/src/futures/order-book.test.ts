import { describe, expect, it } from 'vitest';
import { OrderBook } from './order-book';

const order = (book: OrderBook, id: number) =>
  book.newOrder(id, 'SOL-PERP', 'alice', 'buy', 100_000_000n, 100_000_000, 10n, 10, false, 10, 0);

describe('OrderBook reuse', () => {
  it('reuses an order that left the book and its owner’s orders, once, and never one still linked', () => {
    const book = new OrderBook();
    const first = order(book, 1);
    book.add(first);
    book.recycle(first); // still resting: not kept
    expect(order(book, 2)).not.toBe(first);
    book.remove(first);
    first.ownerSlot = 3; // still in its owner's orders: not kept
    book.recycle(first);
    expect(order(book, 3)).not.toBe(first);
    first.ownerSlot = -1;
    book.recycle(first);
    book.recycle(first); // kept once, however often it is offered
    const reused = order(book, 4);
    expect(reused).toBe(first);
    expect(reused).toMatchObject({ id: 4, rem: 10, ownerSlot: -1, level: undefined });
    expect(order(book, 5)).not.toBe(first);
  });
});
