import { Dec } from '../money/decimal';
import { OpenOrderIds } from './open-order-ids';
import { OrderBook } from './order-book';
import { BPS, PERP_MAX_SLIPPAGE_BPS, PERP_PRICE_BAND_BPS, type PerpSide } from './perp-math';
import { ceilQuot, MAX_UNITS, MAX_UNITS_BIG, unitsOf } from './perp-units';

// What the perp venue holds: its markets (rules, book, oracle), its accounts (collateral,
// positions, leverage settings, open orders) and its refusals. The commands that change them live
// beside this file: order entry, matching, settlement, funding and liquidation.

/** A perpetual market's fixed rules. */
export interface PerpMarketSpec {
  /** `SOL-PERP`. */
  readonly symbol: string;
  /** Decimal places of a size: one lot is 10^-sizeDecimals tokens. */
  readonly sizeDecimals: number;
  /** Price tick in USDC base units per token. */
  readonly tick: bigint;
  /** Smallest order, in lots. */
  readonly minSize: bigint;
  readonly maxLeverage: number;
}

export type PerpErrorCode =
  | 'MARKET_UNKNOWN'
  | 'MARKET_NO_PRICE'
  | 'SIZE_INVALID'
  | 'SIZE_BELOW_MIN'
  | 'PRICE_INVALID'
  | 'PRICE_OUT_OF_BAND'
  | 'LEVERAGE_INVALID'
  | 'LEVERAGE_MISMATCH'
  | 'LEVERAGE_UNDERMARGINED'
  | 'INSUFFICIENT_MARGIN'
  | 'POST_ONLY_WOULD_CROSS'
  | 'REDUCE_ONLY_NO_POSITION'
  | 'NO_LIQUIDITY'
  | 'ORDER_NOT_FOUND'
  | 'AMOUNT_INVALID'
  | 'INSUFFICIENT_COLLATERAL'
  | 'ACCOUNT_UNKNOWN'
  | 'TRIGGER_WRONG_SIDE'
  | 'TRIGGER_LIMIT'
  | 'TPSL_NO_POSITION';

/** A refusal: nothing changed. */
export class PerpError extends Error {
  override readonly name = 'PerpError';
  constructor(
    readonly code: PerpErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface PerpPosition {
  /** Signed lots: positive long, negative short. */
  size: bigint;
  /** The cash the position's fills moved (USDC base units; a long's is negative): entry = −quote/size. */
  quote: bigint;
  /** Funding paid (negative) or received over the position's life. */
  funding: bigint;
}

export interface PerpAccount {
  readonly id: string;
  /** Settled USDC base units: deposits, realized PnL, funding and fees. */
  collateral: bigint;
  readonly positions: Map<string, PerpPosition>;
  /**
   * The account's leverage setting per market (initial margin of its position and orders there);
   * a market without one is at {@link PERP_DEFAULT_LEVERAGE}. Only {@link PerpExchange.setLeverage}
   * changes it while the market has a position or open orders.
   */
  readonly leverage: Map<string, number>;
  /** Ids of its open orders, oldest first. */
  readonly orders: ReadonlySet<number>;
  /** Initial margin held by the open orders that add exposure (kept as they fill and cancel). */
  orderMargin: bigint;
}

export interface PerpFill {
  readonly market: string;
  readonly takerOrderId: number;
  readonly makerOrderId: number;
  readonly taker: string;
  readonly maker: string;
  /** The taker's side. */
  readonly side: PerpSide;
  readonly price: bigint;
  readonly size: bigint;
  readonly notional: bigint;
  readonly takerFee: bigint;
  readonly makerFee: bigint;
  /** PnL each side realized by this fill (position reduced or closed). */
  readonly takerRealized: bigint;
  readonly makerRealized: bigint;
  readonly liquidation: boolean;
  readonly at: number;
}

/** A stop or take-profit's kind: a stop fires when the oracle moves against the order's side, a take-profit when it moves for it. */
export type TriggerKind = 'stop_market' | 'take_profit_market';

/**
 * A trigger order: off the book until the market's oracle reaches `triggerPrice`, then a market
 * order (no further than 8 % from the oracle) of `size`, once, whatever its outcome.
 */
export interface TriggerOrder {
  readonly id: number;
  readonly market: string;
  readonly account: string;
  readonly side: PerpSide;
  readonly kind: TriggerKind;
  /** USDC base units per token, a multiple of the tick. */
  readonly triggerPrice: bigint;
  /** Lots. A position's TP/SL covers the whole position: its size follows the position's. */
  size: bigint;
  readonly reduceOnly: boolean;
  /** The position's take-profit or stop-loss (cancelled when it closes or flips), or null for a standalone order. */
  readonly attached: 'tp' | 'sl' | null;
  readonly createdAt: number;
}

/** The leverage of a market the account has not set one for (capped at the market's maximum). */
export const PERP_DEFAULT_LEVERAGE = 10;

export interface MarketState {
  readonly spec: PerpMarketSpec;
  /** The symbol's {@link symbolIndex}: where accounts keep their position and leverage here. */
  readonly index: number;
  /** 10^sizeDecimals: lots per token. */
  readonly scale: bigint;
  readonly book: OrderBook;
  /** Trigger orders waiting for the oracle, by id (oldest first). */
  readonly triggers: Map<number, TriggerOrder>;
  /** The oracle price (the market feed), in USDC base units per token; margins and PnL are marked to it. */
  oracle: bigint;
  lastPrice: bigint | null;
  /** Lots held long (= lots held short). */
  longLots: bigint;
  /** Cumulative traded notional. */
  volume: bigint;
  /**
   * What matching added to `longLots` and `volume` and they do not hold yet, as exact numbers
   * (reading either adds its own in): no bigint made per taker. Kept within ±(2^53 − 1).
   */
  longLotsPending: number;
  volumePending: number;
  lastFundingRate: Dec;
  /** `oracle`, `scale` and the tick as numbers for the hot path (NaN past 2^53: bigint is used then). */
  readonly oracleUnits: number;
  readonly scaleUnits: number;
  /** ⌈oracle / scale⌉: no lot is worth more at the oracle (a division-free bound; NaN past 2^52). */
  readonly lotValueCeil: number;
  readonly tickUnits: number;
  /**
   * The oracle band no fill may leave, and a market order's worst price each way (8 % from the
   * oracle, on the tick), as numbers, made when the oracle is set. Past 2^53 they are rounded (and
   * the limits capped), which changes no comparison with a price of a book: those are exact.
   */
  readonly bandLow: number;
  readonly bandHigh: number;
  readonly buyLimit: number;
  readonly sellLimit: number;
}

/**
 * What the venue's commands read and change ({@link PerpExchange} is one). An open order's market
 * is the book that holds it: the books are the only index of open orders.
 */
export interface PerpVenueState {
  readonly markets: Map<string, MarketState>;
  readonly accounts: Map<string, Account>;
  insurance: bigint;
  fees: bigint;
  /** Fees matching took that `fees` does not hold yet, as an exact number (reading `fees` adds them in). */
  feesPending: number;
  nextOrderId: number;
}

/**
 * Adds `amount` to a pending total kept as an exact number (`longLotsPending`, `volumePending`,
 * `feesPending`); answers NaN, changing nothing, when the sum would leave ±(2^53 − 1): the caller
 * then adds `amount` to the bigint total itself.
 */
export function pend(pending: number, amount: number): number {
  const sum = pending + amount;
  return sum <= MAX_UNITS && sum >= -MAX_UNITS ? sum : NaN;
}

/** A market's state; setting its oracle keeps the number the hot path reads in step. */
class Market implements MarketState {
  readonly scale: bigint;
  readonly index: number;
  readonly book = new OrderBook();
  readonly triggers = new Map<number, TriggerOrder>();
  lastPrice: bigint | null = null;
  longLotsPending = 0;
  volumePending = 0;
  private longLotsBig = 0n;
  private volumeBig = 0n;
  lastFundingRate = new Dec(0);
  oracleUnits = 0;
  readonly scaleUnits: number;
  lotValueCeil = NaN;
  readonly tickUnits: number;
  bandLow = 0;
  bandHigh = 0;
  buyLimit = 0;
  sellLimit = 0;
  private price = 0n;

  constructor(readonly spec: PerpMarketSpec) {
    this.index = symbolIndex(spec.symbol);
    this.scale = pow10(spec.sizeDecimals);
    this.scaleUnits = unitsOf(this.scale);
    this.tickUnits = unitsOf(spec.tick);
  }

  get longLots(): bigint {
    if (this.longLotsPending !== 0) {
      this.longLotsBig += BigInt(this.longLotsPending);
      this.longLotsPending = 0;
    }
    return this.longLotsBig;
  }

  set longLots(lots: bigint) {
    this.longLotsBig = lots;
    this.longLotsPending = 0;
  }

  get volume(): bigint {
    if (this.volumePending !== 0) {
      this.volumeBig += BigInt(this.volumePending);
      this.volumePending = 0;
    }
    return this.volumeBig;
  }

  set volume(notional: bigint) {
    this.volumeBig = notional;
    this.volumePending = 0;
  }

  get oracle(): bigint {
    return this.price;
  }

  set oracle(price: bigint) {
    this.price = price;
    this.oracleUnits = unitsOf(price);
    this.lotValueCeil = ceilQuot(this.oracleUnits, this.scaleUnits);
    const band = (price * PERP_PRICE_BAND_BPS) / BPS;
    this.bandLow = Number(price - band);
    this.bandHigh = Number(price + band);
    if (this.spec.tick <= 0n) return;
    const buy = slippageBound(this, 'buy');
    const sell = slippageBound(this, 'sell');
    this.buyLimit = buy > MAX_UNITS_BIG ? MAX_UNITS : Number(buy);
    this.sellLimit = sell > MAX_UNITS_BIG ? MAX_UNITS : Number(sell);
  }
}

export function newMarketState(spec: PerpMarketSpec): MarketState {
  return new Market(spec);
}

/** Market symbols as small whole numbers, one per symbol in the process: {@link MarketMap}'s slots. */
const SYMBOLS = new Map<string, number>();

export function symbolIndex(symbol: string): number {
  let index = SYMBOLS.get(symbol);
  if (index === undefined) {
    index = SYMBOLS.size;
    SYMBOLS.set(symbol, index);
  }
  return index;
}

/**
 * A map by market symbol that keeps its values in an array by {@link symbolIndex} too: the hot
 * path reads `slots[market.index]` (no hashing of the symbol), everyone else the map.
 */
export class MarketMap<V> extends Map<string, V> {
  readonly slots: (V | undefined)[] = [];

  override set(symbol: string, value: V): this {
    super.set(symbol, value);
    const index = symbolIndex(symbol);
    const slots = this.slots;
    while (slots.length <= index) slots.push(undefined);
    slots[index] = value;
    return this;
  }

  override delete(symbol: string): boolean {
    const index = SYMBOLS.get(symbol);
    if (index !== undefined && index < this.slots.length) this.slots[index] = undefined;
    return super.delete(symbol);
  }

  override clear(): void {
    this.slots.fill(undefined);
    super.clear();
  }
}

/**
 * A position as the venue keeps it: its size and quote as exact numbers while they fit
 * (perp-units.ts), NaN past 2^53 — the bigint then holds the value. Reading `size` or `quote`
 * answers the bigint either way; the hot path reads `lots` and `cash`.
 */
export class Position implements PerpPosition {
  /** `size` as a number (NaN past 2^53: `sizeBig` holds it). */
  lots = 0;
  /** `quote` as a number (NaN past 2^53: `quoteBig` holds it). */
  cash = 0;
  private sizeBig = 0n;
  private quoteBig = 0n;

  constructor(
    size: bigint,
    quote: bigint,
    public funding: bigint,
  ) {
    this.size = size;
    this.quote = quote;
  }

  get size(): bigint {
    return this.lots === this.lots ? BigInt(this.lots) : this.sizeBig;
  }

  set size(value: bigint) {
    this.lots = unitsOf(value);
    this.sizeBig = value;
  }

  get quote(): bigint {
    return this.cash === this.cash ? BigInt(this.cash) : this.quoteBig;
  }

  set quote(value: bigint) {
    this.cash = unitsOf(value);
    this.quoteBig = value;
  }

  toJSON(): PerpPosition {
    return { size: this.size, quote: this.quote, funding: this.funding };
  }
}

/**
 * An account as the venue keeps it: collateral and order margin as exact numbers while they fit,
 * as {@link Position} does (`units` and `held`, NaN past 2^53).
 */
export class Account implements PerpAccount {
  readonly positions = new MarketMap<Position>();
  readonly leverage = new MarketMap<number>();
  readonly orders = new OpenOrderIds();
  /** `collateral` as a number (NaN past 2^53: `collateralBig` holds it). */
  units = 0;
  /** `orderMargin` as a number (NaN past 2^53: `orderMarginBig` holds it). */
  held = 0;
  private collateralBig = 0n;
  private orderMarginBig = 0n;

  constructor(readonly id: string) {}

  get collateral(): bigint {
    return this.units === this.units ? BigInt(this.units) : this.collateralBig;
  }

  set collateral(value: bigint) {
    this.units = unitsOf(value);
    this.collateralBig = value;
  }

  get orderMargin(): bigint {
    return this.held === this.held ? BigInt(this.held) : this.orderMarginBig;
  }

  set orderMargin(value: bigint) {
    this.held = unitsOf(value);
    this.orderMarginBig = value;
  }

  /** Adds `amount` (an exact number) to the collateral. */
  credit(amount: number): void {
    const sum = this.units + amount;
    if (sum <= MAX_UNITS && sum >= -MAX_UNITS) this.units = sum;
    else this.collateral = this.collateral + BigInt(amount);
  }

  /** Adds `amount` (an exact number) to the order margin. */
  hold(amount: number): void {
    const sum = this.held + amount;
    if (sum <= MAX_UNITS && sum >= -MAX_UNITS) this.held = sum;
    else this.orderMargin = this.orderMargin + BigInt(amount);
  }

  toJSON(): PerpAccount {
    const { id, collateral, positions, leverage, orders, orderMargin } = this;
    return { id, collateral, positions, leverage, orders, orderMargin };
  }
}

export function newAccount(id: string): Account {
  return new Account(id);
}

export function marketOf(venue: PerpVenueState, symbol: string): MarketState {
  const market = venue.markets.get(symbol);
  if (!market) throw new PerpError('MARKET_UNKNOWN', `No perpetual market ${symbol}`);
  return market;
}

export function accountOf(venue: PerpVenueState, id: string): Account {
  const account = venue.accounts.get(id);
  if (!account)
    throw new PerpError('ACCOUNT_UNKNOWN', 'No futures account: initialize it with a first deposit');
  return account;
}

export const abs = (n: bigint) => (n < 0n ? -n : n);
export const sign = (n: bigint) => (n < 0n ? -1n : n > 0n ? 1n : 0n);
const POW10: readonly bigint[] = Array.from({ length: 40 }, (_, k) => 10n ** BigInt(k));
export const pow10 = (k: number) => POW10[k] ?? 10n ** BigInt(k);
/** Small whole numbers (leverages, their doubles) as bigints, made once rather than per order. */
const SMALL: readonly bigint[] = Array.from({ length: 1_001 }, (_, n) => BigInt(n));
/** `BigInt(n)` for a whole number, from the table when it is small. */
export const bigOf = (n: number): bigint => SMALL[n] ?? BigInt(n);

/** A market order's worst price: 8 % from the oracle, on the tick. */
export function slippageBound(market: MarketState, side: PerpSide): bigint {
  const { oracle, spec } = market;
  const offset = (oracle * PERP_MAX_SLIPPAGE_BPS) / BPS;
  return side === 'buy'
    ? ((oracle + offset) / spec.tick) * spec.tick
    : ceilToTick(oracle - offset, spec.tick);
}

export function ceilToTick(price: bigint, tick: bigint): bigint {
  return ((price + tick - 1n) / tick) * tick;
}
