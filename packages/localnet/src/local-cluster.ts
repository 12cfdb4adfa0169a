/**
 * A local Solana cluster on LiteSVM: the real SVM runtime with the SPL Token and Associated Token
 * programs, plus what LiteSVM leaves to its host — a slot clock, a queue of recent blockhashes
 * that expire after 150 slots (`ClusterClock`), a signature log with replay protection and the
 * blocks (`ClusterHistory`), durable persistence and a genesis with the product's tokens at their
 * mainnet mint addresses.
 *
 * Business code never calls this directly: it talks JSON-RPC to it (see `rpc/json-rpc-handler`).
 */
import type { KeyPairSigner } from '@solana/kit';
import { LISTED_TOKENS, riskSetupOf } from '@solterm/contracts';
import { encodeBase58 } from './base58';
import { MAX_PROCESSING_AGE, type RecentBlockhash } from './blockhash-queue';
import { SLOT_MARKER_INTERVAL } from './cluster-clock';
import { openClusterStorage } from './cluster-data-dir';
import { ClusterHistory } from './cluster-history';
import {
  AirdropError,
  type LocalClusterOptions,
  type SendOptions,
  type SendOutcome,
  type SimulateOptions,
} from './cluster-types';
import { setsNonceValue, signaturesVerify, withBlockhash } from './durable-nonce';
import { airdropInstruction, signAirdropTransfer } from './faucet';
import { computeUnitPrice } from './fees';
import {
  DEFAULT_MARKET_MAKER_INVENTORY,
  DEFAULT_TREASURY_LAMPORTS,
  planGenesis,
  type GenesisMint,
} from './genesis';
import type { AccountStateTuple, Ledger, LedgerReplay, TransactionRecord } from './ledger';
import { SYSTEM_PROGRAM_ID } from './program-ids';
import { RENT_EXEMPT_EPOCH, toBase64, type AccountView, type SimulationResult } from './svm-runtime';
import type { TransactionErrorJson } from './transaction-error';
import { parseWireTransaction, type WireTransaction } from './wire-transaction';

export type { AccountView, ExecutionReport, SimulationResult } from './svm-runtime';
export * from './cluster-types';
export { MARKET_MAKER_KEYPAIR_FILE, TREASURY_KEYPAIR_FILE } from './cluster-data-dir';

/**
 * Creates (or reopens, when `dataDir` holds a previous run) a local cluster.
 *
 * @example
 * const cluster = await createLocalCluster({ dataDir: './data/localnet' });
 * const { blockhash } = cluster.getLatestBlockhash();
 * // … later
 * await cluster.close();
 */
export async function createLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const { treasury, marketMaker, blockhashSeed, ledger, replay, unlock } = await openClusterStorage(options);
  const cluster = new LocalCluster(
    options,
    treasury.signer,
    marketMaker.signer,
    blockhashSeed,
    ledger,
    unlock,
  );
  SIGNER_SECRET_KEYS.set(cluster, { treasury: treasury.secretKey, marketMaker: marketMaker.secretKey });
  try {
    await cluster.initialise(replay);
  } catch (error) {
    await cluster.close();
    throw error;
  }
  return cluster;
}

const SIGNER_SECRET_KEYS = new WeakMap<LocalCluster, { treasury: Uint8Array; marketMaker: Uint8Array }>();

/**
 * @internal The treasury's and the market maker's secret keys (solana-keygen layout), which the
 * worker thread hands once to the main thread: the venue and the faucet sign with them there.
 */
export function exportSignerSecretKeys(cluster: LocalCluster): {
  treasury: Uint8Array;
  marketMaker: Uint8Array;
} {
  const keys = SIGNER_SECRET_KEYS.get(cluster);
  if (keys === undefined) throw new Error('the cluster was not created by createLocalCluster');
  return keys;
}

export class LocalCluster extends ClusterHistory {
  /** The treasury: funded SOL, mint authority of every genesis mint, the faucet's source. */
  readonly treasury: KeyPairSigner;
  /** The market maker: SOL and an associated token account of every genesis token. */
  readonly marketMaker: KeyPairSigner;

  private genesisMints: readonly GenesisMint[] = [];
  /** Airdrops requested in the slot being produced, by signature: they land as it ends. */
  private readonly pendingAirdrops = new Map<
    string,
    { bytes: Uint8Array; resolve: (signature: string) => void; reject: (error: Error) => void }
  >();

  /** @internal use {@link createLocalCluster}. */
  constructor(
    options: LocalClusterOptions,
    treasury: KeyPairSigner,
    marketMaker: KeyPairSigner,
    blockhashSeed: Uint8Array,
    ledger: Ledger | null,
    private readonly unlock: () => Promise<void> = async () => undefined,
  ) {
    super(options, blockhashSeed, ledger);
    this.treasury = treasury;
    this.marketMaker = marketMaker;
  }

  /** @internal genesis, then the ledger's account states and signatures on top. */
  async initialise(replay: LedgerReplay | null): Promise<void> {
    const tokens =
      this.options.tokens ??
      LISTED_TOKENS.map((token) => ({
        symbol: token.symbol,
        name: token.name,
        mint: token.mint,
        decimals: token.decimals,
        setup: riskSetupOf(token.mint),
      }));
    const plan = await planGenesis({
      tokens,
      treasury: this.treasury.address,
      marketMaker: this.marketMaker.address,
      treasuryLamports: this.options.treasuryLamports ?? DEFAULT_TREASURY_LAMPORTS,
      inventory: this.options.marketMakerInventory ?? DEFAULT_MARKET_MAKER_INVENTORY,
      rentExemptMinimum: (size) => this.minimumBalanceForRentExemption(size),
    });
    // Fixtures first: as on a validator, an account genesis creates keeps its genesis state.
    for (const fixture of this.options.accounts ?? []) {
      this.runtime.writeAccount([
        fixture.address,
        fixture.lamports.toString(),
        fixture.owner,
        fixture.executable ? 1 : 0,
        toBase64(fixture.data),
        fixture.rentEpoch.toString(),
      ]);
    }
    for (const account of plan.accounts) {
      const { address: accountAddress, lamports, owner, data } = account;
      this.runtime.writeAccount([
        accountAddress,
        lamports.toString(),
        owner,
        0,
        toBase64(data),
        (account.rentEpoch ?? RENT_EXEMPT_EPOCH).toString(),
      ]);
    }
    this.genesisMints = plan.mints;
    let startSlot = 0;
    if (replay !== null) {
      for (const state of replay.accounts.values()) this.runtime.writeAccount(state);
      for (const record of replay.transactions) {
        this.indexTransaction(record, 0, this.accountKeysOf(record), undefined);
      }
      this.processedCount = replay.transactions.length;
      if (replay.lastSlot >= 0) {
        // Resume past any slot the previous run may have reached after its last marker.
        startSlot = Math.max(replay.lastMarkerSlot + SLOT_MARKER_INTERVAL, replay.lastSlot) + 1;
      }
    }
    this.setSlot(startSlot);
    this.ledger?.appendSlot(startSlot);
    if ((this.options.slotClock ?? 'auto') === 'auto') this.startSlotClock();
  }

  /** The genesis tokens with the market maker's token account for each. */
  get mints(): readonly GenesisMint[] {
    return this.genesisMints;
  }

  // ---------------------------------------------------------------------------------------------
  // Accounts

  getAccount(address: string): AccountView | null {
    return this.runtime.getAccount(address);
  }

  getBalance(address: string): bigint {
    return this.runtime.getBalance(address);
  }

  /** Every account owned by `programId`. */
  getProgramAccounts(programId: string): AccountView[] {
    return this.runtime.getProgramAccounts(programId);
  }

  /** The accounts owned by `programId` whose data `matches`, in getProgramAccounts' order. */
  getProgramAccountsWhere(programId: string, matches: (data: Uint8Array) => boolean): AccountView[] {
    return this.runtime.getProgramAccountsWhere(programId, matches);
  }

  /** Decimals of a mint, or undefined when the account is not a mint. */
  getMintDecimals(mint: string): number | undefined {
    return this.runtime.getMintDecimals(mint);
  }

  /**
   * Writes an account outside any transaction (tests and tooling; real clusters cannot do this).
   * Persisted like a transaction's writes. Zero lamports deletes the account.
   */
  setAccount(account: {
    address: string;
    lamports: bigint;
    owner?: string;
    data?: Uint8Array;
    executable?: boolean;
  }): void {
    const state: AccountStateTuple = [
      account.address,
      account.lamports.toString(),
      account.owner ?? SYSTEM_PROGRAM_ID,
      account.executable === true ? 1 : 0,
      toBase64(account.data ?? new Uint8Array(0)),
      RENT_EXEMPT_EPOCH.toString(),
    ];
    this.runtime.writeAccount(state);
    this.ledger?.appendAccounts([state]);
  }

  // ---------------------------------------------------------------------------------------------
  // Transactions

  /**
   * Executes a wire transaction (bytes, or already parsed). Expected failures are values
   * ({@link SendOutcome}); malformed bytes throw `WireFormatError`.
   */
  sendTransaction(input: Uint8Array | WireTransaction, options: SendOptions = {}): SendOutcome {
    if (this.closed) throw new Error('the cluster is closed');
    const transaction = input instanceof Uint8Array ? parseWireTransaction(input) : input;
    const bytes = transaction.bytes;
    const signature = encodeBase58(transaction.signatures[0]!);
    let lifetime = this.lifetimeOf(transaction);
    if (lifetime === null) return rejected(signature, 'BlockhashNotFound');
    if (this.transactions.has(signature)) return rejected(signature, 'AlreadyProcessed');
    // Slot 0 is the genesis block, which holds no transaction on a validator: the first
    // transaction of a new cluster ends it (stretched slots then let the wall catch up).
    if (this.currentSlot === 0) this.advanceSlots(1);
    if (lifetime !== 'recent' && lifetime.setThisSlot) {
      // Its nonce was set this slot: end the slot (stretched slots then let the wall catch up).
      this.advanceSlots(1);
      lifetime = this.lifetimeOf(transaction);
      if (lifetime === null) return rejected(signature, 'BlockhashNotFound');
    }
    const resolved = this.runtime.resolveAccountKeys(transaction);
    if (!('keys' in resolved)) return rejected(signature, resolved.err);
    const executedBytes = this.executedBytesOf(transaction);
    if (executedBytes === null) return rejected(signature, 'SignatureFailure');
    const pre = this.runtime.readPreState(resolved, transaction);
    const { meta, err } = this.runtime.execute(transaction, executedBytes);
    // A failure is committed only when preflight is skipped and the runtime charged the fee;
    // otherwise nothing may change, so undo the fee LiteSVM may have taken.
    if (err !== null && (options.skipPreflight !== true || !this.runtime.wasFeeCharged(resolved, pre))) {
      this.runtime.rollback(resolved, pre);
      return { kind: 'rejected', signature, ...this.runtime.report(meta, err, resolved), err };
    }
    if (err !== null && lifetime !== 'recent') this.advanceNonceOfFailed(lifetime.nonceAccount);
    const post = this.runtime.readPostState(resolved, pre);
    const report = this.runtime.report(meta, err, resolved);
    const record: TransactionRecord = {
      signature,
      slot: this.currentSlot,
      blockTime: this.currentBlockTime,
      err,
      fee: post.fee.toString(),
      logs: report.logs,
      transaction: options.base64 ?? toBase64(bytes),
      loadedAddresses: resolved.loadedAddresses,
      preBalances: pre.lamports.map(String),
      postBalances: post.postBalances,
      preTokenBalances: pre.tokenBalances,
      postTokenBalances: post.postTokenBalances,
      computeUnitsConsumed: Number(report.unitsConsumed),
      innerInstructions: report.innerInstructions,
      returnData: report.returnData,
    };
    const seq = this.ledger?.appendTransaction(record, post.states) ?? 0;
    if (this.currentSlotFirstSeq === -1) this.currentSlotFirstSeq = seq;
    const writable = resolved.addresses.filter((_, index) => resolved.writable[index]);
    this.indexTransaction(record, seq, resolved.addresses, {
      unitPrice: computeUnitPrice(transaction, (index) => resolved.addresses[index]),
      writable,
    });
    this.processedCount += 1;
    this.tellListeners((listener) => listener.committed?.(record, resolved.addresses, writable));
    this.scheduleSeal();
    return { kind: 'committed', signature, record };
  }

  /** Simulates without committing anything, as simulateTransaction does. */
  simulateTransaction(input: Uint8Array | WireTransaction, options: SimulateOptions = {}): SimulationResult {
    const transaction = input instanceof Uint8Array ? parseWireTransaction(input) : input;
    const bytes = transaction.bytes;
    let executed = bytes;
    let replacement: RecentBlockhash | null = null;
    if (options.replaceRecentBlockhash === true) {
      replacement = this.blockhashes.latest();
      executed = new Uint8Array(bytes);
      executed.set(replacement.bytes, transaction.blockhashOffset);
    } else if (this.lifetimeOf(transaction) === null) {
      return { ...this.runtime.emptySimulation('BlockhashNotFound'), replacementBlockhash: null };
    }
    let sigVerify = options.sigVerify === true;
    if (replacement === null && setsNonceValue(transaction, (key) => this.runtime.addressOf(key))) {
      if (sigVerify && !signaturesVerify(transaction)) {
        return { ...this.runtime.emptySimulation('SignatureFailure'), replacementBlockhash: null };
      }
      const lifetime = this.lifetimeOf(transaction);
      const nextSlot = lifetime !== null && lifetime !== 'recent' && lifetime.setThisSlot;
      executed = withBlockhash(transaction, this.nonceBlockhash(nextSlot));
      sigVerify = false;
    }
    const simulation = this.runtime.simulate(transaction, executed, sigVerify);
    return {
      ...simulation,
      replacementBlockhash:
        replacement === null
          ? null
          : {
              blockhash: replacement.blockhash,
              lastValidBlockHeight: BigInt(replacement.slot + MAX_PROCESSING_AGE),
            },
    };
  }

  /**
   * Sends `lamports` from the treasury to `recipient` in a real, signed transfer (so it appears in
   * the signature log like any transaction) and returns its signature. As a validator's faucet
   * does: a legacy transaction holding one System transfer, sent without preflight, so a transfer
   * that fails on chain (below rent exemption for a new account) is committed with its error and
   * its signature returned. Identical requests get distinct transactions by taking the newest
   * blockhash that makes the signature new (ending the slot when none does).
   *
   * While the auto clock runs, the transfer lands as the slot being produced ends, and the promise
   * resolves then: a validator's RPC only queues the faucet's transaction for the banking stage,
   * which packs it into that slot, and it reads `confirmed` once the slot is complete and voted on,
   * 0–400 ms later. A client that subscribes to the recipient and airdrops without waiting for its
   * subscription (web3.js's live test "account change notification") relies on that delay. Other
   * transactions still end their slot as soon as they are confirmed. With a manual or stopped clock
   * (tests), the transfer lands at once.
   */
  async requestAirdrop(recipient: string, lamports: bigint): Promise<string> {
    if (lamports <= 0n) throw new AirdropError('airdrop amount must be positive');
    const instruction = airdropInstruction(this.treasury, recipient, lamports);
    // Slot 0 is the genesis block: the first transaction ends it, as sendTransaction does.
    if (this.currentSlot === 0) this.advanceSlots(1);
    const oldestValid = () => Math.max(this.history.firstRunSlot, this.currentSlot - MAX_PROCESSING_AGE + 1);
    for (let slot = this.currentSlot; ; slot -= 1) {
      if (slot < oldestValid()) {
        // Every blockhash of this run carries the same transfer: end the slot for a new one.
        this.advanceSlots(1);
        slot = this.currentSlot;
      }
      const recent = this.blockhashes.hashForSlot(slot);
      const { signature, bytes } = await signAirdropTransfer(this.treasury, instruction, recent);
      if (slot < oldestValid()) {
        // The slot clock ran on while it signed, past this blockhash's age: walk again from the newest.
        slot = this.currentSlot + 1;
        continue;
      }
      if (this.transactions.has(signature) || this.pendingAirdrops.has(signature)) continue;
      if (!this.slotClockRunning) return this.landAirdrop(bytes);
      return new Promise<string>((resolve, reject) => {
        this.pendingAirdrops.set(signature, { bytes, resolve, reject });
      });
    }
  }

  private landAirdrop(bytes: Uint8Array): string {
    const outcome = this.sendTransaction(bytes, { skipPreflight: true });
    if (outcome.kind === 'rejected') {
      throw new AirdropError(`airdrop transfer failed: ${JSON.stringify(outcome.err)}`);
    }
    return outcome.signature;
  }

  /** The airdrops requested during the slot land in it as it ends. */
  protected override endingSlot(): void {
    this.landPendingAirdrops();
  }

  /** Stops the auto clock; airdrops waiting for the slot's end land at once. */
  override stopSlotClock(): void {
    super.stopSlotClock();
    this.landPendingAirdrops();
  }

  private landPendingAirdrops(): void {
    if (this.pendingAirdrops.size === 0) return;
    const pending = [...this.pendingAirdrops.values()];
    this.pendingAirdrops.clear();
    for (const airdrop of pending) {
      try {
        airdrop.resolve(this.landAirdrop(airdrop.bytes));
      } catch (error) {
        airdrop.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /** Whether the cluster can accept transactions (false once a ledger write failed). */
  isHealthy(): boolean {
    return !this.closed && this.ledger?.error === undefined;
  }

  /** Whether everything committed so far is on disk (confirmed, in RPC terms). */
  get isDurable(): boolean {
    return this.ledger === null || this.ledger.isDurable;
  }

  /** Resolves once everything committed so far is on disk. */
  async flush(): Promise<void> {
    await this.ledger?.flush();
  }

  /** Stops the clock, records the slot and flushes the ledger. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stopSlotClock();
    this.ledger?.appendSlot(this.currentSlot);
    this.closed = true;
    try {
      await this.ledger?.close();
    } finally {
      await this.unlock();
    }
  }
}

function rejected(signature: string, err: TransactionErrorJson): SendOutcome {
  return {
    kind: 'rejected',
    signature,
    err,
    logs: [],
    unitsConsumed: 0n,
    innerInstructions: [],
    returnData: null,
  };
}
