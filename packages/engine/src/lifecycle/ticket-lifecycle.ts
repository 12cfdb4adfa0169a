import { defineStateMachine } from './state-machine';

/**
 * A signed-transaction ticket: built (open), claimed for sending with its signed bytes stored first
 * (sending), then settled from the chain's verdict (landed | failed) or never landing before its
 * blockhash expired (expired). A send the node never took goes back to open (the wallet may sign again).
 */
export const TICKET_STATES = ['open', 'sending', 'landed', 'failed', 'expired'] as const;
export type TicketState = (typeof TICKET_STATES)[number];
export type TicketEvent = 'send' | 'reopen' | 'land' | 'fail' | 'expire';

export const ticketLifecycle = defineStateMachine<TicketState, TicketEvent>('ticket', {
  send: { from: ['open'], to: 'sending' },
  reopen: { from: ['sending'], to: 'open' },
  land: { from: ['sending'], to: 'landed' },
  fail: { from: ['sending'], to: 'failed' },
  expire: { from: ['open', 'sending'], to: 'expired' },
});
