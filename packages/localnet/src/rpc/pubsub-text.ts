/** The text of PubSub notifications, written by hand where the JSON is large (see `accountText`). */
import type { AccountView, LocalCluster } from '../local-cluster';
import { encodeAccount, MAX_BASE58_BYTES, readDataSlice, type AccountEncoding } from './account-encoding';
import { stringifyJson } from './json';
import type { Config } from './params';

/**
 * An account as a notification shows it, serialised (JSON text). A deleted account is the empty
 * system account a validator shows (a zstd frame of nothing, for base64+zstd). Data too long for
 * base58 — which getAccountInfo refuses — goes out as base64 rather than failing the commit.
 */
export function accountText(
  cluster: LocalCluster,
  account: AccountView | null,
  encoding: AccountEncoding,
  config: Config,
): string {
  const shown = account ?? {
    address: '',
    data: new Uint8Array(0),
    executable: false,
    lamports: 0n,
    owner: '11111111111111111111111111111111',
    rentEpoch: 0n,
  };
  const slice = readDataSlice(config);
  const length = slice === undefined ? shown.data.length : Math.min(slice.length, shown.data.length);
  const usable =
    (encoding === 'base58' || encoding === 'binary') && length > MAX_BASE58_BYTES ? 'base64' : encoding;
  const value = encodeAccount(shown, usable, slice, cluster) as {
    data: unknown;
    executable: boolean;
    lamports: bigint;
    owner: string;
    rentEpoch: bigint;
    space: bigint;
  };
  // Written by hand, in stringifyJson's order: base58 and base64 text needs no escaping, and a
  // megabyte of it is not scanned and copied once more for every slice of every commit.
  const { data } = value;
  const dataText =
    typeof data === 'string'
      ? `"${data}"`
      : Array.isArray(data) && typeof data[0] === 'string'
        ? `["${data[0]}","${String(data[1])}"]`
        : stringifyJson(data);
  return `{"data":${dataText},"executable":${value.executable},"lamports":${value.lamports},"owner":"${value.owner}","rentEpoch":${value.rentEpoch},"space":${value.space}}`;
}

/** A notification whose result is `{ context, value }`, the value already serialised. */
export const notificationText = (subscriptionId: number, method: string, context: string, value: string) =>
  `{"jsonrpc":"2.0","method":"${method}","params":{"result":{"context":${context},"value":${value}},"subscription":${subscriptionId}}}`;
