/**
 * Account and token methods: balances, account infos, program accounts and the SPL Token queries.
 */
import { decodeBase58, decodeBase58Exact, encodeBase58 } from '../base58';
import type { AccountView, LocalCluster } from '../local-cluster';
import {
  decodeMint,
  isMintData,
  isTokenAccountData,
  isTokenProgram,
  readTokenAmount,
  toUiTokenAmount,
} from '../token-layout';
import { encodeAccount, readAccountEncoding, readDataSlice, type AccountEncoding } from './account-encoding';
import {
  checkContext,
  readAddress,
  readArray,
  readConfig,
  readOptionalBoolean,
  requireParam,
  type Config,
} from './params';
import {
  invalidParam,
  invalidParams,
  RPC_KEY_EXCLUDED_FROM_SECONDARY_INDEX,
  RPC_SCAN_ERROR,
  RpcError,
} from './rpc-error';
import { withContext, type RpcCall, type RpcMethod } from './rpc-method';

const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_LARGEST_ACCOUNTS = 20;

const getBalance: RpcMethod = (params, cluster) => {
  const address = readAddress(requireParam(params, 0, 'pubkey'));
  checkContext(readConfig(params, 1), cluster);
  return withContext(cluster, cluster.getBalance(address));
};

function encodeOrNull(cluster: LocalCluster, account: AccountView | null, config: Config): object | null {
  if (account === null) return null;
  return encodeAccount(account, readAccountEncoding(config), readDataSlice(config), cluster);
}

/** Reads accounts for a public caller only when their encoding can fit the answer cap. */
function readAccountsWithin(
  addresses: readonly string[],
  config: Config,
  cluster: LocalCluster,
  call: RpcCall,
) {
  const accounts = addresses.map((address) => cluster.getAccount(address));
  if (call.caller.kind === 'public') {
    assertScanFits(
      accounts,
      readDataSlice(config),
      call.limits.maxResponseBytes,
      readAccountEncoding(config),
    );
  }
  return accounts.map((account) => encodeOrNull(cluster, account, config));
}

const getAccountInfo: RpcMethod = (params, cluster, call) => {
  const address = readAddress(requireParam(params, 0, 'pubkey'));
  const config = readConfig(params, 1);
  checkContext(config, cluster);
  return withContext(cluster, readAccountsWithin([address], config, cluster, call)[0]);
};

const getMultipleAccounts: RpcMethod = (params, cluster, call) => {
  const addresses = readArray(requireParam(params, 0, 'pubkeys'), 'pubkeys', MAX_MULTIPLE_ACCOUNTS).map(
    readAddress,
  );
  const given = readConfig(params, 1);
  // Agave's getMultipleAccounts defaults to base64 (getAccountInfo to binary, the bare base58 string).
  const config =
    given.encoding === undefined || given.encoding === null ? { ...given, encoding: 'base64' } : given;
  checkContext(config, cluster);
  return withContext(cluster, readAccountsWithin(addresses, config, cluster, call));
};

export type AccountFilter = ((account: AccountView) => boolean) & {
  /** A memcmp filter's offset and byte count (absent for dataSize). */
  readonly memcmp?: { readonly offset: number; readonly length: number };
  /** A dataSize filter's size (absent for memcmp). */
  readonly dataSize?: number;
};

export function readProgramAccountFilters(config: Config): AccountFilter[] {
  const value = config.filters;
  if (value === undefined || value === null) return [];
  return readArray(value, 'filters', 4).map((filter): AccountFilter => {
    const entry = filter as {
      dataSize?: unknown;
      memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown };
    };
    if (typeof entry.dataSize === 'number') {
      const size = entry.dataSize;
      return Object.assign((account: AccountView) => account.data.length === size, { dataSize: size });
    }
    const memcmp = entry.memcmp;
    if (memcmp !== undefined && typeof memcmp.offset === 'number' && typeof memcmp.bytes === 'string') {
      const offset = memcmp.offset;
      const bytes =
        memcmp.encoding === 'base64'
          ? new Uint8Array(Buffer.from(memcmp.bytes, 'base64'))
          : decodeBase58OrThrow(memcmp.bytes);
      const matches = (account: AccountView): boolean => {
        if (account.data.length < offset + bytes.length) return false;
        for (let index = 0; index < bytes.length; index += 1) {
          if (account.data[offset + index] !== bytes[index]) return false;
        }
        return true;
      };
      return Object.assign(matches, { memcmp: { offset, length: bytes.length } });
    }
    throw invalidParams('unsupported filter: expected { dataSize } or { memcmp: { offset, bytes } }');
  });
}

function decodeBase58OrThrow(text: string): Uint8Array {
  const bytes = text.length <= 175 ? decodeBase58(text) : undefined;
  if (bytes === undefined) throw invalidParams('invalid memcmp bytes: not base58 (at most 128 bytes)');
  return bytes;
}

/** Offsets of a token account's mint and owner: a memcmp there narrows a scan to one of them. */
const TOKEN_ACCOUNT_KEY_OFFSETS = [0, 32];
/** A generous bound on the JSON around one account of a scan's answer (keys, owner, lamports…). */
const SCAN_ENTRY_OVERHEAD_BYTES = 256;

/**
 * Public nodes keep no unfiltered index of the token programs: a public scan must name the mint
 * or the owner of the token accounts it wants, as providers require.
 */
function assertNarrowTokenScan(programId: string, filters: readonly AccountFilter[]): void {
  const narrowed = filters.some(
    (filter) =>
      filter.memcmp !== undefined &&
      TOKEN_ACCOUNT_KEY_OFFSETS.includes(filter.memcmp.offset) &&
      filter.memcmp.length >= 32,
  );
  if (!narrowed) {
    throw new RpcError(
      RPC_KEY_EXCLUDED_FROM_SECONDARY_INDEX,
      `${programId} excluded from account secondary indexes; this RPC method unavailable for key ` +
        'without a memcmp filter on the mint (offset 0) or the owner (offset 32) of a token account',
    );
  }
}

/** Refuses a public scan whose data alone would outgrow the answer cap, before encoding it. */
function assertScanFits(
  accounts: readonly (AccountView | null)[],
  slice: { length: number } | undefined,
  cap: number,
  encoding: AccountEncoding,
): void {
  let estimate = 0;
  for (const account of accounts) {
    if (account === null) continue;
    const length = slice === undefined ? account.data.length : Math.min(slice.length, account.data.length);
    // Compressed data may be far smaller than base64: allow it four times the cap of raw bytes,
    // which bounds the compression work all the same.
    const encoded = encoding === 'base64+zstd' ? Math.ceil(length / 4) : Math.ceil((length * 4) / 3);
    estimate += encoded + SCAN_ENTRY_OVERHEAD_BYTES;
    if (estimate > cap) throw responseTooLarge(estimate, cap);
  }
}

/** The scan error of an answer over the public cap. */
export function responseTooLarge(bytes: number, cap: number): RpcError {
  return new RpcError(
    RPC_SCAN_ERROR,
    `response too large: ${bytes} bytes exceed this node's limit of ${cap} bytes; narrow the request ` +
      '(filters, dataSlice, fewer keys)',
  );
}

const getProgramAccounts: RpcMethod = (params, cluster, call) => {
  const programId = readAddress(requireParam(params, 0, 'program id'));
  const config = readConfig(params, 1);
  checkContext(config, cluster);
  const encoding = readAccountEncoding(config);
  const slice = readDataSlice(config);
  const filters = readProgramAccountFilters(config);
  const isPublic = call.caller.kind === 'public';
  if (isPublic && !call.limits.unfilteredTokenScans && isTokenProgram(programId)) {
    assertNarrowTokenScan(programId, filters);
  }
  const matched = cluster
    .getProgramAccounts(programId)
    .filter((account) => filters.every((filter) => filter(account)));
  if (isPublic) assertScanFits(matched, slice, call.limits.maxResponseBytes, encoding);
  const accounts = matched.map((account) => ({
    pubkey: account.address,
    account: encodeAccount(account, encoding, slice, cluster),
  }));
  return readOptionalBoolean(config, 'withContext') === true ? withContext(cluster, accounts) : accounts;
};

/** Token accounts of one token program, optionally narrowed to a mint and an owner. */
function findTokenAccounts(
  cluster: LocalCluster,
  programId: string,
  where: { mint?: string; owner?: string; delegate?: string },
): AccountView[] {
  const mintBytes = where.mint === undefined ? undefined : decodeBase58Exact(where.mint, 32);
  const ownerBytes = where.owner === undefined ? undefined : decodeBase58Exact(where.owner, 32);
  const delegateBytes = where.delegate === undefined ? undefined : decodeBase58Exact(where.delegate, 32);
  // Every account here is owned by `programId`.
  return cluster.getProgramAccountsWhere(programId, (data) => {
    if (!isTokenAccountData(programId, data)) return false;
    if (mintBytes !== undefined && !bytesEqual(data, 0, mintBytes)) return false;
    if (ownerBytes !== undefined && !bytesEqual(data, 32, ownerBytes)) return false;
    // The delegate is a COption<Pubkey>: a 4-byte tag (1 = some) at 72, the key at 76.
    if (delegateBytes !== undefined && (data[72] !== 1 || !bytesEqual(data, 76, delegateBytes))) {
      return false;
    }
    return true;
  });
}

function bytesEqual(data: Uint8Array, offset: number, expected: Uint8Array): boolean {
  for (let index = 0; index < expected.length; index += 1) {
    if (data[offset + index] !== expected[index]) return false;
  }
  return true;
}

function requireMint(cluster: LocalCluster, mint: string): AccountView {
  const account = cluster.getAccount(mint);
  if (account === null || !isMintData(account.owner, account.data)) throw invalidParam('could not find mint');
  return account;
}

/** getTokenAccountsByOwner and getTokenAccountsByDelegate: token accounts whose `by` is the address. */
const tokenAccountsBy =
  (by: 'owner' | 'delegate'): RpcMethod =>
  (params, cluster) => {
    const key = readAddress(requireParam(params, 0, by));
    const filter = requireParam(params, 1, 'filter') as { mint?: unknown; programId?: unknown } | null;
    const config = readConfig(params, 2);
    checkContext(config, cluster);
    const encoding: AccountEncoding = readAccountEncoding(config);
    const slice = readDataSlice(config);
    let programId: string;
    let mint: string | undefined;
    if (
      filter !== null &&
      typeof filter === 'object' &&
      filter.mint !== undefined &&
      filter.programId === undefined
    ) {
      mint = readAddress(filter.mint);
      programId = requireMint(cluster, mint).owner;
    } else if (
      filter !== null &&
      typeof filter === 'object' &&
      filter.programId !== undefined &&
      filter.mint === undefined
    ) {
      programId = readAddress(filter.programId);
      if (!isTokenProgram(programId)) throw invalidParam('unrecognized Token program id');
    } else {
      throw invalidParams('expected a filter object with exactly one of `mint` or `programId`');
    }
    const accounts = findTokenAccounts(cluster, programId, { [by]: key, mint }).map((account) => ({
      pubkey: account.address,
      account: encodeAccount(account, encoding, slice, cluster),
    }));
    return withContext(cluster, accounts);
  };

const getTokenAccountsByOwner = tokenAccountsBy('owner');
const getTokenAccountsByDelegate = tokenAccountsBy('delegate');

const getTokenAccountBalance: RpcMethod = (params, cluster) => {
  const address = readAddress(requireParam(params, 0, 'token account'));
  checkContext(readConfig(params, 1), cluster);
  const account = cluster.getAccount(address);
  // Agave's three answers: no account, not the token programs', not a token account's layout.
  if (account === null) throw invalidParam('could not find account');
  if (!isTokenProgram(account.owner) || !isTokenAccountData(account.owner, account.data))
    throw invalidParam('not a Token account');
  const decimals = cluster.getMintDecimals(encodeBase58(account.data.subarray(0, 32)));
  if (decimals === undefined) throw invalidParam('could not find mint');
  return withContext(cluster, toUiTokenAmount(readTokenAmount(account.data), decimals));
};

const getTokenSupply: RpcMethod = (params, cluster) => {
  const mint = readAddress(requireParam(params, 0, 'mint'));
  checkContext(readConfig(params, 1), cluster);
  const account = cluster.getAccount(mint);
  if (account === null) throw invalidParam('could not find account');
  if (!isTokenProgram(account.owner)) throw invalidParam('not a Token mint');
  if (!isMintData(account.owner, account.data)) throw invalidParam('mint could not be unpacked');
  const fields = decodeMint(account.data);
  return withContext(cluster, toUiTokenAmount(fields.supply, fields.decimals));
};

const getTokenLargestAccounts: RpcMethod = (params, cluster) => {
  const mint = readAddress(requireParam(params, 0, 'mint'));
  checkContext(readConfig(params, 1), cluster);
  const mintAccount = requireMint(cluster, mint);
  const decimals = decodeMint(mintAccount.data).decimals;
  const largest = findTokenAccounts(cluster, mintAccount.owner, { mint })
    .map((account) => ({ address: account.address, amount: readTokenAmount(account.data) }))
    .sort((left, right) => (left.amount === right.amount ? 0 : left.amount > right.amount ? -1 : 1))
    .slice(0, MAX_LARGEST_ACCOUNTS)
    .map((entry) => ({ address: entry.address, ...toUiTokenAmount(entry.amount, decimals) }));
  return withContext(cluster, largest);
};

/**
 * A read waits until every commit so far is durable — what makes a transaction's status reported
 * here — so it never shows state of a transaction whose status is not yet reported: web3.js's
 * durable-nonce confirmation reads the nonce, then the status, and calls the transaction expired when
 * the nonce moved without one (its live test confirms at `processed`). At every commitment, as a
 * validator's `processed` bank is the last complete block it voted on, whose statuses it reports.
 */
function durableRead(method: RpcMethod): RpcMethod {
  return (params, cluster, call) => {
    const answer = () => method(params, cluster, call);
    if (cluster.isDurable || !cluster.isHealthy()) return answer();
    // A ledger that fails meanwhile makes nothing durable again: answer with the state as it is.
    return cluster.flush().then(answer, answer);
  };
}

export const ACCOUNT_METHODS: Readonly<Record<string, RpcMethod>> = {
  getBalance: durableRead(getBalance),
  getAccountInfo: durableRead(getAccountInfo),
  getMultipleAccounts: durableRead(getMultipleAccounts),
  getProgramAccounts: durableRead(getProgramAccounts),
  getTokenAccountsByOwner: durableRead(getTokenAccountsByOwner),
  getTokenAccountsByDelegate: durableRead(getTokenAccountsByDelegate),
  getTokenAccountBalance: durableRead(getTokenAccountBalance),
  getTokenSupply: durableRead(getTokenSupply),
  getTokenLargestAccounts: durableRead(getTokenLargestAccounts),
};
