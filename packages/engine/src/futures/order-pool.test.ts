import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BookOrder } from './order-book';
import { SOL, USDC, venue } from './perp-test-venue';

// The book reuses orders that left it (book-order.ts' OrderPool): an order anyone was handed —
// by a read of the book or of an account, or as a cancel's answer — must stay what it was.

const asks = (lots: number, at: number) => ({
  account: 'maker',
  market: SOL.symbol,
  side: 'sell' as const,
  type: 'limit' as const,
  size: BigInt(lots),
  price: USDC(100) + BigInt(at % 5) * SOL.tick,
  leverage: 10,
  at,
});

describe('OrderPool', () => {
  it('reuses an order nobody was handed, and never one that was', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 40 })), {
          minLength: 1,
          maxLength: 120,
        }),
        (steps) => {
          const exchange = venue();
          exchange.deposit('taker', USDC(1_000_000));
          const book = exchange.market(SOL.symbol).book;
          // Every order handed out, with what it said when it was.
          const held: [BookOrder, string][] = [];
          const hold = (order: unknown) => {
            if (order) held.push([order as BookOrder, fixed(order as BookOrder)]);
          };
          let at = 0;
          for (const [kind, lots] of steps) {
            at++;
            if (kind <= 1) {
              exchange.placeOrder(asks(lots, at));
            } else if (kind === 2 && book.size > 0) {
              exchange.placeOrder({ ...asks(lots, at), account: 'taker', side: 'buy', type: 'market' });
            } else if (kind === 3) {
              const ids = [...exchange.account('maker').orders];
              if (ids.length > 0) hold(exchange.cancelOrder('maker', ids[lots % ids.length]!));
            } else {
              if (lots % 2 === 0) hold(exchange.findOrder(exchange.nextOrderId - 1 - (lots % 7)));
              else hold(book.best('sell'));
            }
            // A handed-out order is still the order it was (only its remaining lots change), in the
            // book under its id or out of it for good.
            for (const [order, then] of held) {
              expect(fixed(order)).toBe(then);
              if (order.level !== undefined) expect(book.lookup(order.id)).toBe(order);
              else expect(order.remaining).toBe(0n);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers a cancel with an order that stays as it was while the book reuses the one it held', () => {
    const exchange = venue();
    exchange.deposit('taker', USDC(1_000_000));
    const book = exchange.market(SOL.symbol).book;
    const first = exchange.placeOrder(asks(10, 1)).orderId;
    const resting = book.lookup(first); // the venue's own read: nobody was handed it
    const cancelled = exchange.cancelOrder('maker', first) as BookOrder;
    const second = exchange.placeOrder(asks(20, 2)).orderId;
    expect(book.lookup(second)).toBe(resting); // reused
    expect(cancelled).not.toBe(resting);
    expect(cancelled.toJSON()).toEqual({
      id: first,
      market: SOL.symbol,
      account: 'maker',
      side: 'sell',
      price: USDC(100.01),
      size: 10n,
      remaining: 0n,
      reduceOnly: false,
      leverage: 10,
      createdAt: 1,
    });
    expect(exchange.findOrder(second)!.size).toBe(20n);
    // Handed out now: once filled it is not reused.
    const handed = exchange.findOrder(second)!;
    exchange.placeOrder({ ...asks(20, 3), account: 'taker', side: 'buy', type: 'market' });
    exchange.placeOrder(asks(30, 4));
    expect(handed.id).toBe(second);
    expect(handed.size).toBe(20n);
  });
});

const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);

/** What an order says that never changes while it is that order. */
function fixed(order: BookOrder): string {
  const { remaining: _, ...rest } = order.toJSON();
  return JSON.stringify(rest, bigints);
}
