/**
 * The LiteSVM side of the cluster: accounts, execution of wire bytes, and what the signature log
 * needs from an execution (balances before and after, token balances, post-state of every
 * writable account, logs, inner instructions). Clock, blockhashes, replay protection and
 * persistence belong to `LocalCluster`, which drives this.
 *
 * It talks to LiteSVM's native handle rather than the kit-typed wrapper: the wrapper decodes and
 * re-encodes every transaction, the handle takes the wire bytes as they arrived.
 */
import { Account, Clock, FailedTransactionMetadata, LiteSVM, Rent, type TransactionMetadata } from 'litesvm';
import { decodeBase58Exact, encodeBase58 } from './base58';
import { calculateTransactionFee } from './fees';
import { ADDRESS_LOOKUP_TABLE_PROGRAM_ID, COMPUTE_BUDGET_PROGRAM_ID, SYSTEM_PROGRAM_ID } from './program-ids';
import type {
  AccountStateTuple,
  StoredInnerInstruction,
  StoredTokenBalance,
  TransactionRecord,
} from './ledger';
import {
  isMintData,
  isTokenAccountData,
  isTokenProgram,
  readMintDecimals,
  readTokenAmount,
} from './token-layout';
import { toTransactionErrorJson, type TransactionErrorJson } from './transaction-error';
import { isStaticKeyWritable, type WireTransaction } from './wire-transaction';

const LOOKUP_TABLE_META_SIZE = 56;
const RENT_SYSVAR_ID = 'SysvarRent111111111111111111111111111111111';
/** Rent epoch of rent-exempt accounts, as the runtime writes it. */
export const RENT_EXEMPT_EPOCH = 2n ** 64n - 1n;
/** Builtins that never invoke other programs nor set return data. */
const QUIET_BUILTIN_PROGRAMS = new Set([SYSTEM_PROGRAM_ID, COMPUTE_BUDGET_PROGRAM_ID]);

/** An account as the cluster stores it. */
export interface AccountView {
  readonly address: string;
  readonly lamports: bigint;
  readonly owner: string;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
  readonly data: Uint8Array;
}

/** Execution details shared by failed sends and simulations. */
export interface ExecutionReport {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint;
  readonly innerInstructions: TransactionRecord['innerInstructions'];
  readonly returnData: TransactionRecord['returnData'];
}

export interface SimulationResult extends ExecutionReport {
  readonly fee: bigint | null;
  readonly accountKeys: readonly string[];
  readonly loadedAddresses: TransactionRecord['loadedAddresses'] | null;
  readonly preBalances: readonly bigint[] | null;
  readonly postBalances: readonly bigint[] | null;
  readonly preTokenBalances: readonly StoredTokenBalance[] | null;
  readonly postTokenBalances: readonly StoredTokenBalance[] | null;
  readonly replacementBlockhash: { readonly blockhash: string; readonly lastValidBlockHeight: bigint } | null;
  /** Accounts after the simulated transaction (unchanged ones as they are now). */
  readonly getAccountAfter: (address: string) => AccountView | null;
}

/** Every account key of a transaction (static, then loaded writable, then loaded read-only). */
export interface ResolvedKeys {
  readonly keys: Uint8Array[];
  readonly addresses: string[];
  readonly writable: boolean[];
  readonly isProgram: boolean[];
  readonly loadedAddresses: { writable: string[]; readonly: string[] };
}

/** Accounts before execution: kept for balances, token balances and rollback. */
export interface PreState {
  /** The account (null: absent, or read on the lamports-only path, see `fast`). */
  readonly accounts: (Account | null)[];
  /** Read on the lamports-only path: only the balance was fetched, the rest is the mirror's. */
  readonly fast: boolean[];
  readonly lamportsOnly: boolean;
  readonly lamports: bigint[];
  readonly tokenBalances: StoredTokenBalance[];
}

/** What a committed transaction left behind. */
export interface PostState {
  readonly states: AccountStateTuple[];
  readonly postBalances: string[];
  readonly postTokenBalances: StoredTokenBalance[];
  readonly fee: bigint;
}

/** The native LiteSVM object behind the kit-typed wrapper. */
interface NativeLiteSvm {
  getAccount(pubkey: Uint8Array): Account | null;
  getBalance(pubkey: Uint8Array): bigint | null;
  setAccount(pubkey: Uint8Array, account: Account): void;
  getProgramAccounts(programId: Uint8Array): { address: Uint8Array; account(): Account }[];
  sendLegacyTransaction(bytes: Uint8Array): TransactionMetadata | FailedTransactionMetadata;
  sendVersionedTransaction(bytes: Uint8Array): TransactionMetadata | FailedTransactionMetadata;
  simulateLegacyTransaction(bytes: Uint8Array): NativeSimulation | FailedTransactionMetadata;
  simulateVersionedTransaction(bytes: Uint8Array): NativeSimulation | FailedTransactionMetadata;
  setSigverify(sigverify: boolean): void;
  setRent(rent: Rent): void;
  setClock(clock: Clock): void;
  setSlotHashes(hashes: { slot: bigint; hash: string }[]): void;
  minimumBalanceForRentExemption(dataLength: bigint): bigint;
}

interface NativeSimulation {
  meta(): TransactionMetadata;
  postAccounts(): { address: Uint8Array; account(): Account }[];
}

function nativeOf(svm: LiteSVM): NativeLiteSvm {
  const native = (svm as unknown as { inner?: NativeLiteSvm }).inner;
  if (native === undefined || typeof native.sendVersionedTransaction !== 'function') {
    throw new Error(
      'unsupported litesvm build: the native LiteSvm handle is not reachable (expected litesvm 1.5)',
    );
  }
  return native;
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function addressBytes(text: string): Uint8Array {
  const bytes = decodeBase58Exact(text, 32);
  if (bytes === undefined) throw new TypeError(`not a base58 address: ${text}`);
  return bytes;
}

function sum(values: readonly bigint[]): bigint {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}

/** An account as last written by the cluster, minus its lamports (see `SvmRuntime.shapes`). */
interface AccountShape {
  readonly owner: string;
  readonly data: string;
  readonly executable: 0 | 1;
  readonly rentEpoch: string;
}

/** System program instructions that move lamports and nothing else: Transfer, TransferWithSeed. */
const LAMPORTS_ONLY_SYSTEM_INSTRUCTIONS = new Set([2, 11]);

export class SvmRuntime {
  private readonly native: NativeLiteSvm;
  private readonly addressCache = new Map<string, string>();
  private readonly mintDecimalsCache = new Map<string, number>();
  /**
   * Owner, data, executable and rent epoch of every account the cluster wrote or committed, so a
   * transaction that can only move lamports (SOL transfers) needs just each balance from LiteSVM
   * instead of whole-account reads. Every state change goes through this class — genesis, replay
   * and tooling writes, commits (which refresh the entries of every writable account) and
   * rollbacks (which restore the state the mirror still holds) — so the mirror cannot go stale.
   */
  private readonly shapes = new Map<string, AccountShape>();

  constructor() {
    // Blockhash checks and replay protection are the cluster's (STACK-NOTES gotcha 10): LiteSVM
    // knows one blockhash only, and its own history would duplicate the signature log.
    const svm = new LiteSVM()
      .withSigverify(true)
      .withBlockhashCheck(false)
      .withTransactionHistory(0n)
      .withDefaultPrograms()
      .withNativeMints();
    this.native = nativeOf(svm);
    this.setAgaveRent();
  }

  /**
   * The Rent sysvar as Agave 2.3 holds it: 3,480 lamports per byte-year, a two-year exemption
   * threshold, half burnt, in an account holding its own rent-exempt minimum (1,009,200). LiteSVM
   * ships the post-SIMD-0194 form (6,960 per byte, threshold 1, 1 lamport); both give the same
   * minimum balances.
   */
  private setAgaveRent(): void {
    this.native.setRent(new Rent(3480n, 2.0, 50));
    const sysvar = this.native.getAccount(addressBytes(RENT_SYSVAR_ID));
    if (sysvar === null) throw new Error('LiteSVM has no Rent sysvar');
    const data = sysvar.data();
    this.writeAccount([
      RENT_SYSVAR_ID,
      this.minimumBalanceForRentExemption(data.length).toString(),
      this.addressOf(sysvar.owner()),
      0,
      toBase64(data),
      sysvar.rentEpoch().toString(),
    ]);
  }

  setClock(clock: { slot: number; epoch: number; epochStartTimestamp: number; unixTimestamp: number }): void {
    this.native.setClock(
      new Clock(
        BigInt(clock.slot),
        BigInt(clock.epochStartTimestamp),
        BigInt(clock.epoch),
        BigInt(clock.epoch + 1),
        BigInt(clock.unixTimestamp),
      ),
    );
  }

  /** Overwrites the SlotHashes sysvar (newest first), which lookup-table creation reads. */
  setSlotHashes(hashes: { slot: bigint; hash: string }[]): void {
    this.native.setSlotHashes(hashes);
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.native.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  // ---------------------------------------------------------------------------------------------
  // Accounts

  getAccount(address: string): AccountView | null {
    const bytes = decodeBase58Exact(address, 32);
    if (bytes === undefined) return null;
    const account = this.native.getAccount(bytes);
    return account === null ? null : this.toAccountView(address, account);
  }

  getBalance(address: string): bigint {
    const bytes = decodeBase58Exact(address, 32);
    return bytes === undefined ? 0n : (this.native.getBalance(bytes) ?? 0n);
  }

  getProgramAccounts(programId: string): AccountView[] {
    const bytes = decodeBase58Exact(programId, 32);
    if (bytes === undefined) return [];
    return this.native
      .getProgramAccounts(bytes)
      .map((entry) => this.toAccountView(this.addressOf(entry.address), entry.account()));
  }

  getMintDecimals(mint: string): number | undefined {
    const cached = this.mintDecimalsCache.get(mint);
    if (cached !== undefined) return cached;
    const account = this.getAccount(mint);
    if (account === null || !isMintData(account.owner, account.data)) return undefined;
    const decimals = readMintDecimals(account.data);
    this.mintDecimalsCache.set(mint, decimals);
    return decimals;
  }

  /** Writes an account state (genesis, replay, tooling). Zero lamports deletes the account. */
  writeAccount(state: AccountStateTuple): void {
    const [accountAddress, lamports, owner, executable, data, rentEpoch] = state;
    this.rememberShape(state);
    const account = new Account(
      BigInt(lamports),
      Buffer.from(data, 'base64'),
      addressBytes(owner),
      executable === 1,
      BigInt(rentEpoch),
    );
    this.native.setAccount(addressBytes(accountAddress), account);
    this.mintDecimalsCache.delete(accountAddress);
  }

  private rememberShape(state: AccountStateTuple): void {
    const [accountAddress, lamports, owner, executable, data, rentEpoch] = state;
    if (lamports === '0') this.shapes.delete(accountAddress);
    else this.shapes.set(accountAddress, { owner, data, executable, rentEpoch });
  }

  /**
   * Whether a transaction can change nothing but lamports: it invokes only the Compute Budget
   * program and the System program's Transfer / TransferWithSeed.
   */
  private isLamportsOnly(transaction: WireTransaction, resolved: ResolvedKeys): boolean {
    for (const instruction of transaction.instructions) {
      const programId = resolved.addresses[instruction.programIdIndex];
      if (programId === COMPUTE_BUDGET_PROGRAM_ID) continue;
      const data = instruction.data;
      const discriminator =
        data.length >= 4 && data[1] === 0 && data[2] === 0 && data[3] === 0 ? data[0]! : -1;
      if (programId !== SYSTEM_PROGRAM_ID || !LAMPORTS_ONLY_SYSTEM_INSTRUCTIONS.has(discriminator))
        return false;
    }
    return true;
  }

  /** The mirrored shape of an account that the lamports-only path may use (never a token account). */
  private fastShape(accountAddress: string): AccountShape | undefined {
    const shape = this.shapes.get(accountAddress);
    return shape === undefined || isTokenProgram(shape.owner) ? undefined : shape;
  }

  /** base58 of a 32-byte key, cached: the same few hundred keys recur in every transaction. */
  addressOf(bytes: Uint8Array): string {
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, 32).toString('latin1');
    let text = this.addressCache.get(key);
    if (text === undefined) {
      if (this.addressCache.size > 100_000) this.addressCache.clear();
      text = encodeBase58(bytes.subarray(0, 32));
      this.addressCache.set(key, text);
    }
    return text;
  }

  private toAccountView(accountAddress: string, account: Account): AccountView {
    return {
      address: accountAddress,
      lamports: account.lamports(),
      owner: this.addressOf(account.owner()),
      executable: account.executable(),
      rentEpoch: account.rentEpoch(),
      data: account.data(),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Execution

  /** Every account key of a transaction, resolving address-table lookups against current state. */
  resolveAccountKeys(transaction: WireTransaction): ResolvedKeys | { err: TransactionErrorJson } {
    const keys = [...transaction.staticAccountKeys];
    const writable = keys.map((_, index) => isStaticKeyWritable(transaction, index));
    const loadedAddresses = { writable: [] as string[], readonly: [] as string[] };
    if (transaction.addressTableLookups.length > 0) {
      const loadedWritable: Uint8Array[] = [];
      const loadedReadonly: Uint8Array[] = [];
      for (const lookup of transaction.addressTableLookups) {
        const table = this.native.getAccount(lookup.tableAddress);
        if (table === null) return { err: 'AddressLookupTableNotFound' };
        if (this.addressOf(table.owner()) !== ADDRESS_LOOKUP_TABLE_PROGRAM_ID) {
          return { err: 'InvalidAddressLookupTableOwner' };
        }
        const data = table.data();
        if (data.length < LOOKUP_TABLE_META_SIZE || (data.length - LOOKUP_TABLE_META_SIZE) % 32 !== 0) {
          return { err: 'InvalidAddressLookupTableData' };
        }
        const count = (data.length - LOOKUP_TABLE_META_SIZE) / 32;
        for (const [indexes, into] of [
          [lookup.writableIndexes, loadedWritable],
          [lookup.readonlyIndexes, loadedReadonly],
        ] as const) {
          for (const index of indexes) {
            if (index >= count) return { err: 'InvalidAddressLookupTableIndex' };
            const start = LOOKUP_TABLE_META_SIZE + index * 32;
            into.push(data.subarray(start, start + 32));
          }
        }
      }
      for (const key of loadedWritable) {
        keys.push(key);
        writable.push(true);
        loadedAddresses.writable.push(this.addressOf(key));
      }
      for (const key of loadedReadonly) {
        keys.push(key);
        writable.push(false);
        loadedAddresses.readonly.push(this.addressOf(key));
      }
    }
    const isProgram = keys.map(() => false);
    for (const instruction of transaction.instructions) isProgram[instruction.programIdIndex] = true;
    return { keys, addresses: keys.map((key) => this.addressOf(key)), writable, isProgram, loadedAddresses };
  }

  /**
   * Reads accounts before execution. With the transaction given, a lamports-only transaction reads
   * just the balance of accounts the mirror knows (see `shapes`).
   */
  readPreState(resolved: ResolvedKeys, transaction?: WireTransaction): PreState {
    const accounts: (Account | null)[] = [];
    const fast: boolean[] = [];
    const lamports: bigint[] = [];
    const tokenBalances: StoredTokenBalance[] = [];
    const lamportsOnly = transaction !== undefined && this.isLamportsOnly(transaction, resolved);
    for (let index = 0; index < resolved.keys.length; index += 1) {
      const key = resolved.keys[index]!;
      const isFast = lamportsOnly && this.fastShape(resolved.addresses[index]!) !== undefined;
      fast.push(isFast);
      if (resolved.isProgram[index] || isFast) {
        // Programs only need a balance (reading one would copy its whole ELF); so do accounts a
        // lamports-only transaction cannot reshape.
        accounts.push(null);
        lamports.push(this.native.getBalance(key) ?? 0n);
        continue;
      }
      const account = this.native.getAccount(key);
      accounts.push(account);
      lamports.push(account === null ? 0n : account.lamports());
      const balance = this.tokenBalanceOf(index, account);
      if (balance !== undefined) tokenBalances.push(balance);
    }
    return { accounts, fast, lamportsOnly, lamports, tokenBalances };
  }

  /**
   * Executes the wire bytes as they are, or `executedBytes` instead (the same transaction with the
   * bank's blockhash in place, its signatures already verified by the caller).
   */
  execute(
    transaction: WireTransaction,
    executedBytes?: Uint8Array,
  ): { meta: TransactionMetadata; err: TransactionErrorJson | null } {
    let result: TransactionMetadata | FailedTransactionMetadata;
    if (executedBytes === undefined) {
      result =
        transaction.version === 'legacy'
          ? this.native.sendLegacyTransaction(transaction.bytes)
          : this.native.sendVersionedTransaction(transaction.bytes);
    } else {
      this.native.setSigverify(false);
      try {
        result =
          transaction.version === 'legacy'
            ? this.native.sendLegacyTransaction(executedBytes)
            : this.native.sendVersionedTransaction(executedBytes);
      } finally {
        this.native.setSigverify(true);
      }
    }
    if (result instanceof FailedTransactionMetadata) {
      return { meta: result.meta(), err: toTransactionErrorJson(result.err()) };
    }
    return { meta: result, err: null };
  }

  /** Whether the last execution charged the fee payer (a failure then still commits). */
  wasFeeCharged(resolved: ResolvedKeys, pre: PreState): boolean {
    return (this.native.getBalance(resolved.keys[0]!) ?? 0n) < pre.lamports[0]!;
  }

  /** Restores every writable account to its pre-state. */
  rollback(resolved: ResolvedKeys, pre: PreState): void {
    for (let index = 0; index < resolved.keys.length; index += 1) {
      if (!resolved.writable[index]) continue;
      const account = pre.accounts[index];
      const shape = pre.fast[index] ? this.shapes.get(resolved.addresses[index]!) : undefined;
      if (shape !== undefined) {
        // Only lamports can have changed: the mirror plus the old balance is the old account.
        const { owner, data, executable, rentEpoch } = shape;
        const lamports = pre.lamports[index]!.toString();
        this.writeAccount([resolved.addresses[index]!, lamports, owner, executable, data, rentEpoch]);
      } else if (account !== null && account !== undefined) {
        this.native.setAccount(resolved.keys[index]!, account);
      }
    }
  }

  report(
    meta: TransactionMetadata,
    err: TransactionErrorJson | null,
    resolved: ResolvedKeys,
  ): ExecutionReport {
    const innerInstructions: { index: number; instructions: StoredInnerInstruction[] }[] = [];
    // The System and Compute Budget programs never invoke other programs or set return data, so a
    // transaction calling only them needs neither native read (a few µs on the hot path).
    const onlyQuietBuiltins = resolved.addresses.every(
      (key, index) => !resolved.isProgram[index] || QUIET_BUILTIN_PROGRAMS.has(key),
    );
    if (onlyQuietBuiltins) {
      return {
        err,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        innerInstructions,
        returnData: null,
      };
    }
    meta.innerInstructions().forEach((group, index) => {
      if (group.length === 0) return;
      innerInstructions.push({
        index,
        instructions: group.map((inner) => {
          const compiled = inner.instruction();
          return {
            programIdIndex: compiled.programIdIndex(),
            accounts: Array.from(compiled.accounts()),
            data: encodeBase58(compiled.data()),
            stackHeight: inner.stackHeight(),
          };
        }),
      });
    });
    const returned = meta.returnData();
    const returnedBytes = returned.data();
    return {
      err,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      innerInstructions,
      returnData:
        returnedBytes.length === 0
          ? null
          : { programId: this.addressOf(returned.programId()), data: toBase64(returnedBytes) },
    };
  }

  /** Reads every writable account after a committed execution; the fee is what they lost. */
  readPostState(resolved: ResolvedKeys, pre: PreState): PostState {
    const states: AccountStateTuple[] = [];
    const postBalances: string[] = [];
    const postTokenBalances: StoredTokenBalance[] = [];
    let fee = 0n;
    for (let index = 0; index < resolved.keys.length; index += 1) {
      const before = pre.lamports[index]!;
      if (!resolved.writable[index] || resolved.isProgram[index]) {
        postBalances.push(before.toString());
        const balance = resolved.isProgram[index]
          ? undefined
          : this.tokenBalanceOf(index, pre.accounts[index]!);
        if (balance !== undefined) postTokenBalances.push(balance);
        continue;
      }
      const accountAddress = resolved.addresses[index]!;
      const shape = pre.lamportsOnly ? this.fastShape(accountAddress) : undefined;
      if (shape !== undefined) {
        // A lamports-only transaction left owner, data, executable and rent epoch as they were.
        const lamports = this.native.getBalance(resolved.keys[index]!) ?? 0n;
        fee += before - lamports;
        postBalances.push(lamports.toString());
        const state: AccountStateTuple =
          lamports === 0n
            ? [accountAddress, '0', SYSTEM_PROGRAM_ID, 0, '', '0']
            : [
                accountAddress,
                lamports.toString(),
                shape.owner,
                shape.executable,
                shape.data,
                shape.rentEpoch,
              ];
        states.push(state);
        this.rememberShape(state);
        continue;
      }
      const account = this.native.getAccount(resolved.keys[index]!);
      if (account === null) {
        postBalances.push('0');
        const deleted: AccountStateTuple = [accountAddress, '0', SYSTEM_PROGRAM_ID, 0, '', '0'];
        states.push(deleted);
        this.rememberShape(deleted);
        fee += before;
        continue;
      }
      const lamports = account.lamports();
      fee += before - lamports;
      postBalances.push(lamports.toString());
      const data = account.data();
      const state: AccountStateTuple = [
        accountAddress,
        lamports.toString(),
        this.addressOf(account.owner()),
        account.executable() ? 1 : 0,
        toBase64(data),
        account.rentEpoch().toString(),
      ];
      states.push(state);
      this.rememberShape(state);
      const balance = this.tokenBalanceOf(index, account, data);
      if (balance !== undefined) postTokenBalances.push(balance);
      // A mint may have been created or re-initialised: forget cached decimals.
      if (data.length === 82) this.mintDecimalsCache.delete(accountAddress);
    }
    return { states, postBalances, postTokenBalances, fee };
  }

  /** Runs a transaction without committing it, with or without signature verification. */
  simulate(
    transaction: WireTransaction,
    executedBytes: Uint8Array,
    sigVerify: boolean,
  ): Omit<SimulationResult, 'replacementBlockhash'> {
    const resolved = this.resolveAccountKeys(transaction);
    if (!('keys' in resolved)) return this.emptySimulation(resolved.err);
    const pre = this.readPreState(resolved);
    let result: NativeSimulation | FailedTransactionMetadata;
    this.native.setSigverify(sigVerify);
    try {
      result =
        transaction.version === 'legacy'
          ? this.native.simulateLegacyTransaction(executedBytes)
          : this.native.simulateVersionedTransaction(executedBytes);
    } finally {
      this.native.setSigverify(true);
    }
    const meta = result.meta();
    const after = new Map<string, Account>();
    let err: TransactionErrorJson | null = null;
    if (result instanceof FailedTransactionMetadata) {
      err = toTransactionErrorJson(result.err());
    } else {
      for (const entry of result.postAccounts()) after.set(this.addressOf(entry.address), entry.account());
    }
    const postBalances = resolved.addresses.map(
      (key, index) => after.get(key)?.lamports() ?? pre.lamports[index]!,
    );
    const postTokenBalances: StoredTokenBalance[] = [];
    resolved.addresses.forEach((key, index) => {
      const account = after.get(key) ?? (resolved.isProgram[index] ? null : pre.accounts[index]!);
      const balance = this.tokenBalanceOf(index, account);
      if (balance !== undefined) postTokenBalances.push(balance);
    });
    return {
      ...this.report(meta, err, resolved),
      fee: err !== null ? calculateTransactionFee(transaction) : sum(pre.lamports) - sum(postBalances),
      accountKeys: resolved.addresses,
      loadedAddresses: resolved.loadedAddresses,
      preBalances: pre.lamports,
      postBalances,
      preTokenBalances: pre.tokenBalances,
      postTokenBalances,
      getAccountAfter: (accountAddress) => {
        const account = after.get(accountAddress);
        return account === undefined
          ? this.getAccount(accountAddress)
          : this.toAccountView(accountAddress, account);
      },
    };
  }

  /** A simulation that stopped before execution (expired blockhash, bad lookup table). */
  emptySimulation(err: TransactionErrorJson): Omit<SimulationResult, 'replacementBlockhash'> {
    return {
      err,
      logs: [],
      unitsConsumed: 0n,
      innerInstructions: [],
      returnData: null,
      fee: null,
      accountKeys: [],
      loadedAddresses: null,
      preBalances: null,
      postBalances: null,
      preTokenBalances: null,
      postTokenBalances: null,
      getAccountAfter: (accountAddress) => this.getAccount(accountAddress),
    };
  }

  private tokenBalanceOf(
    index: number,
    account: Account | null,
    knownData?: Uint8Array,
  ): StoredTokenBalance | undefined {
    if (account === null) return undefined;
    const data = knownData ?? account.data();
    if (data.length < 165) return undefined;
    const programId = this.addressOf(account.owner());
    if (!isTokenAccountData(programId, data)) return undefined;
    const mint = this.addressOf(data.subarray(0, 32));
    const decimals = this.getMintDecimals(mint);
    if (decimals === undefined) return undefined;
    return {
      accountIndex: index,
      mint,
      owner: this.addressOf(data.subarray(32, 64)),
      programId,
      amount: readTokenAmount(data).toString(),
      decimals,
    };
  }
}
