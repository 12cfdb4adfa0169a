import type { Dec } from '../money/decimal';
import { BookOrder, type RestingOrder } from './order-book';
import { applyFunding, type FundingResult } from './perp-funding';
import { liquidatableAccounts, liquidate, type LiquidationResult } from './perp-liquidation';
import * as margin from './perp-margin';
import { cancelAllOrders, findOrder, releverOrder, restOrder, unrestOrder } from './perp-open-orders';
import { placeOrder, type PlaceOrderInput, type PlaceOrderResult } from './perp-order-entry';
import {
  cancelAllTriggers,
  cancelTrigger,
  fireTriggers,
  placeTrigger,
  setPositionTpsl,
  syncAttachedTriggers,
  triggeredIds,
  type PlaceTriggerInput,
  type TpslInput,
  type TpslResult,
  type TriggerResult,
} from './perp-triggers';
import {
  accountOf,
  marketOf,
  newAccount,
  newMarketState,
  PerpError,
  type Account,
  type MarketState,
  type PerpAccount,
  type PerpMarketSpec,
  type PerpVenueState,
  type TriggerOrder,
} from './perp-state';
import { MAX_UNITS_BIG } from './perp-units';

// The venue's one face. Its parts, each in its own file: perp-state (markets, accounts, refusals),
// perp-margin (equity, margins, leverage), perp-order-entry (an order's checks), perp-matching (the
// book walk), perp-settlement (a fill into positions and collateral), perp-funding, perp-liquidation.

/**
 * The perp venue's state machine, pure and deterministic: cross-margin USDC accounts, a book per
 * market, fills, funding and liquidation. Every command either refuses with a PerpError and
 * changes nothing, or applies completely. Value is conserved: Σ collateral + Σ open quote +
 * insurance + fees changes only by deposits and withdrawals (positions' sizes sum to zero per
 * market, so their mark value nets out at any price).
 */
export class PerpExchange implements PerpVenueState {
  readonly markets = new Map<string, MarketState>();
  readonly accounts = new Map<string, Account>();
  insurance = 0n;
  feesPending = 0;
  nextOrderId = 1;
  private feesBig = 0n;

  constructor(specs: readonly PerpMarketSpec[]) {
    for (const spec of specs) this.markets.set(spec.symbol, newMarketState(spec));
  }

  /** Fees the venue has taken (matching's pending ones added in as it is read). */
  get fees(): bigint {
    if (this.feesPending !== 0) {
      this.feesBig += BigInt(this.feesPending);
      this.feesPending = 0;
    }
    return this.feesBig;
  }

  set fees(amount: bigint) {
    this.feesBig = amount;
    this.feesPending = 0;
  }

  // ── Reads ────────────────────────────────────────────────────────────────────────────────────

  market(symbol: string): MarketState {
    return marketOf(this, symbol);
  }

  account(id: string): Account {
    return accountOf(this, id);
  }

  /** Σ over the account of collateral + quote + size × oracle: what it is worth now. */
  equityOf(account: PerpAccount): bigint {
    return margin.equityOf(this.markets, account);
  }

  maintenanceOf(account: PerpAccount): bigint {
    return margin.maintenanceOf(this.markets, account);
  }

  /** The account's leverage setting in a market (the default until it sets one). */
  leverageOf(account: PerpAccount, symbol: string): number {
    return margin.leverageOf(this.markets, account, symbol);
  }

  /** Whether the account holds a position or open orders in the market (its leverage is then in use). */
  hasExposureIn(account: PerpAccount, symbol: string): boolean {
    return margin.hasExposureIn(this.markets, account, symbol);
  }

  /** Initial margin of the positions (at the oracle) and of the open orders that add exposure. */
  initialRequirementOf(
    account: PerpAccount,
    leverageOverride?: { market: string; leverage: number },
  ): bigint {
    return margin.initialRequirementOf(this.markets, account, leverageOverride);
  }

  /** What the account may withdraw: settled collateral, less what the margin of its positions and orders needs. */
  freeCollateralOf(account: PerpAccount): bigint {
    return margin.freeCollateralOf(this.markets, account);
  }

  isLiquidatable(account: PerpAccount): boolean {
    return margin.isLiquidatable(this.markets, account);
  }

  liquidationPriceOf(account: PerpAccount, symbol: string): Dec | null {
    return margin.liquidationPriceOf(this.markets, account, symbol);
  }

  /** The open order with this id, as it is now (a copy: the venue reuses its order objects). */
  findOrder(id: number): RestingOrder | undefined {
    return findOrder(this, id)?.toJSON();
  }

  /** The market of the open order with this id (what {@link findOrder} answers, without the copy). */
  marketOfOrder(id: number): string | undefined {
    return findOrder(this, id)?.market;
  }

  /**
   * The trigger order with this id, in whichever market holds it. Trigger orders come out as copies
   * (a position's TP/SL is resized in place as the position changes).
   */
  findTrigger(id: number): TriggerOrder | undefined {
    for (const market of this.markets.values()) {
      const trigger = market.triggers.get(id);
      if (trigger) return { ...trigger };
    }
    return undefined;
  }

  /** The account's trigger orders (in one market, or all), oldest first. */
  triggersOf(accountId: string, symbol?: string): TriggerOrder[] {
    return [...this.markets.values()]
      .filter((market) => symbol === undefined || market.spec.symbol === symbol)
      .flatMap((market) => [...market.triggers.values()])
      .filter((trigger) => trigger.account === accountId)
      .map((trigger) => ({ ...trigger }))
      .sort((a, b) => a.id - b.id);
  }

  /** Ids of the market's trigger orders the oracle has reached (what {@link fireTriggers} would fire). */
  triggeredIds(symbol: string): number[] {
    return triggeredIds(this, symbol);
  }

  /** Initial margin an open order holds (none for reduce-only orders). */
  orderMarginOf(order: RestingOrder): bigint {
    return margin.orderMarginOf(this.markets, order);
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
      account = newAccount(accountId);
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
    margin.checkLeverage(leverage, spec.maxLeverage);
    const orders = account.orders.orders().filter((order) => order.market === symbol);
    let orderMargin = account.orderMargin;
    for (const order of orders) {
      orderMargin += this.orderMarginOf({ ...order.toJSON(), leverage }) - this.orderMarginOf(order);
    }
    const required =
      this.initialRequirementOf(account, { market: symbol, leverage }) - account.orderMargin + orderMargin;
    if (leverage < this.leverageOf(account, symbol) && required > this.equityOf(account)) {
      throw new PerpError(
        'LEVERAGE_UNDERMARGINED',
        `Your ${symbol} position and open orders cannot be margined at ${leverage}x: free collateral would go negative`,
      );
    }
    for (const order of orders) releverOrder(order.home!, order, leverage);
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

  /**
   * Places an order (perp-order-entry.ts): limit, market (no further than 8 % from the oracle),
   * reduce-only, post-only or IOC, at the account's leverage setting. Refused unless the account
   * meets its initial margin after the order filled in full; what a limit order does not fill rests.
   */
  placeOrder(input: PlaceOrderInput): PlaceOrderResult {
    const result = placeOrder(this, input);
    // A position's TP/SL follow it: resized, or cancelled once it is closed (perp-triggers.ts).
    if (result.fills.length > 0) {
      for (const id of syncAttachedTriggers(this, result.fills)) result.cancelled.push(id);
    }
    return result;
  }

  /**
   * Places a stop market or take-profit market order (perp-triggers.ts): it waits, holding no
   * margin, until the oracle reaches its trigger price, then {@link fireTriggers} places it as a
   * market order. Refused when the oracle is already there (TRIGGER_WRONG_SIDE).
   */
  placeTrigger(input: PlaceTriggerInput): TriggerOrder {
    return { ...placeTrigger(this, input) };
  }

  /** Attaches (replaces, or with null cancels) the take-profit and stop-loss of a position. */
  setPositionTpsl(input: TpslInput): TpslResult {
    const result = setPositionTpsl(this, input);
    return { ...result, placed: result.placed.map((trigger) => ({ ...trigger })) };
  }

  /** Fires the market's trigger orders the oracle has reached, each once, as market orders. */
  fireTriggers(symbol: string, at: number): TriggerResult {
    return fireTriggers(this, symbol, at);
  }

  /** Cancels one of the account's open orders or trigger orders. */
  cancelOrder(accountId: string, orderId: number): RestingOrder | TriggerOrder {
    const account = this.account(accountId);
    // Its open order when the book holding the id has it in the account's name.
    const order = findOrder(this, orderId);
    if (order === undefined || order.owner !== account) {
      const trigger = cancelTrigger(this, accountId, orderId);
      if (!trigger) throw new PerpError('ORDER_NOT_FOUND', 'No such open order');
      return trigger;
    }
    unrestOrder(this, account, order);
    return order.toJSON();
  }

  /** Cancels every open order and trigger order of an account (in one market, or all); answers their ids. */
  cancelAll(accountId: string, symbol?: string): number[] {
    return [...cancelAllOrders(this, accountId, symbol), ...cancelAllTriggers(this, accountId, symbol)];
  }

  /** Accounts whose equity is below their maintenance margin. */
  liquidatable(): string[] {
    return liquidatableAccounts(this);
  }

  /**
   * Liquidates an account below maintenance (perp-liquidation.ts), as Hyperliquid does (a market
   * liquidation through the book, then its backstop liquidator vault): cancels its orders and closes
   * its positions through the book only at prices that leave its equity at the oracle ≥ 0 — no worse
   * than its bankruptcy price, and no further than 8 % from the oracle — so a colluder resting a bad
   * price cannot turn the account's loss into the insurance fund's. The liquidation fee goes to the
   * insurance fund from what equity is left. What the book did not take, `backstop` (the venue's
   * maker) takes over at the oracle with the account's remaining collateral. Once nothing is open,
   * negative collateral — only possible when the oracle itself gapped past the bankruptcy price — is
   * covered by the insurance fund, and what it cannot cover is spread over the other accounts'
   * collateral in proportion. Without a backstop (or one that cannot carry it) the rest stays for
   * the next check.
   */
  liquidate(accountId: string, at: number, backstopId?: string): LiquidationResult {
    return liquidate(this, accountId, at, backstopId);
  }

  /** Hourly funding in a market at `rate` (positive: longs pay shorts), on the oracle's notional; sums to zero (perp-funding.ts). */
  applyFunding(symbol: string, rate: Dec, at: number): FundingResult {
    return applyFunding(this, symbol, rate, at);
  }

  /** Puts back an open order from a snapshot (no matching: a snapshot's book is never crossed). */
  restoreOrder(order: RestingOrder): void {
    // The book holds prices and lots as exact numbers (perp-units.ts).
    if (order.price > MAX_UNITS_BIG) throw new PerpError('PRICE_INVALID', 'Amount/Price invalid');
    if (order.remaining > MAX_UNITS_BIG) throw new PerpError('SIZE_INVALID', 'Amount/Price invalid');
    const account = this.account(order.account);
    restOrder(this.market(order.market), account, BookOrder.of(order));
  }

  /** Puts back a waiting trigger order from a snapshot. */
  restoreTrigger(trigger: TriggerOrder): void {
    this.account(trigger.account);
    this.market(trigger.market).triggers.set(trigger.id, trigger);
  }
}
