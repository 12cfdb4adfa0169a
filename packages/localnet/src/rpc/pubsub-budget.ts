/**
 * What one client's PubSub subscriptions may cost the cluster per commit, in bytes of notifications.
 * Every account, program and logs subscription notifies on each matching commit, and the encoding of
 * an account is paid per (encoding, dataSlice): 256 subscriptions of a 1 MB account with distinct
 * slices made one 1-lamport transfer cost hundreds of MB of notifications and stalled the cluster.
 * So each such subscription is charged the largest notification it can cause, and a connection (and
 * a client across its connections) may hold subscriptions up to a budget of bytes per commit.
 */
import type { AccountEncoding, DataSlice } from './account-encoding';
import { MAX_BASE58_BYTES } from './account-encoding';

export interface PubSubBudget {
  /** Bytes of notifications one commit may cause on one connection. */
  readonly maxBytesPerConnection: number;
  /**
   * The same, across all the connections of one client (the app: its IP address). A transport that
   * names no client leaves only the per-connection budget.
   */
  readonly maxBytesPerClient: number;
}

/**
 * A connection may cost a commit what one public answer may be (2 MiB: a whole account of up to
 * ~1.5 MB in base64), and a client's connections (16 on the app) twice that. Every commit that
 * touches the account pays it again, and the chain's worker encodes and hands it over before it
 * answers anyone else, so it stays a few milliseconds of work.
 */
export const DEFAULT_PUBSUB_BUDGET: PubSubBudget = Object.freeze({
  maxBytesPerConnection: 2 * 1024 * 1024,
  maxBytesPerClient: 4 * 1024 * 1024,
});

/**
 * The JSON around an account's encoded data in an account or program notification: method,
 * context, lamports, owner, rent epoch, space, subscription id, program notifications' pubkey
 * (under 400 bytes at the largest values).
 */
export const NOTIFICATION_ENVELOPE_BYTES = 640;

/**
 * What a logs subscription is charged when made: a transaction's logs are cut at 10,000 bytes (the
 * runtime's log collector), plus the notification around them. A larger one re-charges it.
 */
export const LOGS_NOTIFICATION_BYTES = 12 * 1024;

/** Bytes of account data a notification carries: all of it, or its slice. */
export function slicedLength(dataLength: number, slice: DataSlice | undefined): number {
  if (slice === undefined) return dataLength;
  return Math.max(0, Math.min(slice.length, dataLength - slice.offset));
}

const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/**
 * An upper bound on the bytes of one account or program notification of an account holding
 * `dataLength` bytes, in `encoding` after `slice`. Charged by worst case, not by what the data
 * happens to compress or parse to: base64+zstd is charged at zstd's bound (the compression work
 * grows with the input either way), jsonParsed at three times the data plus 2 KiB (a token account,
 * a mint, a sysvar or a lookup table parses to at most that; anything else is base64).
 */
export function accountNotificationBytes(
  dataLength: number,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
): number {
  const bytes = slicedLength(dataLength, slice);
  let data: number;
  if (encoding === 'base64+zstd') data = base64Length(bytes + (bytes >> 7) + 128);
  else if (encoding === 'jsonParsed' && slice === undefined) data = 3 * bytes + 2048;
  // base58 of n bytes is at most n × log(256)/log(58) + 1 characters; past 128 bytes it goes as base64.
  else if ((encoding === 'base58' || encoding === 'binary') && bytes <= MAX_BASE58_BYTES)
    data = Math.ceil(bytes * 1.3658) + 1;
  else data = base64Length(bytes);
  return NOTIFICATION_ENVELOPE_BYTES + data;
}
