import type { Dec } from '../money/decimal';
import { add, exactOfNumber, ExactSum, exactUnits, mul, type Exact } from '../money/exact';
import type { CandleSeries } from '../market/candle-series';
import type {
  BatchStrategyInstance,
  CandleView,
  OrderIntent,
  PositionView,
  RiskRules,
  SignalStrategyInstance,
  Sizing,
  StrategyInstance,
} from './strategy';
import { BUY_SIGNAL, EXIT_SIGNAL } from './strategy';
import { lotsAtRisk, nextRiskIndex, riskBounds, thresholdOf, type Lot } from './lot';
import { emptyObjectArray } from './array-kinds';
import type { FillColumns } from './fill-columns';
import { FastFills } from './rfq-fast';
import { checkIntent, type RuntimeFill } from './runtime-fill';
import { seriesCandle, type SeriesCandle } from './series-candle';
import { sizedBuy, sizingAmounts } from './sizing';
import { slippageOf, type VenuePort } from './venue';

/** A fill and its slippage (slippageOf). */
interface PricedFill {
  readonly quoteAmount: bigint;
  readonly fee: Exact;
  readonly slippage: Exact;
}

export type { Lot } from './lot';
export { fillDecimals, fillPrice, StrategyError, type RuntimeFill } from './runtime-fill';
export {
  buyWithin,
  fixedCostVenue,
  MAX_COST_BPS,
  rfqVenue,
  slippageOf,
  type VenueFill,
  type VenuePort,
} from './venue';

export interface RuntimeOptions {
  /** A per-candle strategy for `onCandle`; a batched one drives the runtime through `act` instead. */
  readonly strategy: StrategyInstance | BatchStrategyInstance;
  readonly risk: RiskRules;
  readonly venue: VenuePort;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** Quote base units the bot starts with. */
  readonly initialCash: bigint;
  /** Where the fills go instead of `fills` (a backtest's, read once it is done). */
  readonly fillColumns?: FillColumns;
}

const REASON_MAX = 80;

/**
 * Runs one strategy over closed candles, one at a time, for backtests and live bots alike. On each
 * candle it first closes the lots the risk rules hit inside the candle (stop loss against the low,
 * take profit against the high, the stop first when both are hit: the worse case; a gap through the
 * level fills at the open), then asks the strategy, then applies its intent at the candle's close:
 * the strategy never sees a candle before it has closed, and no fill uses a later candle.
 * Cash and lots are exact (quote and base units); fills are priced by the venue port.
 */
export class StrategyRuntime {
  cash: bigint;
  readonly lots: Lot[] = emptyObjectArray();
  /** The fills so far (none when they go to the options' fillColumns). */
  readonly fills: RuntimeFill[] = [];
  private readonly fillColumns: FillColumns | null;
  /** The venue's fast quotes, for fills into fillColumns holding the same quotes. */
  private readonly fast: FastFills | null;
  /** 10^quoteDecimals and 10^baseDecimals as doubles (a lot's entry price as a double). */
  private readonly quoteUnit: number;
  private readonly baseUnit: number;
  private readonly feeSum = new ExactSum();
  private readonly slippageSum = new ExactSum();
  /** Buy intents refused for want of cash or past max positions. */
  refusedBuys = 0;
  /** Of those, refused because the buy cost more than the cash (or the venue gave no price). */
  unfundedBuys = 0;
  /** The first unfunded buy: what it would have cost and the cash then, quote base units. */
  firstUnfunded: { cost: bigint; cash: bigint } | null = null;
  private readonly sizing: Sizing;
  /** fixed_base: base units a lot buys. */
  private readonly baseAmount: bigint;
  /** fixed_quote: quote units a lot spends at most. */
  private readonly budgetUnits: bigint;
  /** percent_equity: the percent, exact. */
  private readonly percent: Exact;
  /** Signed percent of the stop (negative) and take-profit levels, exact and as doubles. */
  private readonly stopPercent: { exact: Dec; approx: number } | null;
  private readonly takePercent: { exact: Dec; approx: number } | null;
  private readonly position: { openLots: number; maxPositions: number; lastEntryPrice: number };
  /** riskBounds of the open lots: a candle with low > [0] and high < [1] closes none (clearOfRisk). */
  readonly bounds = Float64Array.of(-Infinity, Infinity);
  // Doubles from the start (0.5, not 0): their fields then hold doubles in place, never re-boxed.
  private readonly candle = { time: 0.5, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 0.5 };
  private readonly riskCandle = { time: 0.5, open: 0.5, high: 0.5, low: 0.5 };
  private cursor: SeriesCandle | undefined;
  private readonly checkedIntents = new Map<OrderIntent, OrderIntent>();

  constructor(private readonly options: RuntimeOptions) {
    const { risk } = options;
    ({
      sizing: this.sizing,
      baseAmount: this.baseAmount,
      budgetUnits: this.budgetUnits,
      percent: this.percent,
    } = sizingAmounts(risk, options));
    this.cash = options.initialCash;
    this.fillColumns = options.fillColumns ?? null;
    // Fast fills price their fee and slippage from the columns' quotes when read: only columns that
    // hold the venue's own quotes take them (other columns get every fill priced with bigints).
    const { fastQuotes } = options.venue;
    const fastColumns = fastQuotes !== undefined && this.fillColumns?.quotes === fastQuotes;
    this.fast = fastColumns ? new FastFills(fastQuotes) : null;
    this.quoteUnit = 10 ** options.quoteDecimals;
    this.baseUnit = 10 ** options.baseDecimals;
    const signed = (percent: Dec | null, sign: 1 | -1) =>
      percent ? { exact: percent.times(sign), approx: sign * Number(percent.toString()) } : null;
    this.stopPercent = signed(risk.stopLossPercent, -1);
    this.takePercent = signed(risk.takeProfitPercent, 1);
    this.position = { openLots: 0, maxPositions: risk.maxPositions, lastEntryPrice: Number.NaN };
  }

  /** Venue fees paid, whole quote tokens, exact. */
  get fees(): Exact {
    return this.sums()[0].value;
  }

  /** Slippage paid (slippageOf of every fill), whole quote tokens, exact. */
  get slippage(): Exact {
    return this.sums()[1].value;
  }

  /** The fees' and slippage's sums with the fast fills'. */
  private sums(): [ExactSum, ExactSum] {
    if (this.fast === null) return [this.feeSum, this.slippageSum];
    const fees = new ExactSum();
    const slippage = new ExactSum();
    fees.add(this.feeSum.value);
    slippage.add(this.slippageSum.value);
    this.fast.sums.addTo(fees, slippage);
    return [fees, slippage];
  }

  /** Feeds one closed candle (doubles carrying the wire's decimals) to a per-candle strategy. */
  onCandle(time: number, open: number, high: number, low: number, close: number, volume: number): void {
    const candle = this.candle;
    candle.time = time;
    candle.open = open;
    candle.high = high;
    candle.low = low;
    candle.close = close;
    candle.volume = volume;
    this.feed(candle);
  }

  /**
   * onCandle for candle `i` of `series`: the strategy reads it through a view of the columns, so the
   * backtest's loop moves an index rather than storing six doubles a candle (each boxed anew).
   */
  onSeriesCandle(series: CandleSeries, i: number): void {
    if (this.cursor?.series !== series) this.cursor = seriesCandle(series);
    this.cursor.at.i = i;
    this.feed(this.cursor.view);
  }

  /** The risk rules, then the strategy, on the candle in `this.candle`. */
  private feed(candle: CandleView): void {
    if (this.lots.length > 0) this.closeHit(candle);
    const strategy = this.options.strategy;
    if ('batched' in strategy) throw new TypeError('a batched strategy is fed with onCandles, not onCandle');
    const intent = strategy.onCandle(candle, this.position);
    if (intent !== null && intent !== undefined) this.apply(checkIntent(intent), candle.time, candle.close);
  }

  /**
   * Candle `i` of `series` for a signal strategy whose `signals` gave `signal` for it: the risk rules,
   * then the intent onCandle would have returned (without the candle view or an intent to check).
   */
  onSignal(series: CandleSeries, i: number, signal: number, strategy: SignalStrategyInstance): void {
    const time = series.time[i]!;
    if (this.lots.length > 0 && lotsAtRisk(this.lots, series, i))
      this.closeAtRisk(time, series.open[i]!, series.high[i]!, series.low[i]!);
    if (signal === 0) return;
    const { openLots, maxPositions } = this.position;
    if (signal & BUY_SIGNAL && openLots < maxPositions)
      this.apply(this.checked(strategy.buyIntent), time, series.close[i]!);
    else if (signal & EXIT_SIGNAL && openLots > 0)
      this.apply(this.checked(strategy.exitIntent), time, series.close[i]!);
  }

  /** checkIntent of a signal strategy's intent, once per intent (they are the strategy's constants). */
  private checked(intent: OrderIntent): OrderIntent {
    let checked = this.checkedIntents.get(intent);
    if (checked === undefined) {
      checked = checkIntent(intent);
      this.checkedIntents.set(intent, checked);
    }
    return checked;
  }

  /** Cash plus the open lots at `mid` (a double carrying a decimal), whole quote tokens, exact. */
  equityAt(mid: number): Exact {
    return this.equityOf(exactOfNumber(mid));
  }

  /** Cash plus the open lots at `mid`, whole quote tokens, exact. */
  equityOf(mid: Exact): Exact {
    const base = this.heldBase();
    const cash = exactUnits(this.cash, this.options.quoteDecimals);
    if (base === 0n) return cash;
    return add(cash, mul(exactUnits(base, this.options.baseDecimals), mid));
  }

  /** Base units in the open lots. */
  heldBase(): bigint {
    const { lots } = this;
    if (lots.length === 1) return lots[0]!.baseAmount;
    let base = 0n;
    for (let k = 0; k < lots.length; k += 1) base += lots[k]!.baseAmount;
    return base;
  }

  /** What the strategy sees of its position (live: it changes with each fill). */
  get positionView(): PositionView {
    return this.position;
  }

  /** Applies what a strategy returned for the candle at `time` (checked: user code may return anything). */
  act(intent: unknown, time: number, close: number): void {
    if (intent !== null && intent !== undefined) this.apply(checkIntent(intent), time, close);
  }

  /**
   * The first candle index in [from, to) at which the risk rules would close an open lot (`to` when
   * none): until then nothing but the strategy can change the position.
   */
  nextRiskIndex(series: { low: Float64Array; high: Float64Array }, from: number, to: number): number {
    return nextRiskIndex(this.lots, series, from, to);
  }

  /**
   * Closes the lots the risk rules hit inside the candle at `time` (lots opened before it): stop loss
   * against the low first (the worse case), then take profit against the high; a gap through the
   * level fills at the open.
   */
  closeAtRisk(time: number, open: number, high: number, low: number): void {
    const candle = this.riskCandle;
    candle.time = time;
    candle.open = open;
    candle.high = high;
    candle.low = low;
    this.closeHit(candle);
  }

  /** Whether no lot's risk rule can close it at a candle of that low and high (the doubles decide). */
  clearOfRisk(low: number, high: number): boolean {
    return low > this.bounds[0]! && high < this.bounds[1]!;
  }

  private closeHit(candle: Pick<CandleView, 'time' | 'open' | 'high' | 'low'>): void {
    const { time } = candle;
    for (let i = 0; i < this.lots.length;) {
      const lot = this.lots[i]!;
      if (lot.openedAt >= time) {
        i += 1;
        continue;
      }
      let exit: { mid: Exact; reason: string } | null = null;
      if (lot.stop && lot.stop.compare(candle.low) <= 0) {
        const gapped = lot.stop.compare(candle.open) <= 0;
        exit = { mid: gapped ? exactOfNumber(candle.open) : lot.stop.exactLevel, reason: 'stop loss' };
      } else if (lot.take && lot.take.compare(candle.high) >= 0) {
        const gapped = lot.take.compare(candle.open) >= 0;
        exit = { mid: gapped ? exactOfNumber(candle.open) : lot.take.exactLevel, reason: 'take profit' };
      }
      if (exit && this.closeLot(i, time, exit.mid, exit.reason)) continue;
      i += 1;
    }
  }

  private apply(intent: OrderIntent, time: number, close: number): void {
    const reason = intent.reason ? String(intent.reason).slice(0, REASON_MAX) : intent.action;
    if (intent.action === 'buy' && this.lots.length >= this.options.risk.maxPositions) {
      this.refusedBuys += 1;
      return;
    }
    if (intent.action !== 'buy' && this.lots.length === 0) return;
    if (intent.action === 'buy') {
      if (!this.openFast(time, close, reason)) this.openLot(time, exactOfNumber(close), reason);
    } else if (intent.action === 'sell') {
      if (!this.closeFast(time, close, reason)) this.closeLot(0, time, exactOfNumber(close), reason);
    } else {
      while (
        this.lots.length > 0 &&
        (this.closeFast(time, close, reason) || this.closeLot(0, time, exactOfNumber(close), reason))
      );
    }
  }

  /** openLot at the decimal of `close` for a fixed_base lot, quoted fast; false when it needs bigints. */
  private openFast(time: number, close: number, reason: string): boolean {
    const { fast } = this;
    if (fast === null || this.sizing.mode !== 'fixed_base') return false;
    const units = fast.quote(false, this.baseAmount, close);
    if (units < 0) return false;
    const cost = BigInt(units);
    // Refused: openLot refuses it again and keeps why.
    if (cost > this.cash) return false;
    fast.commit(false, units);
    this.cash -= cost;
    this.pushLot(time, this.baseAmount, cost);
    this.fillColumns!.recordFast(time, false, this.baseAmount, cost, fast, reason, 0n, Number.NaN);
    return true;
  }

  /** closeLot(0) at the decimal of `close`, quoted fast; false when it needs bigints. */
  private closeFast(time: number, close: number, reason: string): boolean {
    const { fast } = this;
    if (fast === null) return false;
    const lot = this.lots[0]!;
    const units = fast.quote(true, lot.baseAmount, close);
    if (units < 0) return false;
    fast.commit(true, units);
    const proceeds = BigInt(units);
    this.lots.shift();
    this.cash += proceeds;
    this.syncPosition();
    const pnl = proceeds - lot.cost;
    this.fillColumns!.recordFast(time, true, lot.baseAmount, proceeds, fast, reason, pnl, lot.openedAt);
    return true;
  }

  /** A fill of `baseAmount` at `mid` and its slippage; null when the venue refuses it. */
  private priced(side: 'Buy' | 'Sell', baseAmount: bigint, mid: Exact): PricedFill | null {
    const { venue } = this.options;
    if (venue.priced) return venue.priced(side, baseAmount, mid);
    const fill = venue.fill(side, baseAmount, mid);
    if (!fill) return null;
    const slippage = slippageOf(side, baseAmount, fill.quoteAmount, mid, fill.fee, this.options);
    return { quoteAmount: fill.quoteAmount, fee: fill.fee, slippage };
  }

  /** The buy a fixed_quote or percent_equity sizing makes at `mid` (null: the venue refuses, or not one base unit fits). */
  private sizedBuy(mid: Exact): { baseAmount: bigint; fill: PricedFill } | null {
    const amounts = { sizing: this.sizing, budgetUnits: this.budgetUnits, percent: this.percent };
    return sizedBuy(amounts, this.cash, this.heldBase(), mid, this.options);
  }

  private openLot(time: number, mid: Exact, reason: string): void {
    let baseAmount = this.baseAmount;
    let fill: PricedFill | null;
    if (this.sizing.mode === 'fixed_base') fill = this.priced('Buy', baseAmount, mid);
    else {
      const sized = this.sizedBuy(mid);
      fill = sized?.fill ?? null;
      if (sized) baseAmount = sized.baseAmount;
    }
    if (!fill || fill.quoteAmount > this.cash) {
      this.refusedBuys += 1;
      this.unfundedBuys += 1;
      if (fill) this.firstUnfunded ??= { cost: fill.quoteAmount, cash: this.cash };
      return;
    }
    this.cash -= fill.quoteAmount;
    this.feeSum.add(fill.fee);
    this.slippageSum.add(fill.slippage);
    this.pushLot(time, baseAmount, fill.quoteAmount);
    this.keep(time, baseAmount, mid, fill, reason, null, null);
  }

  /** A lot opened at `time` for `cost` quote units. */
  private pushLot(time: number, baseAmount: bigint, cost: bigint): void {
    const entryApprox = Number(cost) / this.quoteUnit / (Number(baseAmount) / this.baseUnit);
    this.lots.push({
      baseAmount,
      cost,
      openedAt: time,
      entryApprox,
      stop: thresholdOf(this.stopPercent, entryApprox, cost, baseAmount, this.options),
      take: thresholdOf(this.takePercent, entryApprox, cost, baseAmount, this.options),
    });
    this.syncPosition();
  }

  /** Sells lot `index` at `mid`; false when the venue refuses (the lot stays open). */
  private closeLot(index: number, time: number, mid: Exact, reason: string): boolean {
    const lot = this.lots[index]!;
    const fill = this.priced('Sell', lot.baseAmount, mid);
    if (!fill) return false;
    if (index === 0) this.lots.shift();
    else this.lots.splice(index, 1);
    this.cash += fill.quoteAmount;
    this.feeSum.add(fill.fee);
    this.slippageSum.add(fill.slippage);
    this.syncPosition();
    this.keep(time, lot.baseAmount, mid, fill, reason, fill.quoteAmount - lot.cost, lot.openedAt);
    return true;
  }

  /** A fill into the options' columns, or into `fills`; a buy has no pnl or entry time. */
  private keep(
    time: number,
    baseAmount: bigint,
    mid: Exact,
    fill: PricedFill,
    reason: string,
    pnl: bigint | null,
    entryTime: number | null,
  ): void {
    const { quoteAmount, fee, slippage } = fill;
    if (this.fillColumns !== null) {
      this.fillColumns.record(
        time,
        pnl !== null,
        baseAmount,
        quoteAmount,
        mid,
        fee,
        slippage,
        reason,
        pnl ?? 0n,
        entryTime ?? Number.NaN,
      );
      return;
    }
    const side = pnl === null ? 'Buy' : 'Sell';
    this.fills.push({ time, side, baseAmount, quoteAmount, mid, fee, slippage, reason, pnl, entryTime });
  }

  private syncPosition(): void {
    const open = this.lots.length;
    this.position.openLots = open;
    // Not lots[open − 1] when there is none: an array read at −1 is a property lookup, not an element's.
    this.position.lastEntryPrice = open > 0 ? this.lots[open - 1]!.entryApprox : Number.NaN;
    riskBounds(this.lots, this.bounds);
  }
}
