/**
 * The account store of the cluster's LiteSVM: reads and writes of accounts, the rent and clock
 * sysvars, and the caches that keep the hot path cheap (base58 of keys, mint decimals, and a
 * mirror of every account's shape for lamports-only transactions). Execution is `SvmRuntime`'s,
 * which extends this.
 *
 * It talks to LiteSVM's native handle rather than the kit-typed wrapper: the wrapper decodes and
 * re-encodes every transaction, the handle takes the wire bytes as they arrived.
 */
import {
  Account,
  Clock,
  LiteSVM,
  Rent,
  type FailedTransactionMetadata,
  type TransactionMetadata,
} from 'litesvm';
import { decodeBase58Exact, encodeBase58 } from './base58';
import type { AccountStateTuple, StoredTokenBalance } from './ledger';
import { SYSTEM_PROGRAM_ID } from './program-ids';
import {
  isMintData,
  isTokenAccountData,
  isTokenProgram,
  NATIVE_MINT,
  readMintDecimals,
  readTokenAmount,
} from './token-layout';

const RENT_SYSVAR_ID = 'SysvarRent111111111111111111111111111111111';
const CLOCK_SYSVAR_ID = 'SysvarC1ock11111111111111111111111111111111';
const SLOT_HASHES_SYSVAR_ID = 'SysvarS1otHashes111111111111111111111111111';
const RECENT_BLOCKHASHES_SYSVAR_ID = 'SysvarRecentB1ockHashes11111111111111111111';
/** Entries the RecentBlockhashes sysvar holds at most (Agave's `MAX_ENTRIES`). */
export const MAX_RECENT_BLOCKHASHES = 150;
const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';
/**
 * Agave sizes these sysvars for their most entries (RecentBlockhashes 150 of 40 bytes, StakeHistory
 * 512 of 32, after an 8-byte length) from the start; LiteSVM writes only the entries there are.
 */
const SYSVAR_FIXED_SIZES: Readonly<Record<string, number>> = {
  [RECENT_BLOCKHASHES_SYSVAR_ID]: 8 + MAX_RECENT_BLOCKHASHES * 40,
  SysvarStakeHistory1111111111111111111111111: 8 + 512 * 32,
};
const TOKEN_2022_NATIVE_MINT = '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP';
/** One SOL: what a validator's genesis gives the native mint. */
const NATIVE_MINT_GENESIS_LAMPORTS = 1_000_000_000n;
/** Rent epoch of rent-exempt accounts, as the runtime writes it. */
export const RENT_EXEMPT_EPOCH = 2n ** 64n - 1n;

/** An account as the cluster stores it. */
export interface AccountView {
  readonly address: string;
  readonly lamports: bigint;
  readonly owner: string;
  readonly executable: boolean;
  readonly rentEpoch: bigint;
  readonly data: Uint8Array;
}

/** The native LiteSVM object behind the kit-typed wrapper. */
export interface NativeLiteSvm {
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

export interface NativeSimulation {
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

/** An account as last written by the cluster, minus its lamports (see `SvmAccounts.shapes`). */
export interface AccountShape {
  readonly owner: string;
  readonly data: string;
  readonly executable: 0 | 1;
  readonly rentEpoch: string;
}

/** Accounts of the cluster's LiteSVM, and the caches in front of them. */
export class SvmAccounts {
  protected readonly native: NativeLiteSvm;
  private readonly addressCache = new Map<string, string>();
  protected readonly mintDecimalsCache = new Map<string, number>();
  /**
   * Owner, data, executable and rent epoch of every account the cluster wrote or committed, so a
   * transaction that can only move lamports (SOL transfers) needs just each balance from LiteSVM
   * instead of whole-account reads. Every state change goes through this class — genesis, replay
   * and tooling writes, commits (which refresh the entries of every writable account) and
   * rollbacks (which restore the state the mirror still holds) — so the mirror cannot go stale.
   */
  protected readonly shapes = new Map<string, AccountShape>();

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
    for (const { address } of this.native.getProgramAccounts(addressBytes(SYSVAR_OWNER))) {
      this.fundSysvar(this.addressOf(address));
    }
    // A validator's genesis holds SPL Token's native mint but not Token-2022's, which is created on
    // chain (CreateNativeMint, refused while LiteSVM's copy is there).
    this.writeAccount([TOKEN_2022_NATIVE_MINT, '0', SYSTEM_PROGRAM_ID, 0, '', '0']);
    this.setAgaveNativeMint();
  }

  /**
   * SPL Token's native mint as a validator's genesis creates it (Agave's `genesis_utils`): one SOL,
   * rent epoch 1. LiteSVM's copy holds the same bytes with its rent-exempt minimum and rent epoch 0.
   */
  private setAgaveNativeMint(): void {
    const mint = this.native.getAccount(addressBytes(NATIVE_MINT));
    if (mint === null) throw new Error('LiteSVM has no native mint');
    this.writeAccount([
      NATIVE_MINT,
      NATIVE_MINT_GENESIS_LAMPORTS.toString(),
      this.addressOf(mint.owner()),
      0,
      toBase64(mint.data()),
      '1',
    ]);
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

  /**
   * A sysvar account as a validator holds it: at Agave's size, with its rent-exempt minimum (Agave
   * funds a sysvar so when it comes into existence). LiteSVM writes each with 1 lamport, the Clock
   * and SlotHashes again on every update.
   */
  private fundSysvar(id: string): void {
    const sysvar = this.native.getAccount(addressBytes(id));
    if (sysvar === null) return;
    const data = sysvar.data();
    const size = Math.max(data.length, SYSVAR_FIXED_SIZES[id] ?? 0);
    const minimum = this.minimumBalanceForRentExemption(size);
    if (sysvar.lamports() >= minimum && data.length === size) return;
    const sized = new Uint8Array(size);
    sized.set(data);
    this.writeAccount([
      id,
      minimum.toString(),
      SYSVAR_OWNER,
      0,
      toBase64(sized),
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
    this.fundSysvar(CLOCK_SYSVAR_ID);
  }

  /** Overwrites the SlotHashes sysvar (newest first), which lookup-table creation reads. */
  setSlotHashes(hashes: { slot: bigint; hash: string }[]): void {
    this.native.setSlotHashes(hashes);
    this.fundSysvar(SLOT_HASHES_SYSVAR_ID);
  }

  /**
   * Overwrites the RecentBlockhashes sysvar (deprecated, still read by clients and by the nonce
   * instructions): the given blockhashes, newest first, each with the fee per signature, as a
   * validator rewrites it every slot. LiteSVM leaves the genesis blockhash there for good.
   */
  setRecentBlockhashes(hashes: readonly Uint8Array[], lamportsPerSignature: bigint): void {
    const entries = hashes.slice(0, MAX_RECENT_BLOCKHASHES);
    const data = Buffer.alloc(SYSVAR_FIXED_SIZES[RECENT_BLOCKHASHES_SYSVAR_ID]!);
    data.writeBigUInt64LE(BigInt(entries.length), 0);
    entries.forEach((hash, index) => {
      data.set(hash, 8 + index * 40);
      data.writeBigUInt64LE(lamportsPerSignature, 8 + index * 40 + 32);
    });
    const sysvar = this.native.getAccount(addressBytes(RECENT_BLOCKHASHES_SYSVAR_ID));
    this.writeAccount([
      RECENT_BLOCKHASHES_SYSVAR_ID,
      this.minimumBalanceForRentExemption(data.length).toString(),
      SYSVAR_OWNER,
      0,
      data.toString('base64'),
      (sysvar?.rentEpoch() ?? 0n).toString(),
    ]);
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

  /**
   * The program's accounts whose data `matches`, in getProgramAccounts' order: only those are made
   * into views (a token scan for one owner otherwise read every token account's fields).
   */
  getProgramAccountsWhere(programId: string, matches: (data: Uint8Array) => boolean): AccountView[] {
    const bytes = decodeBase58Exact(programId, 32);
    if (bytes === undefined) return [];
    const found: AccountView[] = [];
    for (const entry of this.native.getProgramAccounts(bytes)) {
      const account = entry.account();
      const data = account.data();
      if (matches(data)) found.push(this.toAccountView(this.addressOf(entry.address), account, data));
    }
    return found;
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

  protected rememberShape(state: AccountStateTuple): void {
    const [accountAddress, lamports, owner, executable, data, rentEpoch] = state;
    if (lamports === '0') this.shapes.delete(accountAddress);
    else this.shapes.set(accountAddress, { owner, data, executable, rentEpoch });
  }

  /** The mirrored shape of an account that the lamports-only path may use (never a token account). */
  protected fastShape(accountAddress: string): AccountShape | undefined {
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

  protected toAccountView(accountAddress: string, account: Account, data = account.data()): AccountView {
    return {
      address: accountAddress,
      lamports: account.lamports(),
      owner: this.addressOf(account.owner()),
      executable: account.executable(),
      rentEpoch: account.rentEpoch(),
      data,
    };
  }

  protected tokenBalanceOf(
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
