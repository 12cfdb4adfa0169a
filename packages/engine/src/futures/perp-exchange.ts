import { Dec } from '../money/decimal';
import { OrderBook, type RestingOrder } from './order-book';
import {
  allocate,
  BPS,
  ceilDiv,
  crossLiquidationPrice,
  feeOf,
  initialMargin,
  maintenanceMargin,
  notionalOf,
  PERP_LIQUIDATION_FEE_BPS,
  PERP_MAKER_FEE_BPS,
  PERP_MAX_SLIPPAGE_BPS,
  PERP_PRICE_BAND_BPS,
  PERP_TAKER_FEE_BPS,
  type PerpSide,
} from './perp-math';

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
  | 'ACCOUNT_UNKNOWN';

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
  readonly orders: Set<number>;
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

export interface PlaceOrderInput {
  account: string;
  market: string;
  side: PerpSide;
  type: 'market' | 'limit';
  /** Lots. */
  size: bigint;
  /** A limit order's price (USDC base units per token, a multiple of the tick). */
  price?: bigint;
  /**
   * The leverage the trader expects. It must equal the account's setting for the market while the
   * account has a position or open orders there (LEVERAGE_MISMATCH otherwise); with nothing open it
   * becomes the setting, once the order is accepted. Absent: the setting.
   */
  leverage?: number;
  reduceOnly?: boolean;
  postOnly?: boolean;
  /** Immediate or cancel: what does not fill at once is dropped. */
  ioc?: boolean;
  at: number;
}

export interface PlaceOrderResult {
  orderId: number;
  fills: PerpFill[];
  /** Lots left resting in the book (0 for market and IOC orders). */
  resting: bigint;
  /** Own resting orders cancelled by self-trade prevention or as reduce-only orders with nothing to reduce. */
  cancelled: number[];
}

export interface LiquidationResult {
  account: string;
  fills: PerpFill[];
  cancelled: number[];
  /** Paid to the insurance fund from what equity was left. */
  fee: bigint;
  /** Lots the backstop took over at the oracle (signed as the account held them), per market. */
  backstopLots: Map<string, bigint>;
  /** The account's collateral left after a backstop takeover, which went to the backstop. */
  backstopCollateral: bigint;
  /** Negative collateral the insurance fund covered, and what it could not (spread over the other accounts). */
  insurancePaid: bigint;
  socializedLoss: bigint;
}

export interface FundingResult {
  market: string;
  rate: Dec;
  /** Signed collateral change per account (they sum to zero). */
  payments: Map<string, bigint>;
  at: number;
}

interface MarketState {
  readonly spec: PerpMarketSpec;
  /** 10^sizeDecimals: lots per token. */
  readonly scale: bigint;
  readonly book: OrderBook;
  /** The oracle price (the market feed), in USDC base units per token; margins and PnL are marked to it. */
  oracle: bigint;
  lastPrice: bigint | null;
  /** Lots held long (= lots held short). */
  longLots: bigint;
  /** Cumulative traded notional. */
  volume: bigint;
  lastFundingRate: Dec;
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const sign = (n: bigint) => (n < 0n ? -1n : n > 0n ? 1n : 0n);
const pow10 = (k: number) => 10n ** BigInt(k);

/**
 * The perp venue's state machine, pure and deterministic: cross-margin USDC accounts, a book per
 * market, fills, funding and liquidation. Every command either refuses with a PerpError and
 * changes nothing, or applies completely. Value is conserved: Σ collateral + Σ open quote +
 * insurance + fees changes only by deposits and withdrawals (positions' sizes sum to zero per
 * market, so their mark value nets out at any price).
 */
export class PerpExchange {
  readonly markets = new Map<string, MarketState>();
  readonly accounts = new Map<string, PerpAccount>();
  insurance = 0n;
  fees = 0n;
  nextOrderId = 1;
  /** Which market each open order rests in. */
  private readonly orderMarkets = new Map<number, string>();
  /** Set when matching stopped because the taker's next fill would have broken its margin. */
  private takerHalted = false;

  constructor(specs: readonly PerpMarketSpec[]) {
    for (const spec of specs) {
      this.markets.set(spec.symbol, {
        spec,
        scale: pow10(spec.sizeDecimals),
        book: new OrderBook(),
        oracle: 0n,
        lastPrice: null,
        longLots: 0n,
        volume: 0n,
        lastFundingRate: new Dec(0),
      });
    }
  }

  // ── Reads ────────────────────────────────────────────────────────────────────────────────────

  market(symbol: string): MarketState {
    const market = this.markets.get(symbol);
    if (!market) throw new PerpError('MARKET_UNKNOWN', `No perpetual market ${symbol}`);
    return market;
  }

  account(id: string): PerpAccount {
    const account = this.accounts.get(id);
    if (!account)
      throw new PerpError('ACCOUNT_UNKNOWN', 'No futures account: initialize it with a first deposit');
    return account;
  }

  /** Σ over the account of collateral + quote + size × oracle: what it is worth now. */
  equityOf(account: PerpAccount): bigint {
    let equity = account.collateral;
    for (const [symbol, position] of account.positions) {
      const market = this.markets.get(symbol)!;
      equity += position.quote + (position.size * market.oracle) / pow10(market.spec.sizeDecimals);
    }
    return equity;
  }

  maintenanceOf(account: PerpAccount): bigint {
    let total = 0n;
    for (const [symbol, position] of account.positions) {
      const { spec, oracle } = this.markets.get(symbol)!;
      total += maintenanceMargin(notionalOf(position.size, oracle, spec.sizeDecimals), spec.maxLeverage);
    }
    return total;
  }

  /** The account's leverage setting in a market (the default until it sets one). */
  leverageOf(account: PerpAccount, symbol: string): number {
    const set = account.leverage.get(symbol);
    if (set !== undefined) return set;
    const max = this.markets.get(symbol)?.spec.maxLeverage ?? PERP_DEFAULT_LEVERAGE;
    return max < PERP_DEFAULT_LEVERAGE ? max : PERP_DEFAULT_LEVERAGE;
  }

  /** Whether the account holds a position or open orders in the market (its leverage is then in use). */
  hasExposureIn(account: PerpAccount, symbol: string): boolean {
    if (account.positions.has(symbol)) return true;
    for (const id of account.orders) if (this.orderMarkets.get(id) === symbol) return true;
    return false;
  }

  /** Initial margin of the positions (at the oracle) and of the open orders that add exposure. */
  initialRequirementOf(
    account: PerpAccount,
    leverageOverride?: { market: string; leverage: number },
  ): bigint {
    const leverageOf = (symbol: string) =>
      leverageOverride?.market === symbol ? leverageOverride.leverage : this.leverageOf(account, symbol);
    let total = 0n;
    for (const [symbol, position] of account.positions) {
      const { spec, oracle } = this.markets.get(symbol)!;
      total += initialMargin(notionalOf(position.size, oracle, spec.sizeDecimals), leverageOf(symbol));
    }
    return total + account.orderMargin;
  }

  /** What the account may withdraw: settled collateral, less what the margin of its positions and orders needs. */
  freeCollateralOf(account: PerpAccount): bigint {
    const free = this.equityOf(account) - this.initialRequirementOf(account);
    const settled = account.collateral < free ? account.collateral : free;
    return settled > 0n ? settled : 0n;
  }

  isLiquidatable(account: PerpAccount): boolean {
    return account.positions.size > 0 && this.equityOf(account) < this.maintenanceOf(account);
  }

  liquidationPriceOf(account: PerpAccount, symbol: string): Dec | null {
    const position = account.positions.get(symbol);
    if (!position) return null;
    const { spec, oracle } = this.markets.get(symbol)!;
    const markValue = (position.size * oracle) / pow10(spec.sizeDecimals);
    return crossLiquidationPrice({
      size: position.size,
      sizeDecimals: spec.sizeDecimals,
      maxLeverage: spec.maxLeverage,
      equityExcludingMark: this.equityOf(account) - markValue,
      otherMaintenance:
        this.maintenanceOf(account) -
        maintenanceMargin(notionalOf(position.size, oracle, spec.sizeDecimals), spec.maxLeverage),
    });
  }

  findOrder(id: number): RestingOrder | undefined {
    const symbol = this.orderMarkets.get(id);
    return symbol === undefined ? undefined : this.markets.get(symbol)!.book.get(id);
  }

  /** Initial margin an open order holds (none for reduce-only orders). */
  orderMarginOf(order: RestingOrder): bigint {
    if (order.reduceOnly) return 0n;
    const { spec } = this.markets.get(order.market)!;
    return initialMargin(notionalOf(order.remaining, order.price, spec.sizeDecimals), order.leverage);
  }

  /** Value held for everyone: what the vault must hold (Σ collateral + Σ quote + insurance + fees). */
  totalValue(): bigint {
    let total = this.insurance + this.fees;
    for (const account of this.accounts.values()) {
      total += account.collateral;
      for (const position of account.positions.values()) total += position.quote;
    }
    return total;
  }

  // ── Commands ─────────────────────────────────────────────────────────────────────────────────

  setOracle(symbol: string, price: bigint): void {
    if (price <= 0n) throw new PerpError('PRICE_INVALID', 'An oracle price must be positive');
    this.market(symbol).oracle = price;
  }

  deposit(accountId: string, amount: bigint): void {
    if (amount <= 0n) throw new PerpError('AMOUNT_INVALID', 'Invalid deposit amount');
    let account = this.accounts.get(accountId);
    if (!account) {
      account = {
        id: accountId,
        collateral: 0n,
        positions: new Map(),
        leverage: new Map(),
        orders: new Set(),
        orderMargin: 0n,
      };
      this.accounts.set(accountId, account);
    }
    account.collateral += amount;
  }

  withdraw(accountId: string, amount: bigint): void {
    const account = this.account(accountId);
    if (amount <= 0n) throw new PerpError('AMOUNT_INVALID', 'Withdraw amount must be greater than 0');
    if (amount > this.freeCollateralOf(account)) {
      throw new PerpError('INSUFFICIENT_COLLATERAL', 'Not enough free collateral to withdraw that amount');
    }
    account.collateral -= amount;
  }

  /** Adds to the insurance fund (the venue's own money, deposited to the vault). */
  fundInsurance(amount: bigint): void {
    if (amount <= 0n) throw new PerpError('AMOUNT_INVALID', 'Invalid insurance amount');
    this.insurance += amount;
  }

  /**
   * Sets the account's leverage in a market, as Hyperliquid's updateLeverage: its position and its
   * open orders there are margined at the new leverage from now on. Refused (LEVERAGE_UNDERMARGINED)
   * when the account's equity would not cover the initial margin that needs.
   */
  setLeverage(accountId: string, symbol: string, leverage: number): void {
    const { spec } = this.market(symbol);
    const account = this.account(accountId);
    checkLeverage(leverage, spec.maxLeverage);
    const orders = [...account.orders]
      .map((id) => this.findOrder(id)!)
      .filter((order) => order.market === symbol);
    let orderMargin = account.orderMargin;
    for (const order of orders) {
      orderMargin += this.orderMarginOf({ ...order, leverage }) - this.orderMarginOf(order);
    }
    const required =
      this.initialRequirementOf(account, { market: symbol, leverage }) - account.orderMargin + orderMargin;
    if (leverage < this.leverageOf(account, symbol) && required > this.equityOf(account)) {
      throw new PerpError(
        'LEVERAGE_UNDERMARGINED',
        `Your ${symbol} position and open orders cannot be margined at ${leverage}x: free collateral would go negative`,
      );
    }
    for (const order of orders) order.leverage = leverage;
    account.orderMargin = orderMargin;
    account.leverage.set(symbol, leverage);
  }

  /**
   * Sets the leverage without the margin check: how commands logged before leverage was an account
   * setting (each order carried its own) replay, and how the venue's maker quotes.
   */
  forceLeverage(accountId: string, symbol: string, leverage: number): void {
    const account = this.accounts.get(accountId);
    const market = this.markets.get(symbol);
    if (!account || !market || !Number.isInteger(leverage) || leverage < 1) return;
    if (leverage > market.spec.maxLeverage) return;
    account.leverage.set(symbol, leverage);
  }

  placeOrder(input: PlaceOrderInput): PlaceOrderResult {
    const market = this.market(input.market);
    const { spec, book } = market;
    const account = this.account(input.account);
    if (market.oracle <= 0n) throw new PerpError('MARKET_NO_PRICE', 'Unable to get market price');
    const current = this.leverageOf(account, input.market);
    const leverage = input.leverage ?? current;
    checkLeverage(leverage, spec.maxLeverage);
    if (input.size <= 0n) throw new PerpError('SIZE_INVALID', 'Amount/Price invalid');
    const position = account.positions.get(input.market);
    const direction = input.side === 'buy' ? 1n : -1n;
    let size = input.size;
    if (input.reduceOnly) {
      if (!position || sign(position.size) !== -direction) {
        throw new PerpError('REDUCE_ONLY_NO_POSITION', 'A reduce-only order needs a position to reduce');
      }
      if (size > abs(position.size)) size = abs(position.size);
    } else if (size < spec.minSize) {
      throw new PerpError('SIZE_BELOW_MIN', 'The amount is below the market’s minimum order size');
    }
    const limit = this.limitOf(market, input);
    const opposite: PerpSide = input.side === 'buy' ? 'sell' : 'buy';
    const bestOpposite = book.bestPrice(opposite);
    const crosses =
      bestOpposite !== undefined && (input.side === 'buy' ? bestOpposite <= limit : bestOpposite >= limit);
    if (input.postOnly && crosses) {
      throw new PerpError('POST_ONLY_WOULD_CROSS', 'A post-only order would trade at once');
    }
    // A market order is margined at the worst price its size reaches in the book (within 8 %).
    const sweep = input.type === 'market' ? book.sweepPrice(opposite, size, limit) : limit;
    if (sweep === undefined)
      throw new PerpError('NO_LIQUIDITY', 'No liquidity within 8% of the oracle price');
    if (leverage !== current && this.hasExposureIn(account, input.market)) {
      throw new PerpError(
        'LEVERAGE_MISMATCH',
        `Your ${input.market} leverage is ${current}x: an order cannot change it while you have a position or open orders there; change it with the leverage setting`,
      );
    }
    if (!input.reduceOnly) this.checkMargin(account, { ...input, leverage }, size, sweep);

    account.leverage.set(input.market, leverage);
    const orderId = this.nextOrderId++;
    const fills: PerpFill[] = [];
    const cancelled: number[] = [];
    this.takerHalted = false;
    let remaining = this.matchAgainstBook(
      market,
      account,
      input.side,
      size,
      limit,
      orderId,
      input.at,
      false,
      fills,
      cancelled,
      // checkMargin already held the order to its initial margin after the fill; a reduce-only
      // order skips it and is guarded fill by fill instead.
      input.reduceOnly === true ? 'maintenance' : 'none',
    );
    if (input.reduceOnly) {
      const after = account.positions.get(input.market);
      const reducible = after && sign(after.size) === -direction ? abs(after.size) : 0n;
      if (remaining > reducible) remaining = reducible;
    }
    let resting = 0n;
    // What a halted taker did not fill is dropped: resting it would cross the book.
    if (remaining > 0n && input.type === 'limit' && !input.ioc && !this.takerHalted) {
      this.rest(account, {
        id: orderId,
        market: input.market,
        account: account.id,
        side: input.side,
        price: limit,
        size,
        remaining,
        reduceOnly: input.reduceOnly ?? false,
        leverage,
        createdAt: input.at,
      });
      resting = remaining;
    }
    return { orderId, fills, resting, cancelled };
  }

  cancelOrder(accountId: string, orderId: number): RestingOrder {
    const account = this.account(accountId);
    if (!account.orders.has(orderId)) throw new PerpError('ORDER_NOT_FOUND', 'No such open order');
    const order = this.findOrder(orderId)!;
    this.unrest(account, order);
    return order;
  }

  /** Cancels every open order of an account (in one market, or all); answers their ids. */
  cancelAll(accountId: string, symbol?: string): number[] {
    const account = this.accounts.get(accountId);
    if (!account) return [];
    const ids: number[] = [];
    for (const id of [...account.orders]) {
      const order = this.findOrder(id);
      if (order && (symbol === undefined || order.market === symbol)) {
        this.unrest(account, order);
        ids.push(id);
      }
    }
    return ids;
  }

  /** Accounts whose equity is below their maintenance margin. */
  liquidatable(): string[] {
    const ids: string[] = [];
    for (const account of this.accounts.values()) if (this.isLiquidatable(account)) ids.push(account.id);
    return ids;
  }

  /**
   * Liquidates an account below maintenance, as Hyperliquid does (a market liquidation through the
   * book, then its backstop liquidator vault): cancels its orders and closes its positions through
   * the book only at prices that leave its equity at the oracle ≥ 0 — no worse than its bankruptcy
   * price, and no further than 8 % from the oracle — so a colluder resting a bad price cannot turn
   * the account's loss into the insurance fund's. The liquidation fee goes to the insurance fund from
   * what equity is left. What the book did not take, `backstop` (the venue's maker) takes over at
   * the oracle with the account's remaining collateral. Once nothing is open, negative collateral —
   * only possible when the oracle itself gapped past the bankruptcy price — is covered by the
   * insurance fund, and what it cannot cover is spread over the other accounts' collateral in
   * proportion. Without a backstop (or one that cannot carry it) the rest stays for the next check.
   */
  liquidate(accountId: string, at: number, backstopId?: string): LiquidationResult {
    const account = this.account(accountId);
    const result: LiquidationResult = {
      account: accountId,
      fills: [],
      cancelled: [],
      fee: 0n,
      backstopLots: new Map(),
      backstopCollateral: 0n,
      insurancePaid: 0n,
      socializedLoss: 0n,
    };
    if (!this.isLiquidatable(account)) return result;
    result.cancelled.push(...this.cancelAll(accountId));
    let closedNotional = 0n;
    const orderIds = new Map<string, number>();
    for (const [symbol, position] of [...account.positions]) {
      if (position.size === 0n) continue;
      const market = this.markets.get(symbol)!;
      const side: PerpSide = position.size > 0n ? 'sell' : 'buy';
      const limit = this.liquidationLimit(market, account, position.size);
      const orderId = this.nextOrderId++;
      orderIds.set(symbol, orderId);
      const before = result.fills.length;
      this.matchAgainstBook(
        market,
        account,
        side,
        abs(position.size),
        limit,
        orderId,
        at,
        true,
        result.fills,
        result.cancelled,
        'equity',
      );
      for (const fill of result.fills.slice(before)) closedNotional += fill.notional;
    }
    const equity = this.equityOf(account);
    const fee =
      equity <= 0n
        ? 0n
        : ((a: bigint, b: bigint) => (a < b ? a : b))(
            equity,
            (closedNotional * PERP_LIQUIDATION_FEE_BPS) / BPS,
          );
    account.collateral -= fee;
    this.insurance += fee;
    result.fee = fee;
    const backstop =
      backstopId === undefined || backstopId === accountId ? undefined : this.accounts.get(backstopId);
    if (backstop) {
      for (const [symbol, { size }] of [...account.positions]) {
        const market = this.markets.get(symbol)!;
        const taken = this.backstopTakeover(market, account, backstop, size, orderIds.get(symbol)!, at);
        if (taken === undefined) continue;
        result.fills.push(taken);
        result.backstopLots.set(symbol, size);
      }
      if (result.backstopLots.size > 0 && account.positions.size === 0 && account.collateral > 0n) {
        result.backstopCollateral = account.collateral;
        backstop.collateral += account.collateral;
        account.collateral = 0n;
      }
    }
    if (account.positions.size === 0 && account.collateral < 0n) {
      const cover = this.insurance < -account.collateral ? this.insurance : -account.collateral;
      this.insurance -= cover;
      account.collateral += cover;
      result.insurancePaid = cover;
      if (account.collateral < 0n) result.socializedLoss = this.socialize(account);
    }
    return result;
  }

  /** Hourly funding in a market at `rate` (positive: longs pay shorts), on the oracle's notional; sums to zero. */
  applyFunding(symbol: string, rate: Dec, at: number): FundingResult {
    const market = this.market(symbol);
    market.lastFundingRate = rate;
    const payments = new Map<string, bigint>();
    const result: FundingResult = { market: symbol, rate, payments, at };
    if (rate.isZero() || market.oracle <= 0n) return result;
    const payers: { account: PerpAccount; position: PerpPosition; lots: bigint }[] = [];
    const receivers: typeof payers = [];
    for (const account of this.accounts.values()) {
      const position = account.positions.get(symbol);
      if (!position || position.size === 0n) continue;
      const longPays = rate.isPositive();
      const entry = { account, position, lots: abs(position.size) };
      if (position.size > 0n === longPays) payers.push(entry);
      else receivers.push(entry);
    }
    const magnitude = rate.abs();
    let total = 0n;
    for (const payer of payers) {
      const notional = notionalOf(payer.lots, market.oracle, market.spec.sizeDecimals);
      const amount = BigInt(
        magnitude.times(notional.toString()).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toFixed(),
      );
      payer.account.collateral -= amount;
      payer.position.funding -= amount;
      payments.set(payer.account.id, (payments.get(payer.account.id) ?? 0n) - amount);
      total += amount;
    }
    const parts = allocate(
      total,
      receivers.map((receiver) => receiver.lots),
    );
    receivers.forEach((receiver, i) => {
      receiver.account.collateral += parts[i]!;
      receiver.position.funding += parts[i]!;
      payments.set(receiver.account.id, (payments.get(receiver.account.id) ?? 0n) + parts[i]!);
    });
    return result;
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────

  /**
   * A liquidation's worst price in a market: the tighter of the 8 % slippage bound and the account's
   * bankruptcy price there, the price at which closing all `size` lots (taker fee included) would
   * leave its equity at the oracle exactly 0. Selling a long of S lots at p changes the equity by
   * S·(p·(1 − f) − O)/scale, so p ≥ (S·O − E·scale) / (S·(1 − f)); buying back a short,
   * p ≤ (S·O + E·scale) / (S·(1 + f)). With E < 0 (the oracle gapped past it) only a price better
   * than the oracle is accepted.
   */
  private liquidationLimit(market: MarketState, account: PerpAccount, size: bigint): bigint {
    const { oracle, scale, spec } = market;
    const equity = this.equityOf(account);
    const lots = abs(size);
    if (size > 0n) {
      const numerator = (lots * oracle - equity * scale) * BPS;
      const bankruptcy =
        numerator <= 0n ? 0n : ceilToTick(ceilDiv(numerator, lots * (BPS - PERP_TAKER_FEE_BPS)), spec.tick);
      const bound = this.slippageBound(market, 'sell');
      return bankruptcy > bound ? bankruptcy : bound;
    }
    const numerator = (lots * oracle + equity * scale) * BPS;
    const bankruptcy =
      numerator <= 0n ? 0n : (numerator / (lots * (BPS + PERP_TAKER_FEE_BPS)) / spec.tick) * spec.tick;
    const bound = this.slippageBound(market, 'buy');
    return bankruptcy < bound ? bankruptcy : bound;
  }

  /**
   * The backstop takes over a liquidated position whole at the oracle, no fee either side: the
   * account's equity at the oracle does not change, so whatever it lacks is a loss the oracle made,
   * not a price anyone chose. Refused (undefined) if the backstop could not carry it above
   * maintenance; the position then stays for the next check.
   */
  private backstopTakeover(
    market: MarketState,
    account: PerpAccount,
    backstop: PerpAccount,
    size: bigint,
    orderId: number,
    at: number,
  ): PerpFill | undefined {
    const notional = notionalOf(size, market.oracle, market.spec.sizeDecimals);
    const change = this.healthChange(market, backstop, size, notional, 0n);
    if (change < 0n && this.healthOf(backstop) + change < 0n) return undefined;
    const takerRealized = this.applyFill(market, account, -size, notional, 0n);
    const makerRealized = this.applyFill(market, backstop, size, notional, 0n);
    return {
      market: market.spec.symbol,
      takerOrderId: orderId,
      makerOrderId: 0,
      taker: account.id,
      maker: backstop.id,
      side: size > 0n ? 'sell' : 'buy',
      price: market.oracle,
      size: abs(size),
      notional,
      takerFee: 0n,
      makerFee: 0n,
      takerRealized,
      makerRealized,
      liquidation: true,
      at,
    };
  }

  /** A market order's worst price: 8 % from the oracle, on the tick. */
  private slippageBound(market: MarketState, side: PerpSide): bigint {
    const { oracle, spec } = market;
    const offset = (oracle * PERP_MAX_SLIPPAGE_BPS) / BPS;
    return side === 'buy'
      ? ((oracle + offset) / spec.tick) * spec.tick
      : ceilToTick(oracle - offset, spec.tick);
  }

  private limitOf(market: MarketState, input: PlaceOrderInput): bigint {
    if (input.type === 'market') return this.slippageBound(market, input.side);
    const price = input.price ?? 0n;
    if (price <= 0n || price % market.spec.tick !== 0n) {
      throw new PerpError('PRICE_INVALID', 'Amount/Price invalid');
    }
    // As Hyperliquid refuses an order priced too far from its reference (oracle) price: a limit
    // that trades at once takes no worse a price than a market order could.
    const band = (market.oracle * PERP_PRICE_BAND_BPS) / BPS;
    if (input.side === 'buy' ? price > market.oracle + band : price < market.oracle - band) {
      throw new PerpError('PRICE_OUT_OF_BAND', PRICE_BAND_MESSAGE);
    }
    return price;
  }

  /**
   * Refuses an order unless the account would still meet its initial margin after the order filled
   * in full at `worst` (its limit, or a market order's sweep), marked to the oracle: a fill above
   * the oracle for a buy (below it for a sell) loses the difference at once, so that loss and the
   * fee come out of the equity first. Refused rather than trimmed: the trader gets the order asked
   * for or a reason, never a silently smaller one.
   */
  private checkMargin(
    account: PerpAccount,
    input: PlaceOrderInput & { leverage: number },
    size: bigint,
    worst: bigint,
  ): void {
    const { spec, oracle, scale } = this.markets.get(input.market)!;
    const position = account.positions.get(input.market);
    const direction = input.side === 'buy' ? 1n : -1n;
    let added = size;
    if (position && sign(position.size) === -direction)
      added = size > abs(position.size) ? size - abs(position.size) : 0n;
    const notional = notionalOf(size, worst, spec.sizeDecimals);
    const through = input.side === 'buy' ? worst - oracle : oracle - worst;
    const markLoss = through > 0n ? ceilDiv(size * through, scale) : 0n;
    const required =
      this.initialRequirementOf(account, { market: input.market, leverage: input.leverage }) +
      initialMargin(notionalOf(added, worst, spec.sizeDecimals), input.leverage) +
      feeOf(notional, PERP_TAKER_FEE_BPS) +
      markLoss;
    if (required > this.equityOf(account)) {
      throw new PerpError('INSUFFICIENT_MARGIN', 'Insufficient collateral for this order at this leverage');
    }
  }

  /** Equity less maintenance margin, marked to the oracle: negative when the account is liquidatable. */
  private healthOf(account: PerpAccount): bigint {
    let health = account.collateral;
    for (const [symbol, position] of account.positions) {
      const market = this.markets.get(symbol)!;
      health +=
        position.quote +
        (position.size * market.oracle) / market.scale -
        maintenanceAt(market, position.size);
    }
    return health;
  }

  /**
   * What one side of a fill (`lots` signed, for `notional`, paying `fee`) changes the account's
   * {@link healthOf} by: exactly, the same arithmetic after {@link applyFill}.
   */
  private healthChange(
    market: MarketState,
    account: PerpAccount,
    lots: bigint,
    notional: bigint,
    fee: bigint,
  ) {
    const held = account.positions.get(market.spec.symbol)?.size ?? 0n;
    return (
      this.equityChange(market, account, lots, notional, fee) -
      maintenanceAt(market, held + lots) +
      maintenanceAt(market, held)
    );
  }

  /** The same for {@link equityOf}. */
  private equityChange(
    market: MarketState,
    account: PerpAccount,
    lots: bigint,
    notional: bigint,
    fee: bigint,
  ) {
    const { oracle, scale } = market;
    const held = account.positions.get(market.spec.symbol)?.size ?? 0n;
    return (
      (lots > 0n ? -notional : notional) - fee + ((held + lots) * oracle) / scale - (held * oracle) / scale
    );
  }

  private matchAgainstBook(
    market: MarketState,
    taker: PerpAccount,
    side: PerpSide,
    size: bigint,
    limit: bigint,
    orderId: number,
    at: number,
    liquidation: boolean,
    fills: PerpFill[],
    cancelled: number[],
    /** What no fill may take the taker below: its maintenance margin, or (a liquidation) zero equity. */
    guardTaker: 'none' | 'maintenance' | 'equity',
  ): bigint {
    const { book, spec, oracle } = market;
    const opposite: PerpSide = side === 'buy' ? 'sell' : 'buy';
    let band = -1n;
    // The taker's health, once a fill lowers it (kept up to date fill by fill from then on).
    let takerHealth: bigint | undefined;
    let remaining = size;
    while (remaining > 0n) {
      const maker = book.best(opposite);
      if (!maker || (side === 'buy' ? maker.price > limit : maker.price < limit)) break;
      // As Drift bounds every fill by the oracle: none more than the band above or below it,
      // whichever side rests (an order the oracle has moved away from cannot be filled; it goes).
      if (band < 0n) band = (oracle * PERP_PRICE_BAND_BPS) / BPS;
      const makerAccount = this.accounts.get(maker.account)!;
      let makerLots = maker.remaining;
      if (maker.reduceOnly) {
        const held = makerAccount.positions.get(spec.symbol);
        const reducible = held && sign(held.size) === (maker.side === 'buy' ? -1n : 1n) ? abs(held.size) : 0n;
        if (reducible < makerLots) makerLots = reducible;
      }
      const lots = remaining < makerLots ? remaining : makerLots;
      const notional = notionalOf(lots, maker.price, spec.sizeDecimals);
      const takerFee = feeOf(notional, PERP_TAKER_FEE_BPS);
      const makerFee = feeOf(notional, PERP_MAKER_FEE_BPS);
      const takerSigned = side === 'buy' ? lots : -lots;
      // No fill may take either side below maintenance at the oracle (or, for an account already
      // there, make it worse): the maker's order goes, the taker stops.
      let makerChange = 0n;
      if (
        maker.account === taker.id ||
        makerLots === 0n ||
        maker.price > oracle + band ||
        maker.price < oracle - band ||
        ((makerChange = this.healthChange(market, makerAccount, -takerSigned, notional, makerFee)) < 0n &&
          this.healthOf(makerAccount) + makerChange < 0n)
      ) {
        // Self-trade prevention (the resting order goes), a reduce-only order with nothing left to
        // reduce, or an order that can no longer be filled: outside the band, or past what its
        // owner's margin carries.
        this.unrest(makerAccount, maker);
        cancelled.push(maker.id);
        continue;
      }
      if (guardTaker !== 'none') {
        const change =
          guardTaker === 'equity'
            ? this.equityChange(market, taker, takerSigned, notional, takerFee)
            : this.healthChange(market, taker, takerSigned, notional, takerFee);
        if (change < 0n && takerHealth === undefined)
          takerHealth = guardTaker === 'equity' ? this.equityOf(taker) : this.healthOf(taker);
        if (takerHealth !== undefined) {
          if (change < 0n && takerHealth + change < 0n) {
            this.takerHalted = true;
            break;
          }
          takerHealth += change;
        }
      }
      const takerRealized = this.applyFill(market, taker, takerSigned, notional, takerFee);
      const makerRealized = this.applyFill(market, makerAccount, -takerSigned, notional, makerFee);
      const heldBefore = this.orderMarginOf(maker);
      book.fill(maker, lots);
      makerAccount.orderMargin += this.orderMarginOf(maker) - heldBefore;
      if (maker.remaining === 0n) {
        makerAccount.orders.delete(maker.id);
        this.orderMarkets.delete(maker.id);
      } else if (maker.reduceOnly && lots === makerLots) {
        // The reduce-only rest has nothing left to reduce.
        this.unrest(makerAccount, maker);
        cancelled.push(maker.id);
      }
      market.lastPrice = maker.price;
      market.volume += notional;
      remaining -= lots;
      fills.push({
        market: spec.symbol,
        takerOrderId: orderId,
        makerOrderId: maker.id,
        taker: taker.id,
        maker: makerAccount.id,
        side,
        price: maker.price,
        size: lots,
        notional,
        takerFee,
        makerFee,
        takerRealized,
        makerRealized,
        liquidation,
        at,
      });
    }
    return remaining;
  }

  /**
   * One side of a fill: `lots` signed (positive buys) for `notional`. A fill that reduces the
   * position realizes the closed part's PnL into collateral (the position keeps its entry for the
   * rest); the fee goes to the venue. Answers the realized PnL.
   */
  private applyFill(
    market: MarketState,
    account: PerpAccount,
    lots: bigint,
    notional: bigint,
    fee: bigint,
  ): bigint {
    const symbol = market.spec.symbol;
    const position = account.positions.get(symbol) ?? { size: 0n, quote: 0n, funding: 0n };
    const cash = lots > 0n ? -notional : notional;
    const before = position.size;
    let realized = 0n;
    if (before === 0n || sign(before) === sign(lots)) {
      position.quote += cash;
    } else {
      const closed = abs(lots) < abs(before) ? abs(lots) : abs(before);
      const keptEntry = (position.quote * (abs(before) - closed)) / abs(before);
      const cashClose = (cash * closed) / abs(lots);
      realized = position.quote - keptEntry + cashClose;
      position.quote = keptEntry + (cash - cashClose);
      account.collateral += realized;
    }
    position.size = before + lots;
    market.longLots += (position.size > 0n ? position.size : 0n) - (before > 0n ? before : 0n);
    account.collateral -= fee;
    this.fees += fee;
    if (position.size === 0n) {
      // Rounding dust of a fully closed position is realized too.
      account.collateral += position.quote;
      realized += position.quote;
      account.positions.delete(symbol);
    } else account.positions.set(symbol, position);
    return realized;
  }

  /** Puts back an open order from a snapshot (no matching: a snapshot's book is never crossed). */
  restoreOrder(order: RestingOrder): void {
    this.rest(this.account(order.account), order);
  }

  private rest(account: PerpAccount, order: RestingOrder): void {
    this.markets.get(order.market)!.book.add(order);
    this.orderMarkets.set(order.id, order.market);
    account.orders.add(order.id);
    account.orderMargin += this.orderMarginOf(order);
  }

  private unrest(account: PerpAccount, order: RestingOrder): void {
    account.orderMargin -= this.orderMarginOf(order);
    this.markets.get(order.market)!.book.cancel(order.id);
    this.orderMarkets.delete(order.id);
    account.orders.delete(order.id);
  }

  /** Spreads an account's negative collateral over the accounts with positive collateral, in proportion. */
  private socialize(bankrupt: PerpAccount): bigint {
    const others = [...this.accounts.values()].filter((a) => a !== bankrupt && a.collateral > 0n);
    const available = others.reduce((sum, a) => sum + a.collateral, 0n);
    const deficit = -bankrupt.collateral < available ? -bankrupt.collateral : available;
    const parts = allocate(
      deficit,
      others.map((a) => a.collateral),
    );
    others.forEach((a, i) => {
      a.collateral -= parts[i]!;
    });
    bankrupt.collateral += deficit;
    return deficit;
  }
}

/** {@link maintenanceMargin} of `lots` at the oracle, without recomputing the market's scale. */
function maintenanceAt(market: MarketState, lots: bigint): bigint {
  return ceilDiv((abs(lots) * market.oracle) / market.scale, 2n * BigInt(market.spec.maxLeverage));
}

/** The leverage of a market the account has not set one for (capped at the market's maximum). */
export const PERP_DEFAULT_LEVERAGE = 10;

function checkLeverage(leverage: number, max: number): void {
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > max) {
    throw new PerpError('LEVERAGE_INVALID', `Leverage must be a whole number from 1 to ${max}`);
  }
}

const PRICE_BAND_MESSAGE = `A limit price may be at most ${Number(PERP_PRICE_BAND_BPS) / 100}% above the oracle price to buy, or below it to sell`;

function ceilToTick(price: bigint, tick: bigint): bigint {
  return ((price + tick - 1n) / tick) * tick;
}
