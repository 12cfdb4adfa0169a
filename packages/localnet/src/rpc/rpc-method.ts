import type { LocalCluster } from '../local-cluster';
import type { AirdropAllowance, PublicRpcLimits, RpcCaller } from './public-limits';

/**
 * The agave RPC API level whose answer shapes this server reproduces (fields such as
 * `replacementBlockhash` and `loadedAddresses` in simulateTransaction). The runtime underneath is
 * LiteSVM 1.5.0.
 */
export const SOLANA_CORE_VERSION = '2.3.0';

/** Who asked, and the limits that apply to public callers (methods that limit read them). */
export interface RpcCall {
  readonly caller: RpcCaller;
  readonly limits: PublicRpcLimits;
  readonly airdrops: AirdropAllowance;
}

/** One JSON-RPC method: positional params in, result out; throws RpcError for error answers. */
export type RpcMethod = (params: readonly unknown[], cluster: LocalCluster, call: RpcCall) => unknown;

/**
 * Wraps a value in the `RpcResponse` envelope: `{ context: { apiVersion, slot }, value }`; `slot` is
 * the slot the value was read at (default: the current one).
 */
export function withContext(cluster: LocalCluster, value: unknown, slot = cluster.slot): object {
  return { context: { apiVersion: SOLANA_CORE_VERSION, slot }, value };
}
