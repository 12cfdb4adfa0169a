import { defineStateMachine } from './state-machine';

/**
 * A spot order as stored. A market order is recorded when its swap lands (Filled, or Failed when it
 * landed with an error); a limit order when its escrow lands (Pending). The keeper claims a pending
 * limit for a settlement (Settling:fill or Settling:cancel, with the settlement's signature stored
 * before it is sent), which ends Filled or Cancelled, or reverts to Pending when it can never land.
 */
export const ORDER_STATES = [
  'Pending',
  'Settling:fill',
  'Settling:cancel',
  'Filled',
  'Cancelled',
  'Failed',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export type OrderEvent = 'claimFill' | 'claimCancel' | 'revert' | 'fill' | 'cancel';
/** What a keeper settlement does: pay the fill, or refund the escrow. */
export type Settlement = 'fill' | 'cancel';

export const orderLifecycle = defineStateMachine<OrderState, OrderEvent>('spot order', {
  claimFill: { from: ['Pending'], to: 'Settling:fill' },
  claimCancel: { from: ['Pending'], to: 'Settling:cancel' },
  revert: { from: ['Settling:fill', 'Settling:cancel'], to: 'Pending' },
  fill: { from: ['Settling:fill'], to: 'Filled' },
  cancel: { from: ['Settling:cancel'], to: 'Cancelled' },
});

/** The state a claimed settlement puts an order in. */
export function settlingState(settlement: Settlement): OrderState {
  return settlement === 'fill' ? 'Settling:fill' : 'Settling:cancel';
}

/** The settlement an order is in the middle of, or null when it is not settling. */
export function settlementOf(state: OrderState): Settlement | null {
  return state === 'Settling:fill' ? 'fill' : state === 'Settling:cancel' ? 'cancel' : null;
}

/** The status the user sees: a settlement in progress is still pending to them. */
export function publicOrderStatus(state: OrderState): 'Pending' | 'Filled' | 'Cancelled' | 'Failed' {
  return settlementOf(state) === null ? (state as 'Pending' | 'Filled' | 'Cancelled' | 'Failed') : 'Pending';
}

/** Narrows a stored status to the lifecycle. @throws RangeError for a value no lifecycle writes. */
export function parseOrderState(value: string): OrderState {
  if (!(ORDER_STATES as readonly string[]).includes(value)) {
    throw new RangeError(`unknown spot order status '${value}'`);
  }
  return value as OrderState;
}
