/**
 * Transaction methods: sendTransaction (with or without preflight), simulateTransaction, and the
 * signature log (getSignatureStatuses, getTransaction, getSignaturesForAddress).
 */
import type { SignatureStatus } from '../local-cluster';
import { describeTransactionError, type TransactionErrorJson } from '../transaction-error';
import { parseWireTransaction, WireFormatError, type WireTransaction } from '../wire-transaction';
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
  agaveInvalidParams,
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
import { decodeWirePayload, TRANSACTION_TYPE } from './wire-decode';

const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;

interface DecodedTransaction {
  readonly bytes: Uint8Array;
  readonly base64: string | undefined;
  readonly transaction: WireTransaction;
}

function readWireEncoding(config: Config): 'base58' | 'base64' {
  const encoding = config.encoding ?? 'base58';
  if (encoding !== 'base58' && encoding !== 'base64') {
    throw agaveInvalidParams(
      `unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`,
    );
  }
  return encoding;
}

function decodeTransaction(encoded: string, encoding: 'base58' | 'base64'): DecodedTransaction {
  const bytes = decodeWirePayload(encoded, encoding, TRANSACTION_TYPE);
  try {
    return {
      bytes,
      base64: encoding === 'base64' ? encoded : undefined,
      transaction: parseWireTransaction(bytes),
    };
  } catch (error) {
    if (!(error instanceof WireFormatError)) throw error;
    throw agaveInvalidParams(
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
    throw agaveInvalidParams('sigVerify may not be used with replaceRecentBlockhash');
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
      const status = cluster.getReportedSignatureStatus(signature);
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
    throw agaveInvalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
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
