/**
 * Transaction methods: sendTransaction (with or without preflight), simulateTransaction, and the
 * signature log (getSignatureStatuses, getTransaction, getSignaturesForAddress).
 */
import { decodeBase58 } from '../base58';
import type { SignatureStatus } from '../local-cluster';
import { describeTransactionError, type TransactionErrorJson } from '../transaction-error';
import {
  MAX_TRANSACTION_BYTES,
  parseWireTransaction,
  WireFormatError,
  type WireTransaction,
} from '../wire-transaction';
import { encodeAccount, readAccountEncoding, type AccountEncoding } from './account-encoding';
import { assertHealthy } from './cluster-methods';
import {
  checkContext,
  readAddress,
  readArray,
  readConfig,
  readConfirmedCommitment,
  readInteger,
  readOptionalBoolean,
  readSignature,
  readString,
  requireParam,
  type Config,
} from './params';
import {
  invalidParams,
  JSON_RPC_INVALID_PARAMS,
  RpcError,
  RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
} from './rpc-error';
import {
  encodeTransactionWithMeta,
  readMaxSupportedTransactionVersion,
  readTransactionEncoding,
  toUiTokenBalances,
} from './transaction-encoding';
import { withContext, type RpcMethod } from './rpc-method';

const TRANSACTION_TYPE = 'solana_transaction::versioned::VersionedTransaction';
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;

interface DecodedTransaction {
  readonly bytes: Uint8Array;
  readonly base64: string | undefined;
  readonly transaction: WireTransaction;
}

function readWireEncoding(config: Config): 'base58' | 'base64' {
  const encoding = config.encoding ?? 'base58';
  if (encoding !== 'base58' && encoding !== 'base64') {
    throw invalidParams(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
  }
  return encoding;
}

function decodeTransaction(encoded: string, encoding: 'base58' | 'base64'): DecodedTransaction {
  let bytes: Uint8Array;
  if (encoding === 'base64') {
    if (encoded.length > MAX_BASE64_SIZE) {
      throw invalidParams(
        `base64 encoded ${TRANSACTION_TYPE} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${MAX_TRANSACTION_BYTES})`,
      );
    }
    if (!BASE64_PATTERN.test(encoded)) throw invalidParams('invalid base64 encoding: InvalidByte');
    bytes = Buffer.from(encoded, 'base64');
  } else {
    if (encoded.length > MAX_BASE58_SIZE) {
      throw invalidParams(
        `base58 encoded ${TRANSACTION_TYPE} too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${MAX_TRANSACTION_BYTES})`,
      );
    }
    const decoded = decodeBase58(encoded);
    if (decoded === undefined) throw invalidParams('invalid base58 encoding: InvalidCharacter');
    bytes = decoded;
  }
  if (bytes.length > MAX_TRANSACTION_BYTES) {
    throw invalidParams(
      `decoded ${TRANSACTION_TYPE} too large: ${bytes.length} bytes (max: ${MAX_TRANSACTION_BYTES} bytes)`,
    );
  }
  try {
    return {
      bytes,
      base64: encoding === 'base64' ? encoded : undefined,
      transaction: parseWireTransaction(bytes),
    };
  } catch (error) {
    if (!(error instanceof WireFormatError)) throw error;
    throw new RpcError(
      JSON_RPC_INVALID_PARAMS,
      error.kind === 'sanitize'
        ? `invalid transaction: ${error.message}`
        : `failed to deserialize ${TRANSACTION_TYPE}: ${error.message}`,
    );
  }
}

const sendTransaction: RpcMethod = (params, cluster) => {
  const encoded = readString(requireParam(params, 0, 'transaction'), 'transaction');
  const config = readConfig(params, 1);
  const skipPreflight = readOptionalBoolean(config, 'skipPreflight') === true;
  if (config.preflightCommitment !== undefined)
    checkContext({ commitment: config.preflightCommitment }, cluster);
  checkContext({ minContextSlot: config.minContextSlot }, cluster);
  assertHealthy(cluster);
  const decoded = decodeTransaction(encoded, readWireEncoding(config));
  const outcome = cluster.sendTransaction(decoded.transaction, { skipPreflight, base64: decoded.base64 });
  if (outcome.kind === 'committed' || skipPreflight) {
    // Without preflight a validator answers with the signature even for a transaction it then
    // drops (expired blockhash, replay, unpayable fee): clients find out from the status.
    return outcome.signature;
  }
  return throwPreflightFailure(outcome.err, outcome.logs, outcome.unitsConsumed);
};

function throwPreflightFailure(
  err: TransactionErrorJson,
  logs: readonly string[],
  unitsConsumed: bigint,
): never {
  if (err === 'SignatureFailure') {
    throw new RpcError(
      RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
      'Transaction signature verification failure',
    );
  }
  if (err === 'SanitizeFailure') {
    throw new RpcError(JSON_RPC_INVALID_PARAMS, `invalid transaction: ${describeTransactionError(err)}`);
  }
  throw new RpcError(
    RPC_SEND_TRANSACTION_PREFLIGHT_FAILURE,
    `Transaction simulation failed: ${describeTransactionError(err)}`,
    {
      accounts: null,
      err,
      innerInstructions: null,
      loadedAccountsDataSize: 0,
      logs,
      replacementBlockhash: null,
      returnData: null,
      unitsConsumed,
    },
  );
}

const simulateTransaction: RpcMethod = (params, cluster) => {
  const encoded = readString(requireParam(params, 0, 'transaction'), 'transaction');
  const config = readConfig(params, 1);
  checkContext(config, cluster);
  const sigVerify = readOptionalBoolean(config, 'sigVerify') === true;
  const replaceRecentBlockhash = readOptionalBoolean(config, 'replaceRecentBlockhash') === true;
  if (sigVerify && replaceRecentBlockhash) {
    throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
  }
  const withInnerInstructions = readOptionalBoolean(config, 'innerInstructions') === true;
  const accountsConfig = config.accounts as { addresses?: unknown; encoding?: unknown } | undefined | null;
  let accountAddresses: string[] | null = null;
  let accountEncoding: AccountEncoding = 'base64';
  if (accountsConfig !== undefined && accountsConfig !== null) {
    accountAddresses = readArray(accountsConfig.addresses, 'accounts.addresses', 100).map(readAddress);
    accountEncoding = readAccountEncoding({ encoding: accountsConfig.encoding }, 'base64');
    if (accountEncoding === 'binary' || accountEncoding === 'base58') {
      throw invalidParams('base58/binary encoding is not supported for simulateTransaction accounts');
    }
  }
  const decoded = decodeTransaction(encoded, readWireEncoding(config));
  const result = cluster.simulateTransaction(decoded.transaction, { sigVerify, replaceRecentBlockhash });
  if (sigVerify && result.err === 'SignatureFailure') {
    throw new RpcError(
      RPC_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
      'Transaction signature verification failure',
    );
  }
  return withContext(cluster, {
    accounts:
      accountAddresses === null
        ? null
        : accountAddresses.map((address) => {
            const account = result.getAccountAfter(address);
            return account === null ? null : encodeAccount(account, accountEncoding, undefined, cluster);
          }),
    err: result.err,
    fee: result.fee,
    innerInstructions: withInnerInstructions ? result.innerInstructions : null,
    loadedAccountsDataSize: 0,
    loadedAddresses: result.loadedAddresses,
    logs: result.logs,
    postBalances: result.postBalances,
    postTokenBalances: toUiTokenBalances(result.postTokenBalances),
    preBalances: result.preBalances,
    preTokenBalances: toUiTokenBalances(result.preTokenBalances),
    replacementBlockhash: result.replacementBlockhash,
    returnData:
      result.returnData === null
        ? null
        : { programId: result.returnData.programId, data: [result.returnData.data, 'base64'] },
    unitsConsumed: result.unitsConsumed,
  });
};

function toStatusObject(status: SignatureStatus): object {
  return {
    confirmationStatus: status.confirmationStatus,
    confirmations: status.confirmations,
    err: status.err,
    slot: status.slot,
    status: status.err === null ? { Ok: null } : { Err: status.err },
  };
}

const getSignatureStatuses: RpcMethod = (params, cluster) => {
  const signatures = readArray(
    requireParam(params, 0, 'signatures'),
    'signatures',
    MAX_SIGNATURE_STATUSES,
  ).map(readSignature);
  readConfig(params, 1);
  // The whole signature log is searched whether or not searchTransactionHistory is set.
  return withContext(
    cluster,
    signatures.map((signature) => {
      const status = cluster.getSignatureStatus(signature);
      return status === null ? null : toStatusObject(status);
    }),
  );
};

function meetsCommitment(status: SignatureStatus, commitment: 'confirmed' | 'finalized'): boolean {
  if (commitment === 'finalized') return status.confirmationStatus === 'finalized';
  return status.confirmationStatus !== 'processed';
}

const getTransaction: RpcMethod = (params, cluster) => {
  const signature = readSignature(requireParam(params, 0, 'signature'));
  const config = readConfig(params, 1);
  const commitment = readConfirmedCommitment(config, cluster);
  const encoding = readTransactionEncoding(config);
  const maxVersion = readMaxSupportedTransactionVersion(config);
  const status = cluster.getSignatureStatus(signature);
  const record = cluster.getTransactionRecord(signature);
  if (status === null || record === undefined || !meetsCommitment(status, commitment)) return null;
  return {
    blockTime: record.blockTime,
    slot: record.slot,
    ...encodeTransactionWithMeta(record, { encoding, maxVersion, details: 'full', rewards: true }),
  };
};

const getSignaturesForAddress: RpcMethod = (params, cluster) => {
  const address = readAddress(requireParam(params, 0, 'address'));
  const config = readConfig(params, 1);
  const commitment = readConfirmedCommitment(config, cluster);
  const limit =
    config.limit === undefined || config.limit === null
      ? MAX_SIGNATURES_FOR_ADDRESS
      : readInteger(config.limit, 'limit');
  if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS)
    throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
  const before =
    config.before === undefined || config.before === null ? undefined : readSignature(config.before);
  const until = config.until === undefined || config.until === null ? undefined : readSignature(config.until);
  const out: object[] = [];
  for (const record of cluster.getSignaturesForAddress(address, {
    before,
    until,
    limit: MAX_SIGNATURES_FOR_ADDRESS,
  })) {
    const status = cluster.getSignatureStatus(record.signature);
    if (status === null || !meetsCommitment(status, commitment)) continue;
    out.push({
      blockTime: record.blockTime,
      confirmationStatus: status.confirmationStatus,
      err: record.err,
      memo: null,
      signature: record.signature,
      slot: record.slot,
    });
    if (out.length >= limit) break;
  }
  return out;
};

export const TRANSACTION_METHODS: Readonly<Record<string, RpcMethod>> = {
  sendTransaction,
  simulateTransaction,
  getSignatureStatuses,
  getTransaction,
  getSignaturesForAddress,
};
