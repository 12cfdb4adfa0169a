/**
 * The cluster's durable log: one JSON line per committed transaction (its signature-log entry and
 * the post-state of every account it may have written), per out-of-band account write, and a slot
 * marker now and then. Appends are group-committed: lines queue in memory and a single writer
 * appends and fdatasyncs them in batches, so the request path never waits on the disk and a burst
 * of transactions costs one fsync. Replaying the file rebuilds accounts, signatures and the slot.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, stat, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { TransactionErrorJson } from './transaction-error';

/** [address, lamports, owner, executable (0/1), data (base64), rentEpoch]; lamports "0" = deleted. */
export type AccountStateTuple = [string, string, string, 0 | 1, string, string];

export interface StoredTokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string;
  readonly programId: string;
  readonly amount: string;
  readonly decimals: number;
}

export interface StoredInnerInstruction {
  readonly programIdIndex: number;
  readonly accounts: number[];
  /** base58, as RPC returns it. */
  readonly data: string;
  readonly stackHeight: number;
}

/** One signature-log entry: everything getTransaction and getSignatureStatuses answer from. */
export interface TransactionRecord {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number;
  readonly err: TransactionErrorJson | null;
  /** Lamports, decimal text (u64). */
  readonly fee: string;
  readonly logs: readonly string[];
  /** The wire transaction, base64. */
  readonly transaction: string;
  readonly loadedAddresses: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
  readonly preBalances: readonly string[];
  readonly postBalances: readonly string[];
  readonly preTokenBalances: readonly StoredTokenBalance[];
  readonly postTokenBalances: readonly StoredTokenBalance[];
  readonly computeUnitsConsumed: number;
  readonly innerInstructions: readonly { index: number; instructions: StoredInnerInstruction[] }[];
  readonly returnData: { readonly programId: string; readonly data: string } | null;
}

type LedgerLine =
  | { t: 'tx'; r: TransactionRecord; a: AccountStateTuple[] }
  | { t: 'accounts'; a: AccountStateTuple[] }
  | { t: 'slot'; s: number };

/** What a replay of the log yields. */
export interface LedgerReplay {
  /** Latest state per address, in the order last written. */
  readonly accounts: Map<string, AccountStateTuple>;
  readonly transactions: TransactionRecord[];
  /** Highest slot seen in a marker or a transaction, or -1 for an empty log. */
  readonly lastSlot: number;
  /** Slot of the last marker, or -1. */
  readonly lastMarkerSlot: number;
}

export const LEDGER_FILE = 'ledger.jsonl';

export interface LedgerOptions {
  /** fdatasync every batch (default true). Off only where durability does not matter. */
  readonly fsync?: boolean;
  readonly onError?: (error: unknown) => void;
}

export class Ledger {
  private pending: string[] = [];
  private appendedSeq = 0;
  private durable = 0;
  private writing = false;
  private scheduled = false;
  private closed = false;
  private failure: unknown;
  private waiters: { seq: number; resolve: () => void; reject: (error: unknown) => void }[] = [];

  private constructor(
    private readonly handle: FileHandle,
    private readonly options: LedgerOptions,
  ) {}

  /** Opens (creating if needed) the ledger in `dataDir` and replays what it holds. */
  static async open(
    dataDir: string,
    options: LedgerOptions = {},
  ): Promise<{ ledger: Ledger; replay: LedgerReplay }> {
    await mkdir(dataDir, { recursive: true });
    const path = join(dataDir, LEDGER_FILE);
    const replay = await replayLedgerFile(path);
    const handle = await open(path, 'a');
    return { ledger: new Ledger(handle, options), replay };
  }

  /** Sequence number of the newest entry that is on disk. */
  get durableSeq(): number {
    return this.durable;
  }

  /** Whether every entry appended so far is on disk. */
  get isDurable(): boolean {
    return this.durable >= this.appendedSeq;
  }

  /** Set once a write failed; the cluster then reports itself unhealthy. */
  get error(): unknown {
    return this.failure;
  }

  /** Queues a committed transaction; returns its sequence number. */
  appendTransaction(record: TransactionRecord, accounts: AccountStateTuple[]): number {
    return this.appendText(serializeTransactionLine(record, accounts));
  }

  /** Queues account writes made outside a transaction (tests, tooling). */
  appendAccounts(accounts: AccountStateTuple[]): number {
    return this.append({ t: 'accounts', a: accounts });
  }

  /** Queues a slot marker, so a restart resumes at or after this slot. */
  appendSlot(slot: number): number {
    return this.append({ t: 'slot', s: slot });
  }

  /** Resolves once every entry queued so far is on disk. */
  flush(): Promise<void> {
    return this.whenDurable(this.appendedSeq);
  }

  /**
   * Resolves once the entry `seq` is on disk, in the same turn that makes it durable (so whatever
   * waits on it runs before any later request can see the entry as durable).
   */
  whenDurable(seq: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.durable >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      await this.handle.close();
    }
  }

  private append(line: LedgerLine): number {
    return this.appendText(JSON.stringify(line));
  }

  private appendText(line: string): number {
    if (this.closed) throw new Error('the ledger is closed');
    this.pending.push(`${line}\n`);
    this.appendedSeq += 1;
    if (!this.writing && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.drain());
    }
    return this.appendedSeq;
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.pending.length > 0 && this.failure === undefined) {
        const chunk = this.pending.join('');
        const upTo = this.appendedSeq;
        this.pending = [];
        await this.handle.write(chunk);
        if (this.options.fsync !== false) await this.handle.datasync();
        this.durable = upTo;
        this.settleWaiters();
      }
    } catch (error) {
      this.failure = error;
      this.options.onError?.(error);
      for (const waiter of this.waiters) waiter.reject(error);
      this.waiters = [];
    } finally {
      this.writing = false;
    }
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    const remaining: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= this.durable) waiter.resolve();
      else remaining.push(waiter);
    }
    this.waiters = remaining;
  }
}

/**
 * The ledger line of a committed transaction, written by hand because JSON.stringify of this shape
 * costs ~10 µs per transaction on the hot path. Fields that are base58, base64 or decimal text
 * need no escaping and are spliced in directly; anything else goes through JSON.stringify.
 * `JSON.parse` of the result equals `{ t: 'tx', r: record, a: accounts }` (tested).
 */
export function serializeTransactionLine(
  record: TransactionRecord,
  accounts: readonly AccountStateTuple[],
): string {
  let states = '';
  for (let index = 0; index < accounts.length; index += 1) {
    const [address, lamports, owner, executable, data, rentEpoch] = accounts[index]!;
    states += `${index === 0 ? '' : ','}["${address}","${lamports}","${owner}",${executable},"${data}","${rentEpoch}"]`;
  }
  const json = JSON.stringify;
  return (
    `{"t":"tx","r":{"signature":"${record.signature}","slot":${record.slot},"blockTime":${record.blockTime},` +
    `"err":${json(record.err)},"fee":"${record.fee}","logs":${json(record.logs)},"transaction":"${record.transaction}",` +
    `"loadedAddresses":${json(record.loadedAddresses)},"preBalances":${quoteAll(record.preBalances)},` +
    `"postBalances":${quoteAll(record.postBalances)},"preTokenBalances":${json(record.preTokenBalances)},` +
    `"postTokenBalances":${json(record.postTokenBalances)},"computeUnitsConsumed":${record.computeUnitsConsumed},` +
    `"innerInstructions":${json(record.innerInstructions)},"returnData":${json(record.returnData)}},"a":[${states}]}`
  );
}

function quoteAll(values: readonly string[]): string {
  let out = '[';
  for (let index = 0; index < values.length; index += 1)
    out += `${index === 0 ? '' : ','}"${values[index]!}"`;
  return `${out}]`;
}

/**
 * Reads a ledger file. A torn last line (a crash mid-append) is cut off so later appends start on a
 * fresh line; a corrupt line anywhere else is an error, never silently skipped.
 */
export async function replayLedgerFile(path: string): Promise<LedgerReplay> {
  const replay: LedgerReplay & { lastSlot: number; lastMarkerSlot: number } = {
    accounts: new Map(),
    transactions: [],
    lastSlot: -1,
    lastMarkerSlot: -1,
  };
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return replay;
    throw error;
  }
  let carry = '';
  let consumedBytes = 0;
  let lineNumber = 0;
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = carry + chunk;
    let start = 0;
    for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
      const line = text.slice(start, end);
      lineNumber += 1;
      consumedBytes += Buffer.byteLength(line) + 1;
      if (line.length > 0) applyLine(replay, line, path, lineNumber);
      start = end + 1;
    }
    carry = text.slice(start);
  }
  if (consumedBytes < size) await truncate(path, consumedBytes);
  return replay;
}

function applyLine(
  replay: LedgerReplay & { lastSlot: number; lastMarkerSlot: number },
  line: string,
  path: string,
  lineNumber: number,
): void {
  let entry: LedgerLine;
  try {
    entry = JSON.parse(line) as LedgerLine;
  } catch {
    throw new Error(`${path}:${lineNumber} is not valid JSON; the ledger is corrupt`);
  }
  if (entry.t === 'slot') {
    replay.lastMarkerSlot = Math.max(replay.lastMarkerSlot, entry.s);
    replay.lastSlot = Math.max(replay.lastSlot, entry.s);
    return;
  }
  if (entry.t === 'tx') {
    replay.transactions.push(entry.r);
    replay.lastSlot = Math.max(replay.lastSlot, entry.r.slot);
  }
  for (const state of entry.a) {
    // Delete first so the map's order is the order of the latest writes.
    replay.accounts.delete(state[0]);
    replay.accounts.set(state[0], state);
  }
}
