/**
 * JSON-RPC 2.0 over any transport: single and batch requests, the Solana method set of
 * cluster-methods, account-methods and transaction-methods, and the standard error envelope.
 */
import type { LocalCluster } from '../local-cluster';
import { ACCOUNT_METHODS, responseTooLarge } from './account-methods';
import { BLOCK_METHODS } from './block-methods';
import { CLUSTER_METHODS } from './cluster-methods';
import { NODE_METHODS } from './node-methods';
import { parseJsonRequest, stringifyJson } from './json';
import {
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_PARAMS,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_PARSE_ERROR,
  RpcError,
} from './rpc-error';
import {
  AirdropAllowance,
  INTERNAL_CALLER,
  resolvePublicRpcLimits,
  type PublicRpcLimitOverrides,
  type RpcCaller,
} from './public-limits';
import type { RpcCall, RpcMethod } from './rpc-method';
import { TRANSACTION_METHODS } from './transaction-methods';

export type JsonRpcId = string | number | null;

export interface JsonRpcSuccess {
  readonly jsonrpc: '2.0';
  readonly result: unknown;
  readonly id: JsonRpcId;
}

export interface JsonRpcFailure {
  readonly jsonrpc: '2.0';
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly id: JsonRpcId;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

export type { RpcCaller } from './public-limits';

/**
 * Answers JSON-RPC requests against one cluster. `caller` says who asks: a public client (limited
 * by the handler's {@link PublicRpcLimits}) or, by default, the server itself.
 */
export interface JsonRpcHandler {
  /**
   * Handles a parsed request body (an object, or an array for a batch). Results may hold bigint
   * (u64 values) and `JsonFloat`: serialise them with `stringifyJson`, not `JSON.stringify`.
   * A string or bytes body is parsed first (answering -32700 when it is not JSON).
   */
  handleJsonRpc(body: unknown, caller?: RpcCaller): Promise<JsonRpcResponse | JsonRpcResponse[]>;
  /** Handles a raw request body and returns the serialised response: the whole transport job. */
  handleJsonRpcText(body: string | Uint8Array, caller?: RpcCaller): Promise<string>;
}

export interface JsonRpcHandlerOptions {
  readonly log?: (message: string) => void;
  /** Limits of public callers (defaults: {@link DEFAULT_PUBLIC_RPC_LIMITS}); the reserve binds all. */
  readonly limits?: PublicRpcLimitOverrides;
  /** Wall clock in milliseconds for the airdrop windows (default Date.now). */
  readonly now?: () => number;
  /** A file keeping public airdrop grants across restarts (default: memory only). */
  readonly airdropStatePath?: string;
}

/** Every method this server answers, by name. */
export const RPC_METHODS: Readonly<Record<string, RpcMethod>> = {
  ...CLUSTER_METHODS,
  ...NODE_METHODS,
  ...ACCOUNT_METHODS,
  ...TRANSACTION_METHODS,
  ...BLOCK_METHODS,
};

function failure(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcFailure {
  return data === undefined
    ? { jsonrpc: '2.0', error: { code, message }, id }
    : { jsonrpc: '2.0', error: { code, message, data }, id };
}

function readId(request: Record<string, unknown>): JsonRpcId {
  const id = request.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Creates the JSON-RPC handler of a cluster.
 *
 * @example
 * const rpc = createJsonRpcHandler(cluster);
 * const text = await rpc.handleJsonRpcText('{"jsonrpc":"2.0","id":1,"method":"getSlot"}');
 */
export function createJsonRpcHandler(
  cluster: LocalCluster,
  options: JsonRpcHandlerOptions = {},
): JsonRpcHandler {
  const limits = resolvePublicRpcLimits(options.limits);
  const airdrops = new AirdropAllowance(limits.airdrop, options.now ?? Date.now, options.airdropStatePath);
  const internalCall: RpcCall = { caller: INTERNAL_CALLER, limits, airdrops };
  const callOf = (caller: RpcCaller): RpcCall =>
    caller.kind === 'internal' ? internalCall : { caller, limits, airdrops };

  /** Answers one request; synchronous methods (all but requestAirdrop) answer without a promise. */
  function handleOne(request: unknown, call: RpcCall): JsonRpcResponse | Promise<JsonRpcResponse> {
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return failure(null, JSON_RPC_INVALID_REQUEST, 'Invalid request');
    }
    const fields = request as Record<string, unknown>;
    const id = readId(fields);
    if (fields.jsonrpc !== '2.0' || typeof fields.method !== 'string') {
      return failure(id, JSON_RPC_INVALID_REQUEST, 'Invalid request');
    }
    const method = Object.hasOwn(RPC_METHODS, fields.method) ? RPC_METHODS[fields.method] : undefined;
    if (method === undefined) return failure(id, JSON_RPC_METHOD_NOT_FOUND, 'Method not found');
    const params = fields.params ?? [];
    if (!Array.isArray(params)) {
      return failure(id, JSON_RPC_INVALID_PARAMS, 'Invalid params: invalid type: map, expected a sequence');
    }
    const onError = (error: unknown): JsonRpcFailure => {
      if (error instanceof RpcError) return failure(id, error.code, error.message, error.data);
      options.log?.(
        `localnet rpc: ${String(fields.method)} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return failure(id, JSON_RPC_INTERNAL_ERROR, 'Internal error');
    };
    try {
      const result = method(params, cluster, call);
      if (result instanceof Promise) {
        return result.then(
          (value: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', result: value, id }),
          onError,
        );
      }
      return { jsonrpc: '2.0', result, id };
    } catch (error) {
      return onError(error);
    }
  }

  function handle(
    body: unknown,
    call: RpcCall,
  ): JsonRpcResponse | JsonRpcResponse[] | Promise<JsonRpcResponse | JsonRpcResponse[]> {
    let request = body;
    if (typeof body === 'string' || body instanceof Uint8Array) {
      try {
        const text =
          typeof body === 'string'
            ? body
            : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
        request = parseJsonRequest(text);
      } catch {
        return failure(null, JSON_RPC_PARSE_ERROR, 'Parse error');
      }
    }
    if (Array.isArray(request)) {
      if (request.length === 0) return failure(null, JSON_RPC_INVALID_REQUEST, 'Invalid request');
      if (call.caller.kind === 'public' && request.length > limits.maxBatchSize) {
        return failure(
          null,
          JSON_RPC_INVALID_REQUEST,
          `Invalid request: a batch may hold at most ${limits.maxBatchSize} requests (got ${request.length})`,
        );
      }
      return handleBatch(request, call);
    }
    return handleOne(request, call);
  }

  /** Serialised answers of a public batch, kept so the cap is not paid for twice. */
  const serialised = new WeakMap<JsonRpcResponse, string>();

  async function handleBatch(requests: readonly unknown[], call: RpcCall): Promise<JsonRpcResponse[]> {
    const responses: JsonRpcResponse[] = [];
    const cap = call.caller.kind === 'public' ? limits.maxResponseBytes : Number.POSITIVE_INFINITY;
    let total = 0;
    let exhausted = false;
    // One at a time: the cluster is single-threaded and batch order is observable.
    for (const item of requests) {
      if (exhausted) {
        // An earlier answer did not fit: the rest are refused without being run, so a batch of
        // expensive requests costs the cluster one of them, not a hundred.
        const id = typeof item === 'object' && item !== null ? readId(item as Record<string, unknown>) : null;
        const error = responseTooLarge(total, cap);
        responses.push(failure(id, error.code, error.message));
        continue;
      }
      const response = await handleOne(item, call);
      if (cap !== Number.POSITIVE_INFINITY) {
        const text = stringifyJson(response);
        serialised.set(response, text);
        if (total + text.length > cap) exhausted = true;
        else total += text.length;
      }
      responses.push(response);
    }
    return responses;
  }

  /**
   * Serialises a public answer within the size cap: each answer (of a batch, in order) that would
   * take the total past the cap is replaced by the scan error, so the whole stays bounded.
   */
  function stringifyCapped(answer: JsonRpcResponse | JsonRpcResponse[]): string {
    const cap = limits.maxResponseBytes;
    let total = 0;
    const capped = (response: JsonRpcResponse): string => {
      const text = serialised.get(response) ?? stringifyJson(response);
      // UTF-16 length bounds the UTF-8 size closely enough here: answers are almost all ASCII.
      if (total + text.length <= cap) {
        total += text.length;
        return text;
      }
      const error = responseTooLarge(total + text.length, cap);
      const refused = stringifyJson(failure(response.id, error.code, error.message));
      total += refused.length;
      return refused;
    };
    return Array.isArray(answer) ? `[${answer.map(capped).join(',')}]` : capped(answer);
  }

  return {
    handleJsonRpc: async (body, caller = INTERNAL_CALLER) => handle(body, callOf(caller)),
    handleJsonRpcText: (body, caller = INTERNAL_CALLER) => {
      const answer = handle(body, callOf(caller));
      const serialise = caller.kind === 'public' ? stringifyCapped : stringifyJson;
      return answer instanceof Promise ? answer.then(serialise) : Promise.resolve(serialise(answer));
    },
  };
}
