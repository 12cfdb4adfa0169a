/**
 * JSON-RPC errors with the codes and wording Solana validators use, so clients (kit's
 * `getSolanaErrorFromJsonRpcError`) map them to the same `SolanaError`s as against mainnet.
 */

export const JSON_RPC_PARSE_ERROR = -32700;
export const JSON_RPC_INVALID_REQUEST = -32600;
export const JSON_RPC_METHOD_NOT_FOUND = -32601;
export const JSON_RPC_INVALID_PARAMS = -32602;
export const JSON_RPC_INTERNAL_ERROR = -32603;
export const RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002;
export const RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003;
export const RPC_NODE_UNHEALTHY = -32005;
/** A scan a node refuses to run without a secondary index (public nodes: the token programs). */
export const RPC_KEY_EXCLUDED_FROM_SECONDARY_INDEX = -32010;
/** A scan aborted because its results outgrew the node's limit. */
export const RPC_SCAN_ERROR = -32012;
export const RPC_UNSUPPORTED_TRANSACTION_VERSION = -32015;
export const RPC_MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

/** An error answer; thrown by method handlers and turned into the response's `error`. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** -32602 with the validators' "Invalid params: …" prefix. */
export function invalidParams(detail: string): RpcError {
  return new RpcError(JSON_RPC_INVALID_PARAMS, `Invalid params: ${detail}`);
}

/**
 * -32602 with the text as Agave's own checks word it (`Error::invalid_params(text)`: no prefix,
 * unlike a param that fails to deserialize).
 */
export function agaveInvalidParams(text: string): RpcError {
  return new RpcError(JSON_RPC_INVALID_PARAMS, text);
}

/** -32602 as validators word a bad address or signature ("Invalid param: …"). */
export function invalidParam(detail: string): RpcError {
  return new RpcError(JSON_RPC_INVALID_PARAMS, `Invalid param: ${detail}`);
}
