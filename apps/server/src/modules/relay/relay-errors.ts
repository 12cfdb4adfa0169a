/**
 * The relay's own refusals. They are not API answers: each domain that sends through the relay maps
 * them to its own message (relayErrorTo), so the relay never speaks for trading, futures or bots.
 */
export const RELAY_ERROR_CODES = [
  /** The transaction would fail (simulation): nothing was recorded or sent. */
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
] as const;

export type RelayErrorCode = (typeof RELAY_ERROR_CODES)[number];

export class RelayError extends Error {
  constructor(
    readonly code: RelayErrorCode,
    message: string = code,
    /** The transaction's signature, when one was sent (RELAY__OUTCOME_UNKNOWN). */
    readonly signature?: string,
  ) {
    super(message);
    this.name = 'RelayError';
  }
}

export function isRelayError(error: unknown): error is RelayError {
  return error instanceof RelayError;
}
