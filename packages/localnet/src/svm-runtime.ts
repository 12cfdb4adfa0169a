/**
 * The LiteSVM side of the cluster: execution of wire bytes, and what the signature log needs from
 * an execution (balances before and after, token balances, post-state of every writable account,
 * logs, inner instructions). Accounts are `SvmAccounts`'; clock, blockhashes, replay protection
 * and persistence belong to `LocalCluster`, which drives this.
 */
import { FailedTransactionMetadata, type Account, type TransactionMetadata } from 'litesvm';
import { encodeBase58 } from './base58';
import { calculateTransactionFee } from './fees';
import { ADDRESS_LOOKUP_TABLE_PROGRAM_ID, COMPUTE_BUDGET_PROGRAM_ID, SYSTEM_PROGRAM_ID } from './program-ids';
import type {
  AccountStateTuple,
  StoredInnerInstruction,
  StoredTokenBalance,
  TransactionRecord,
} from './ledger';
import { SvmAccounts, toBase64, type AccountView, type NativeSimulation } from './svm-accounts';
import { toTransactionErrorJson, type TransactionErrorJson } from './transaction-error';
import { isStaticKeyWritable, type WireTransaction } from './wire-transaction';

export { RENT_EXEMPT_EPOCH, addressBytes, toBase64, type AccountView } from './svm-accounts';

const LOOKUP_TABLE_META_SIZE = 56;
/** Builtins that never invoke other programs nor set return data. */
const QUIET_BUILTIN_PROGRAMS = new Set([SYSTEM_PROGRAM_ID, COMPUTE_BUDGET_PROGRAM_ID]);
/** System program instructions that move lamports and nothing else: Transfer, TransferWithSeed. */
const LAMPORTS_ONLY_SYSTEM_INSTRUCTIONS = new Set([2, 11]);

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

function sum(values: readonly bigint[]): bigint {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}

export class SvmRuntime extends SvmAccounts {
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
}
