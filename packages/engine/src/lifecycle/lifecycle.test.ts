import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TICKET_STATES } from './index';
import {
  IllegalTransitionError,
  ORDER_STATES,
  orderLifecycle,
  parseOrderState,
  publicOrderStatus,
  settlementOf,
  settlingState,
  ticketLifecycle,
  type OrderEvent,
  type TicketEvent,
} from './index';

const orderEvents: OrderEvent[] = ['claimFill', 'claimCancel', 'revert', 'fill', 'cancel'];
const ticketEvents: TicketEvent[] = ['send', 'reopen', 'land', 'fail', 'expire'];

describe('order lifecycle', () => {
  it('settles a pending limit through a claim, and reverts a claim that can never land', () => {
    expect(orderLifecycle.next('Pending', 'claimFill')).toBe('Settling:fill');
    expect(orderLifecycle.next('Settling:fill', 'fill')).toBe('Filled');
    expect(orderLifecycle.next('Pending', 'claimCancel')).toBe('Settling:cancel');
    expect(orderLifecycle.next('Settling:cancel', 'cancel')).toBe('Cancelled');
    expect(orderLifecycle.next('Settling:cancel', 'revert')).toBe('Pending');
  });

  it('refuses to settle an order twice or to fill a cancel claim', () => {
    expect(() => orderLifecycle.next('Filled', 'claimFill')).toThrow(IllegalTransitionError);
    expect(() => orderLifecycle.next('Settling:cancel', 'fill')).toThrow(/not allowed/);
    expect(orderLifecycle.can('Cancelled', 'revert')).toBe(false);
  });

  it('never leaves a final state, whatever the events', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...orderEvents), { maxLength: 30 }), (events) => {
        let state = parseOrderState('Pending');
        let finished = false;
        for (const event of events) {
          if (!orderLifecycle.can(state, event)) continue;
          expect(finished).toBe(false);
          state = orderLifecycle.next(state, event);
          finished = state === 'Filled' || state === 'Cancelled';
        }
      }),
    );
  });

  it('shows a settling order as pending and names its settlement', () => {
    expect(publicOrderStatus('Settling:fill')).toBe('Pending');
    expect(publicOrderStatus('Failed')).toBe('Failed');
    expect(settlementOf(settlingState('cancel'))).toBe('cancel');
    expect(settlementOf('Pending')).toBeNull();
    expect(() => parseOrderState('Settling')).toThrow(RangeError);
    for (const state of ORDER_STATES) expect(parseOrderState(state)).toBe(state);
  });
});

describe('ticket lifecycle', () => {
  it('sends an open ticket once, and settles only a sent one', () => {
    expect(ticketLifecycle.next('open', 'send')).toBe('sending');
    expect(ticketLifecycle.sources('land')).toEqual(['sending']);
    expect(() => ticketLifecycle.next('landed', 'send')).toThrow(IllegalTransitionError);
    expect(() => ticketLifecycle.next('open', 'land')).toThrow(IllegalTransitionError);
  });

  it('reaches landed, failed or expired at most once along any path', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ticketEvents), { maxLength: 30 }), (events) => {
        let state: (typeof TICKET_STATES)[number] = 'open';
        let settled = 0;
        for (const event of events) {
          if (!ticketLifecycle.can(state, event)) continue;
          state = ticketLifecycle.next(state, event);
          if (state === 'landed' || state === 'failed' || state === 'expired') settled++;
        }
        expect(settled).toBeLessThanOrEqual(1);
      }),
    );
  });
});
