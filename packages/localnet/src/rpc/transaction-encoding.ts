/**
 * A committed transaction as getTransaction and getBlock answer it: the transaction in the asked
 * encoding (json, jsonParsed with parsed instructions, base58, base64) and its status meta, in the
 * shapes of Agave's `EncodedTransactionWithStatusMeta`.
 */
import { decodeBase58, encodeBase58 } from '../base58';
import type { StoredTokenBalance, TransactionRecord } from '../ledger';
import { toUiTokenAmount } from '../token-layout';
import { isStaticKeyWritable, parseWireTransaction, type WireTransaction } from '../wire-transaction';
import { parseInstruction } from './instruction-parsers';
import { readInteger, type Config } from './params';
import { invalidParams, RpcError, RPC_UNSUPPORTED_TRANSACTION_VERSION } from './rpc-error';

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base58' | 'base64';
/** `full` or `accounts` (getBlock's transactionDetails; the others carry no transaction). */
export type TransactionDetail = 'full' | 'accounts';

const ENCODINGS: readonly TransactionEncoding[] = ['json', 'jsonParsed', 'base58', 'base64'];

export interface EncodeOptions {
  readonly encoding: TransactionEncoding;
  /** The client's maxSupportedTransactionVersion (undefined: legacy only, no `version` field). */
  readonly maxVersion: number | undefined;
  readonly details: TransactionDetail;
  /** Whether the meta carries `rewards` (always empty: this cluster pays none). */
  readonly rewards: boolean;
}

export function readTransactionEncoding(config: Config): TransactionEncoding {
  const encoding = (config.encoding ?? 'json') as TransactionEncoding;
  if (!ENCODINGS.includes(encoding)) {
    throw invalidParams(
      `unknown variant \`${String(encoding)}\`, expected one of \`json\`, \`jsonParsed\`, \`base58\`, \`base64\``,
    );
  }
  return encoding;
}

export function readMaxSupportedTransactionVersion(config: Config): number | undefined {
  const value = config.maxSupportedTransactionVersion;
  return value === undefined || value === null
    ? undefined
    : readInteger(value, 'maxSupportedTransactionVersion');
}

export function toUiTokenBalances(balances: readonly StoredTokenBalance[] | null): object[] | null {
  if (balances === null) return null;
  return balances.map((balance) => ({
    accountIndex: balance.accountIndex,
    mint: balance.mint,
    owner: balance.owner,
    programId: balance.programId,
    uiTokenAmount: toUiTokenAmount(BigInt(balance.amount), balance.decimals),
  }));
}

/** `{ meta, transaction, version? }` of one committed transaction. */
export function encodeTransactionWithMeta(record: TransactionRecord, options: EncodeOptions): object {
  const transaction = parseWireTransaction(Buffer.from(record.transaction, 'base64'));
  if (transaction.version === 0 && (options.maxVersion === undefined || options.maxVersion < 0)) {
    throw new RpcError(
      RPC_UNSUPPORTED_TRANSACTION_VERSION,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  const version = options.maxVersion === undefined ? {} : { version: transaction.version };
  const allKeys = [
    ...transaction.staticAccountKeys.map((key) => encodeBase58(key)),
    ...record.loadedAddresses.writable,
    ...record.loadedAddresses.readonly,
  ];
  // What every detail level's meta carries; `full` adds logs, inner instructions and the rest.
  const outcome = {
    err: record.err,
    fee: BigInt(record.fee),
    postBalances: record.postBalances.map(BigInt),
    postTokenBalances: toUiTokenBalances(record.postTokenBalances),
    preBalances: record.preBalances.map(BigInt),
    preTokenBalances: toUiTokenBalances(record.preTokenBalances),
    ...(options.rewards ? { rewards: [] } : {}),
    status: record.err === null ? { Ok: null } : { Err: record.err },
  };
  if (options.details === 'accounts') {
    return {
      meta: outcome,
      transaction: {
        accountKeys: parsedAccountKeys(record, transaction, allKeys),
        signatures: transaction.signatures.map((signature) => encodeBase58(signature)),
      },
      ...version,
    };
  }
  const parsed = options.encoding === 'jsonParsed';
  const meta: Record<string, unknown> = {
    computeUnitsConsumed: record.computeUnitsConsumed,
    ...outcome,
    innerInstructions: encodeInnerInstructions(record, allKeys, parsed),
    logMessages: record.logs,
  };
  if (!parsed) meta.loadedAddresses = record.loadedAddresses;
  if (record.returnData !== null) {
    meta.returnData = { programId: record.returnData.programId, data: [record.returnData.data, 'base64'] };
  }
  return {
    meta,
    transaction: encodeTransactionBody(record, transaction, allKeys, options.encoding),
    ...version,
  };
}

function encodeTransactionBody(
  record: TransactionRecord,
  transaction: WireTransaction,
  allKeys: readonly string[],
  encoding: TransactionEncoding,
): unknown {
  if (encoding === 'base64') return [record.transaction, 'base64'];
  if (encoding === 'base58') return [encodeBase58(transaction.bytes), 'base58'];
  const signatures = transaction.signatures.map((signature) => encodeBase58(signature));
  const recentBlockhash = encodeBase58(
    transaction.bytes.subarray(transaction.blockhashOffset, transaction.blockhashOffset + 32),
  );
  const lookups =
    transaction.version === 0
      ? {
          addressTableLookups: transaction.addressTableLookups.map((lookup) => ({
            accountKey: encodeBase58(lookup.tableAddress),
            readonlyIndexes: Array.from(lookup.readonlyIndexes),
            writableIndexes: Array.from(lookup.writableIndexes),
          })),
        }
      : {};
  if (encoding === 'json') {
    return {
      message: {
        accountKeys: allKeys.slice(0, transaction.staticAccountKeys.length),
        header: transaction.header,
        instructions: transaction.instructions.map((instruction) => ({
          accounts: Array.from(instruction.accountIndexes),
          data: encodeBase58(instruction.data),
          programIdIndex: instruction.programIdIndex,
          stackHeight: null,
        })),
        recentBlockhash,
        ...lookups,
      },
      signatures,
    };
  }
  return {
    message: {
      accountKeys: parsedAccountKeys(record, transaction, allKeys),
      instructions: transaction.instructions.map((instruction) =>
        parseInstruction(
          allKeys[instruction.programIdIndex]!,
          Array.from(instruction.accountIndexes, (index) => allKeys[index]!),
          instruction.data,
          null,
        ),
      ),
      recentBlockhash,
      ...lookups,
    },
    signatures,
  };
}

/** jsonParsed account keys: each with its signer and writable flags and where it came from. */
function parsedAccountKeys(
  record: TransactionRecord,
  transaction: WireTransaction,
  allKeys: readonly string[],
): object[] {
  const staticCount = transaction.staticAccountKeys.length;
  const writableLoaded = record.loadedAddresses.writable.length;
  return allKeys.map((pubkey, index) => {
    if (index < staticCount) {
      return {
        pubkey,
        signer: index < transaction.header.numRequiredSignatures,
        source: 'transaction',
        writable: isStaticKeyWritable(transaction, index),
      };
    }
    return { pubkey, signer: false, source: 'lookupTable', writable: index < staticCount + writableLoaded };
  });
}

function encodeInnerInstructions(
  record: TransactionRecord,
  allKeys: readonly string[],
  parsed: boolean,
): object[] {
  if (!parsed) return record.innerInstructions as object[];
  return record.innerInstructions.map((group) => ({
    index: group.index,
    instructions: group.instructions.map((instruction) =>
      parseInstruction(
        allKeys[instruction.programIdIndex]!,
        instruction.accounts.map((index) => allKeys[index]!),
        decodeBase58(instruction.data) ?? new Uint8Array(0),
        instruction.stackHeight,
      ),
    ),
  }));
}
