import type { Exact } from '../money/exact';
import { emptyObjectArray } from './array-kinds';
import type { RuntimeFill } from './runtime-fill';
import type { RfqFastQuotes } from './rfq-fast';

/**
 * A backtest's fills in columns while it runs (a year of minutes fills tens of thousands of times):
 * numbers in typed arrays, the bigints that fit in 64 bits in BigInt64Arrays, the fee's and the
 * slippage's wide numerators in 64-bit limbs, the reasons (the strategy's strings) in a plain array.
 * A fill object (RuntimeFill, its mid, fee and slippage) is made when read (`at`, `toArray`), so the
 * run keeps no object a fill for the young generation to copy. A fill quoted on doubles (recordFast)
 * keeps its mid and value at the mid as doubles and its quote's key: its fee and slippage are made
 * from them when it is read.
 */
export class FillColumns {
  length = 0;
  private capacity = 0;
  private times = new Float64Array(0);
  /** A sell's lot's opening time; NaN for a buy. */
  private entryTimes = new Float64Array(0);
  private sells = new Uint8Array(0);
  private readonly baseAmounts = new BigColumn();
  private readonly quoteAmounts = new BigColumn();
  /** A sell's proceeds − its lot's cost; 0 for a buy. */
  private readonly pnls = new BigColumn();
  private midScales = new Int32Array(0);
  private readonly reasons: string[] = emptyObjectArray();
  /** A fill of recordFast: 1 + its quote's key (0 for record's). */
  private fastKeys = new Uint8Array(0);
  /** A fill's row in the columns of its kind (record's, or recordFast's). */
  private rows = new Int32Array(0);
  // record's fills, by row: their mid n, fee and slippage.
  private slowCount = 0;
  private slowCapacity = 0;
  private readonly midNs = new BigColumn();
  private readonly feeNs = new WideColumn();
  private feeScales = new Int32Array(0);
  private readonly slippageNs = new WideColumn();
  private slippageScales = new Int32Array(0);
  // recordFast's, by row: their mid n and value at the mid.
  private fastCount = 0;
  private fastCapacity = 0;
  private midNumbers = new Float64Array(0);
  private atMids = new Float64Array(0);

  /**
   * `quotes`: the fast quotes of recordFast's fills, which price their fee and slippage when read. A
   * runtime records fast fills only into columns holding its venue's own quotes (StrategyRuntime).
   */
  constructor(readonly quotes?: RfqFastQuotes) {}

  /** Appends a fill; `pnl` and `entryTime` for a sell (null and NaN for a buy). */
  record(
    time: number,
    sell: boolean,
    baseAmount: bigint,
    quoteAmount: bigint,
    mid: Exact,
    fee: Exact,
    slippage: Exact,
    reason: string,
    pnl: bigint,
    entryTime: number,
  ): void {
    const row = this.slowCount;
    if (row === this.slowCapacity) this.growSlow();
    this.midNs.set(row, mid.n);
    this.feeNs.set(row, fee.n);
    this.feeScales[row] = fee.scale;
    this.slippageNs.set(row, slippage.n);
    this.slippageScales[row] = slippage.scale;
    this.slowCount = row + 1;
    const i = this.append(time, sell, mid.scale, reason, entryTime, 0, row);
    this.baseAmounts.set(i, baseAmount);
    this.quoteAmounts.set(i, quoteAmount);
    this.pnls.set(i, pnl);
  }

  /**
   * Appends a fill the fast quotes priced (FastFills' last quote: its mid, value at the mid and key):
   * record's, its fee and slippage made when read. Its base and quote amounts are the quote's: the
   * base times the mid's integer (at least 1) is below 2^52, and the quote units below 2^30, so
   * both are stored without the test of a 64-bit range (two bigint comparisons each). Those bounds
   * are rfq-fast's MAX_AT_MID and MAX_RATIO: raising either past 2^63 would need the test back.
   */
  recordFast(
    time: number,
    sell: boolean,
    baseAmount: bigint,
    quoteAmount: bigint,
    quote: { readonly midN: number; readonly midScale: number; readonly atMid: number; readonly key: number },
    reason: string,
    pnl: bigint,
    entryTime: number,
  ): void {
    if (this.quotes === undefined) throw new TypeError('FillColumns: a fast fill needs the columns’ quotes');
    const row = this.fastCount;
    if (row === this.fastCapacity) this.growFast();
    this.midNumbers[row] = quote.midN;
    this.atMids[row] = quote.atMid;
    this.fastCount = row + 1;
    const i = this.append(time, sell, quote.midScale, reason, entryTime, 1 + quote.key, row);
    this.baseAmounts.setFitting(i, baseAmount);
    this.quoteAmounts.setFitting(i, quoteAmount);
    if (sell) this.pnls.set(i, pnl);
    else this.pnls.setFitting(i, pnl);
  }

  /**
   * The columns every fill has but its amounts and PnL (the caller's); `fastKey` 0 for a fill priced
   * exactly, `row` its row in its kind's columns. Returns the fill's index.
   */
  private append(
    time: number,
    sell: boolean,
    midScale: number,
    reason: string,
    entryTime: number,
    fastKey: number,
    row: number,
  ): number {
    const i = this.length;
    if (i === this.capacity) this.grow();
    this.times[i] = time;
    this.entryTimes[i] = entryTime;
    this.sells[i] = sell ? 1 : 0;
    this.midScales[i] = midScale;
    this.reasons.push(reason);
    this.fastKeys[i] = fastKey;
    this.rows[i] = row;
    this.length = i + 1;
    return i;
  }

  /** Fill `i`'s PnL: proceeds − the lot's cost for a sell, null for a buy. */
  pnlAt(i: number): bigint | null {
    return this.sells[i] === 1 ? this.pnls.get(i) : null;
  }

  /** Fill `i` as the runtime's fill object. */
  at(i: number): RuntimeFill {
    const sell = this.sells[i] === 1;
    const side = sell ? 'Sell' : 'Buy';
    const baseAmount = this.baseAmounts.get(i);
    const quoteAmount = this.quoteAmounts.get(i);
    let mid: Exact, fee: Exact, slippage: Exact;
    const fastKey = this.fastKeys[i]!;
    const row = this.rows[i]!;
    if (fastKey > 0) {
      mid = { n: BigInt(this.midNumbers[row]!), scale: this.midScales[i]! };
      const atMid = this.atMids[row]!;
      // recordFast refuses a fill without quotes: they are here.
      ({ fee, slippage } = this.quotes!.feeAndSlippage(fastKey - 1, sell, atMid, Number(quoteAmount)));
    } else {
      mid = { n: this.midNs.get(row), scale: this.midScales[i]! };
      fee = { n: this.feeNs.get(row), scale: this.feeScales[row]! };
      slippage = { n: this.slippageNs.get(row), scale: this.slippageScales[row]! };
    }
    return {
      time: this.times[i]!,
      side,
      baseAmount,
      quoteAmount,
      mid,
      fee,
      slippage,
      reason: this.reasons[i]!,
      pnl: sell ? this.pnls.get(i) : null,
      entryTime: sell ? this.entryTimes[i]! : null,
    };
  }

  /** Every fill as the runtime's fill objects, in order. */
  toArray(): RuntimeFill[] {
    const fills = new Array<RuntimeFill>(this.length);
    for (let i = 0; i < this.length; i += 1) fills[i] = this.at(i);
    return fills;
  }

  /** Four times the room (from 1,024 fills): a year of minutes' fills in three allocations a column. */
  private grow(): void {
    const capacity = Math.max(1024, this.capacity * 4);
    this.times = resized(this.times, new Float64Array(capacity));
    this.entryTimes = resized(this.entryTimes, new Float64Array(capacity));
    this.sells = resized(this.sells, new Uint8Array(capacity));
    this.midScales = resized(this.midScales, new Int32Array(capacity));
    this.fastKeys = resized(this.fastKeys, new Uint8Array(capacity));
    this.rows = resized(this.rows, new Int32Array(capacity));
    for (const column of [this.baseAmounts, this.quoteAmounts, this.pnls]) column.grow(capacity);
    this.capacity = capacity;
  }

  /**
   * Four times the room for record's fills (from 16) or recordFast's (from 1,024), each kind in its
   * own rows: a run whose fills are nearly all of one kind allocates little for the other (a typed
   * array's fresh pages cost more than copying it).
   */
  private growSlow(): void {
    const capacity = Math.max(16, this.slowCapacity * 4);
    this.feeScales = resized(this.feeScales, new Int32Array(capacity));
    this.slippageScales = resized(this.slippageScales, new Int32Array(capacity));
    this.midNs.grow(capacity);
    this.feeNs.grow(capacity);
    this.slippageNs.grow(capacity);
    this.slowCapacity = capacity;
  }

  private growFast(): void {
    const capacity = Math.max(1024, this.fastCapacity * 4);
    this.midNumbers = resized(this.midNumbers, new Float64Array(capacity));
    this.atMids = resized(this.atMids, new Float64Array(capacity));
    this.fastCapacity = capacity;
  }
}

function resized<T extends Float64Array | Uint8Array | Int32Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

const MIN_64 = -(2n ** 63n);
const MAX_64 = 2n ** 63n - 1n;

/** A column of bigints: in a BigInt64Array when they fit (no object kept), the rest by index. */
class BigColumn {
  private values = new BigInt64Array(0);
  private wide: Map<number, bigint> | null = null;

  set(i: number, value: bigint): void {
    if (value >= MIN_64 && value <= MAX_64) this.values[i] = value;
    else (this.wide ??= new Map()).set(i, value);
  }

  /** set() of a value the caller knows is within 64 bits. */
  setFitting(i: number, value: bigint): void {
    this.values[i] = value;
  }

  get(i: number): bigint {
    const { wide } = this;
    if (wide !== null) {
      const value = wide.get(i);
      if (value !== undefined) return value;
    }
    return this.values[i]!;
  }

  grow(capacity: number): void {
    const values = new BigInt64Array(capacity);
    values.set(this.values);
    this.values = values;
  }
}

const LIMBS = 4;
const LIMB = 64n;
/** 2^(64 × LIMBS): the magnitudes the limbs hold. */
const WIDE = 1n << (LIMB * BigInt(LIMBS));

/**
 * A column of wide bigints (a fill's fee and slippage numerators, ~130 bits): each magnitude in
 * LIMBS limbs of 64 bits, low first (a BigUint64Array keeps a limb's low 64 bits without a BigInt),
 * its sign apart; magnitudes past them by index.
 */
class WideColumn {
  private limbs = new BigUint64Array(0);
  /** 0 for zero, else the sign times the limbs used. */
  private counts = new Int8Array(0);
  private wide: Map<number, bigint> | null = null;

  set(i: number, value: bigint): void {
    let magnitude = value < 0n ? -value : value;
    if (magnitude >= WIDE) {
      (this.wide ??= new Map()).set(i, value);
      return;
    }
    const { limbs } = this;
    let k = 0;
    for (; magnitude !== 0n; k += 1) {
      limbs[i * LIMBS + k] = magnitude;
      magnitude >>= LIMB;
    }
    this.counts[i] = value < 0n ? -k : k;
  }

  get(i: number): bigint {
    const { wide } = this;
    if (wide !== null) {
      const value = wide.get(i);
      if (value !== undefined) return value;
    }
    const signed = this.counts[i]!;
    const count = signed < 0 ? -signed : signed;
    let magnitude = 0n;
    for (let k = count - 1; k >= 0; k -= 1) magnitude = (magnitude << LIMB) | this.limbs[i * LIMBS + k]!;
    return signed < 0 ? -magnitude : magnitude;
  }

  grow(capacity: number): void {
    const limbs = new BigUint64Array(capacity * LIMBS);
    limbs.set(this.limbs);
    this.limbs = limbs;
    const counts = new Int8Array(capacity);
    counts.set(this.counts);
    this.counts = counts;
  }
}
