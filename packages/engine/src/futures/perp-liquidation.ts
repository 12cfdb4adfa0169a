import { equityOf, healthChange, healthOf, isLiquidatable } from './perp-margin';
import { matchAgainstBook } from './perp-matching';
import {
  allocate,
  BPS,
  ceilDiv,
  notionalOf,
  PERP_LIQUIDATION_FEE_BPS,
  PERP_TAKER_FEE_BPS,
  type PerpSide,
} from './perp-math';
import { cancelAllOrders } from './perp-open-orders';
import { applyFill } from './perp-settlement';
import { cancelAllTriggers, syncAttachedTriggers } from './perp-triggers';
import {
  abs,
  accountOf,
  ceilToTick,
  slippageBound,
  type MarketState,
  type Account,
  type PerpFill,
  type PerpVenueState,
} from './perp-state';
import { MAX_UNITS, MAX_UNITS_BIG } from './perp-units';

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

/** Accounts whose equity is below their maintenance margin. */
export function liquidatableAccounts(venue: PerpVenueState): string[] {
  const ids: string[] = [];
  for (const account of venue.accounts.values()) {
    if (isLiquidatable(venue.markets, account)) ids.push(account.id);
  }
  return ids;
}

/**
 * Liquidates an account below maintenance (see {@link PerpExchange.liquidate}): its orders are
 * cancelled, its positions closed through the book no worse than its bankruptcy price, the fee paid
 * to the insurance fund, the rest taken over by the backstop, and bad debt covered.
 */
export function liquidate(
  venue: PerpVenueState,
  accountId: string,
  at: number,
  backstopId?: string,
): LiquidationResult {
  const account = accountOf(venue, accountId);
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
  if (!isLiquidatable(venue.markets, account)) return result;
  result.cancelled.push(...cancelAllOrders(venue, accountId), ...cancelAllTriggers(venue, accountId));
  const orderIds = closeThroughBook(venue, account, at, result);
  const backstop =
    backstopId === undefined || backstopId === accountId ? undefined : venue.accounts.get(backstopId);
  if (backstop) {
    for (const [symbol, { size }] of [...account.positions]) {
      const market = venue.markets.get(symbol)!;
      const taken = backstopTakeover(venue, market, account, backstop, size, orderIds.get(symbol)!, at);
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
    const cover = venue.insurance < -account.collateral ? venue.insurance : -account.collateral;
    venue.insurance -= cover;
    account.collateral += cover;
    result.insurancePaid = cover;
    if (account.collateral < 0n) result.socializedLoss = socialize(venue, account);
  }
  // The makers' and the backstop's positions moved: their TP/SL follow.
  result.cancelled.push(...syncAttachedTriggers(venue, result.fills));
  return result;
}

/**
 * Closes every position of the account through the book, no worse than {@link liquidationLimit},
 * and pays the liquidation fee on the closed notional (or what equity is left) to the insurance
 * fund. Answers the liquidation's order id in each market.
 */
function closeThroughBook(
  venue: PerpVenueState,
  account: Account,
  at: number,
  result: LiquidationResult,
): Map<string, number> {
  let closedNotional = 0n;
  const orderIds = new Map<string, number>();
  for (const [symbol, position] of [...account.positions]) {
    if (position.size === 0n) continue;
    const market = venue.markets.get(symbol)!;
    const side: PerpSide = position.size > 0n ? 'sell' : 'buy';
    const limit = liquidationLimit(venue, market, account, position.size);
    const lots = abs(position.size);
    const orderId = venue.nextOrderId++;
    orderIds.set(symbol, orderId);
    const before = result.fills.length;
    matchAgainstBook(
      venue,
      {
        market,
        taker: account,
        side,
        // Matching takes exact numbers (no price in a book is past 2^53; a position of more lots
        // than that, beyond any market, is closed here up to 2^53 and the backstop takes the rest).
        size: lots > MAX_UNITS_BIG ? MAX_UNITS : Number(lots),
        limit: limit > MAX_UNITS_BIG ? MAX_UNITS : Number(limit),
        orderId,
        at,
        liquidation: true,
        guard: 'equity',
      },
      result.fills,
      result.cancelled,
    );
    for (const fill of result.fills.slice(before)) closedNotional += fill.notional;
  }
  const equity = equityOf(venue.markets, account);
  const cap = (closedNotional * PERP_LIQUIDATION_FEE_BPS) / BPS;
  const fee = equity <= 0n ? 0n : equity < cap ? equity : cap;
  account.collateral -= fee;
  venue.insurance += fee;
  result.fee = fee;
  return orderIds;
}

/**
 * A liquidation's worst price in a market: the tighter of the 8 % slippage bound and the account's
 * bankruptcy price there, the price at which closing all `size` lots (taker fee included) would
 * leave its equity at the oracle exactly 0. Selling a long of S lots at p changes the equity by
 * S·(p·(1 − f) − O)/scale, so p ≥ (S·O − E·scale) / (S·(1 − f)); buying back a short,
 * p ≤ (S·O + E·scale) / (S·(1 + f)). With E < 0 (the oracle gapped past it) only a price better
 * than the oracle is accepted.
 */
function liquidationLimit(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  size: bigint,
): bigint {
  const { oracle, scale, spec } = market;
  const equity = equityOf(venue.markets, account);
  const lots = abs(size);
  if (size > 0n) {
    const numerator = (lots * oracle - equity * scale) * BPS;
    const bankruptcy =
      numerator <= 0n ? 0n : ceilToTick(ceilDiv(numerator, lots * (BPS - PERP_TAKER_FEE_BPS)), spec.tick);
    const bound = slippageBound(market, 'sell');
    return bankruptcy > bound ? bankruptcy : bound;
  }
  const numerator = (lots * oracle + equity * scale) * BPS;
  const bankruptcy =
    numerator <= 0n ? 0n : (numerator / (lots * (BPS + PERP_TAKER_FEE_BPS)) / spec.tick) * spec.tick;
  const bound = slippageBound(market, 'buy');
  return bankruptcy < bound ? bankruptcy : bound;
}

/**
 * The backstop takes over a liquidated position whole at the oracle, no fee either side: the
 * account's equity at the oracle does not change, so whatever it lacks is a loss the oracle made,
 * not a price anyone chose. Refused (undefined) if the backstop could not carry it above
 * maintenance; the position then stays for the next check.
 */
function backstopTakeover(
  venue: PerpVenueState,
  market: MarketState,
  account: Account,
  backstop: Account,
  size: bigint,
  orderId: number,
  at: number,
): PerpFill | undefined {
  const notional = notionalOf(size, market.oracle, market.spec.sizeDecimals);
  const change = healthChange(market, backstop, size, notional, 0n);
  if (change < 0n && healthOf(venue.markets, backstop) + change < 0n) return undefined;
  const takerRealized = applyFill(venue, market, account, -size, notional, 0n);
  const makerRealized = applyFill(venue, market, backstop, size, notional, 0n);
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

/** Spreads an account's negative collateral over the accounts with positive collateral, in proportion. */
function socialize(venue: PerpVenueState, bankrupt: Account): bigint {
  const others = [...venue.accounts.values()].filter((a) => a !== bankrupt && a.collateral > 0n);
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
