import { TRANSPORT_MESSAGES } from './messages';

/** What the API client knows about a failed request. */
export interface HttpErrorInput {
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** The server's error text (`error` of the envelope, or the body of a non-JSON response). */
  readonly serverMessage?: string | null;
  /** The response's status text. */
  readonly statusText?: string | null;
  /** The request timed out or was aborted. */
  readonly isTimeout?: boolean;
  /** The request failed before any response (connection refused, DNS, offline…). */
  readonly isNetwork?: boolean;
}

/** How the client must react to a failed request. */
export type HttpErrorKind = 'timeout' | 'network' | 'auth_expired' | 'not_verified' | 'unauthorized' | 'http';

/** A failed request classified by the spec's transport rules. */
export interface ClassifiedHttpError {
  /** The text to show. */
  readonly message: string;
  /** `auth_expired`: clear the stored token and redirect to /auth. */
  readonly kind: HttpErrorKind;
}

/** Statuses the spec treats as a time-out. */
const TIMEOUT_STATUSES: readonly number[] = [408, 504];

/** A 401 whose message says the token is invalid or expired, or that the caller is not authenticated. */
function isExpiredAuthMessage(message: string): boolean {
  const lower = message.toLowerCase();
  return (
    (lower.includes('token') && (lower.includes('invalid') || lower.includes('expired'))) ||
    lower.includes('not authenticated')
  );
}

function isNotVerifiedMessage(message: string): boolean {
  return message.toLowerCase().includes('user account not verified');
}

/**
 * Classifies a failed API request by the spec's transport rules (part 1 §8, part 2 §8):
 * time-out, abort, 408 or 504 → time-out message; network failure → network message; 401 about an
 * invalid or expired token, or 'not authenticated' → `auth_expired` (the client clears the token
 * and redirects to /auth); 401 'User account not verified' → `not_verified`; any other 401 → the
 * server message or 'Invalid credentials'; any other failure → the server text or
 * `${status} ${statusText}`. A request without a status (no response) counts as a network failure.
 * The 'token' rule reads the spec's "401 about token, invalid, expired or not authenticated" as a
 * token that is invalid or expired, so a wrong password's 401 is not taken for an expired session.
 *
 * @example
 * classifyHttpError({ status: 401, serverMessage: 'Invalid or expired token' });
 * // { kind: 'auth_expired', message: 'Authentication expired. Please login again.' }
 * classifyHttpError({ status: 500, statusText: 'Internal Server Error' });
 * // { kind: 'http', message: '500 Internal Server Error' }
 */
export function classifyHttpError(input: HttpErrorInput): ClassifiedHttpError {
  const { status, isTimeout = false, isNetwork = false } = input;
  const serverMessage = input.serverMessage?.trim() || '';

  if (isTimeout || (status !== undefined && TIMEOUT_STATUSES.includes(status))) {
    return { kind: 'timeout', message: TRANSPORT_MESSAGES.timeout };
  }
  if (isNetwork || status === undefined || status === 0) {
    return { kind: 'network', message: TRANSPORT_MESSAGES.network };
  }
  if (status === 401) {
    if (isNotVerifiedMessage(serverMessage))
      return { kind: 'not_verified', message: TRANSPORT_MESSAGES.notVerified };
    if (isExpiredAuthMessage(serverMessage))
      return { kind: 'auth_expired', message: TRANSPORT_MESSAGES.authExpired };
    return { kind: 'unauthorized', message: serverMessage || TRANSPORT_MESSAGES.invalidCredentials };
  }
  const statusLine = `${status} ${input.statusText?.trim() ?? ''}`.trim();
  return { kind: 'http', message: serverMessage || statusLine };
}
