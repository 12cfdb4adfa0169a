import type { TransactionError } from '@solana/kit';

/**
 * The relay's own refusals. They are not API answers: each domain that sends through the relay maps
 * them to its own message (relayErrorTo), so the relay never speaks for trading, futures or bots.
 */
export const RELAY_ERROR_CODES = [
  /**
   * The transaction would fail (simulation): nothing was recorded or sent. `chainError` is the
   * simulation's error when the transaction was one a wallet signed.
   */
  'RELAY__SIMULATION_FAILED',
  /** The node could not be reached before anything was recorded or sent. */
  'RELAY__RPC_UNAVAILABLE',
  /** The same Idempotency-Key came with another request body. */
  'RELAY__IDEMPOTENCY_CONFLICT',
  /** The first request with this Idempotency-Key is still running. */
  'RELAY__IDEMPOTENCY_IN_PROGRESS',
  /** A ticket kind is not registered, or a payload does not fit its kind (a programming error). */
  'RELAY__KIND_UNKNOWN',
  /**
   * The transaction was handed to the node but its outcome is not known (an RPC error after the
   * send): the ticket stays sent and the reconcile job settles it; `signature` names it.
   */
  'RELAY__OUTCOME_UNKNOWN',
  /** The signed transaction does not decode (not canonical base64, or not a transaction). */
  'RELAY__TRANSACTION_INVALID',
  /** A signer other than the server's left its signature empty. */
  'RELAY__SIGNATURE_MISSING',
  /** A signature does not verify against the message. */
  'RELAY__SIGNATURE_INVALID',
  /** No ticket of this user was built with this message. */
  'RELAY__TRANSACTION_UNKNOWN',
  /** The executor has an open ticket, but this message is not it: the transaction was changed. */
  'RELAY__TRANSACTION_MODIFIED',
  /** The ticket's blockhash is past (or the chain no longer knows it): it can never land. */
  'RELAY__TRANSACTION_EXPIRED',
  /** The ticket was already sent (by this request's twin, or earlier). */
  'RELAY__ALREADY_EXECUTED',
  /** The transaction landed with an error (its effects reverted); `chainError` says which. */
  'RELAY__TRANSACTION_FAILED',
] as const;

export type RelayErrorCode = (typeof RELAY_ERROR_CODES)[number];

export class RelayError extends Error {
  constructor(
    readonly code: RelayErrorCode,
    message: string = code,
    /** The transaction's signature, when one was sent (RELAY__OUTCOME_UNKNOWN, _TRANSACTION_FAILED). */
    readonly signature?: string,
    /** The chain's error, for a simulation or landing that failed (each domain words it). */
    readonly chainError?: TransactionError,
  ) {
    super(message);
    this.name = 'RelayError';
  }
}

export function isRelayError(error: unknown): error is RelayError {
  return error instanceof RelayError;
}
