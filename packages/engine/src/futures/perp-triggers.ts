import type { PerpSide } from './perp-math';
import { placeOrder, type PlaceOrderResult } from './perp-order-entry';
import {
  abs,
  accountOf,
  marketOf,
  PerpError,
  sign,
  type MarketState,
  type PerpErrorCode,
  type PerpFill,
  type PerpVenueState,
  type TriggerKind,
  type TriggerOrder,
} from './perp-state';

// Trigger orders (stop market, take-profit market) and a position's TP/SL. They wait off the book
// and hold no margin; when the market's oracle reaches the trigger price, `fireTriggers` (a command
// of its own, which the keeper sends after moving the oracle and re-quoting) removes each one and
// places it as a market order, once, whatever comes of it. They trigger against the oracle, as
// Drift's trigger bots do, not the book's mid: the oracle is what margins and liquidations use, and
// nobody can move it by resting an order.

/** Open trigger orders an account may keep in one market. */
export const PERP_MAX_TRIGGERS_PER_MARKET = 20;

export interface PlaceTriggerInput {
  account: string;
  market: string;
  side: PerpSide;
  kind: TriggerKind;
  /** Lots. */
  size: bigint;
  triggerPrice: bigint;
  reduceOnly?: boolean;
  at: number;
}

export interface TpslInput {
  account: string;
  market: string;
  /** A price sets (or replaces) that leg, null cancels it, undefined leaves it as it is. */
  takeProfit?: bigint | null;
  stopLoss?: bigint | null;
  at: number;
}

export interface TpslResult {
  placed: TriggerOrder[];
  cancelled: number[];
}

export interface FiredTrigger {
  trigger: TriggerOrder;
  /** The oracle it fired at. */
  oracle: bigint;
  /** The market order it became, or why that order was refused. */
  result?: PlaceOrderResult;
  refusal?: { code: PerpErrorCode; message: string };
  /** The owner's signed position in the market before and after. */
  before: bigint;
  after: bigint;
}

export interface TriggerResult {
  market: string;
  fired: FiredTrigger[];
}

/** Whether the trigger fires when the oracle rises to its price (else when it falls to it). */
export function firesAbove(trigger: Pick<TriggerOrder, 'kind' | 'side'>): boolean {
  return (trigger.kind === 'stop_market') === (trigger.side === 'buy');
}

export function isTriggered(trigger: Pick<TriggerOrder, 'kind' | 'side' | 'triggerPrice'>, oracle: bigint) {
  return firesAbove(trigger) ? oracle >= trigger.triggerPrice : oracle <= trigger.triggerPrice;
}

const KIND_WORDS: Record<TriggerKind, string> = {
  stop_market: 'stop market',
  take_profit_market: 'take profit market',
};

/** Refuses a trigger price that is off the tick, or that the oracle has already reached. */
function checkTriggerPrice(
  market: MarketState,
  trigger: Pick<TriggerOrder, 'kind' | 'side' | 'triggerPrice'>,
) {
  if (trigger.triggerPrice <= 0n || trigger.triggerPrice % market.spec.tick !== 0n) {
    throw new PerpError('PRICE_INVALID', 'Amount/Price invalid');
  }
  if (isTriggered(trigger, market.oracle)) {
    const above = firesAbove(trigger);
    throw new PerpError(
      'TRIGGER_WRONG_SIDE',
      `Order failed: a ${trigger.side === 'buy' ? 'Long' : 'Short'} ${KIND_WORDS[trigger.kind]} order triggers when the oracle price ${above ? 'rises' : 'falls'} to its trigger price, so the trigger price must be ${above ? 'above' : 'below'} the oracle price`,
    );
  }
}

function triggersOf(market: MarketState, account: string): TriggerOrder[] {
  return [...market.triggers.values()].filter((trigger) => trigger.account === account);
}

function checkTriggerLimit(market: MarketState, account: string, adding: number, removing = 0) {
  if (triggersOf(market, account).length - removing + adding > PERP_MAX_TRIGGERS_PER_MARKET) {
    throw new PerpError(
      'TRIGGER_LIMIT',
      `Order failed: at most ${PERP_MAX_TRIGGERS_PER_MARKET} trigger orders per market`,
    );
  }
}

/** Places a stop market or take-profit market order: refused (nothing changed) or waiting for its trigger. */
export function placeTrigger(venue: PerpVenueState, input: PlaceTriggerInput): TriggerOrder {
  const market = marketOf(venue, input.market);
  const account = accountOf(venue, input.account);
  if (market.oracle <= 0n) throw new PerpError('MARKET_NO_PRICE', 'Unable to get market price');
  if (input.size <= 0n) throw new PerpError('SIZE_INVALID', 'Amount/Price invalid');
  checkTriggerPrice(market, input);
  const reduceOnly = input.reduceOnly ?? false;
  if (reduceOnly) {
    const held = account.positions.get(input.market)?.size ?? 0n;
    if (sign(held) !== (input.side === 'buy' ? -1n : 1n)) {
      throw new PerpError('REDUCE_ONLY_NO_POSITION', 'A reduce-only order needs a position to reduce');
    }
  } else if (input.size < market.spec.minSize) {
    throw new PerpError('SIZE_BELOW_MIN', 'The amount is below the market’s minimum order size');
  }
  checkTriggerLimit(market, account.id, 1);
  const trigger: TriggerOrder = {
    id: venue.nextOrderId++,
    market: input.market,
    account: account.id,
    side: input.side,
    kind: input.kind,
    triggerPrice: input.triggerPrice,
    size: input.size,
    reduceOnly,
    attached: null,
    createdAt: input.at,
  };
  market.triggers.set(trigger.id, trigger);
  return trigger;
}

/**
 * Attaches a take-profit and/or a stop-loss to the account's position in a market: reduce-only
 * trigger orders on the closing side for the whole position, replacing the legs already attached.
 * They follow the position (see {@link syncAttachedTriggers}).
 */
export function setPositionTpsl(venue: PerpVenueState, input: TpslInput): TpslResult {
  const market = marketOf(venue, input.market);
  const account = accountOf(venue, input.account);
  const position = account.positions.get(input.market);
  if (!position || position.size === 0n) {
    throw new PerpError(
      'TPSL_NO_POSITION',
      `No ${input.market} position to attach a take profit or stop loss to`,
    );
  }
  if (market.oracle <= 0n) throw new PerpError('MARKET_NO_PRICE', 'Unable to get market price');
  const side: PerpSide = position.size > 0n ? 'sell' : 'buy';
  const legs = [
    { attached: 'tp' as const, kind: 'take_profit_market' as const, price: input.takeProfit },
    { attached: 'sl' as const, kind: 'stop_market' as const, price: input.stopLoss },
  ].filter((leg) => leg.price !== undefined);
  for (const leg of legs) {
    if (leg.price !== null) checkTriggerPrice(market, { kind: leg.kind, side, triggerPrice: leg.price! });
  }
  const replaced = triggersOf(market, account.id).filter((trigger) =>
    legs.some((leg) => leg.attached === trigger.attached),
  );
  checkTriggerLimit(market, account.id, legs.filter((leg) => leg.price !== null).length, replaced.length);
  const result: TpslResult = { placed: [], cancelled: [] };
  for (const trigger of replaced) {
    market.triggers.delete(trigger.id);
    result.cancelled.push(trigger.id);
  }
  for (const leg of legs) {
    if (leg.price === null) continue;
    const trigger: TriggerOrder = {
      id: venue.nextOrderId++,
      market: input.market,
      account: account.id,
      side,
      kind: leg.kind,
      triggerPrice: leg.price!,
      size: abs(position.size),
      reduceOnly: true,
      attached: leg.attached,
      createdAt: input.at,
    };
    market.triggers.set(trigger.id, trigger);
    result.placed.push(trigger);
  }
  return result;
}

/** The account's trigger order with this id, removed (undefined when it has none such). */
export function cancelTrigger(
  venue: PerpVenueState,
  accountId: string,
  id: number,
): TriggerOrder | undefined {
  for (const market of venue.markets.values()) {
    const trigger = market.triggers.get(id);
    if (trigger) {
      if (trigger.account !== accountId) return undefined;
      market.triggers.delete(id);
      return trigger;
    }
  }
  return undefined;
}

/** Removes every trigger order of an account (in one market, or all); answers their ids. */
export function cancelAllTriggers(venue: PerpVenueState, accountId: string, symbol?: string): number[] {
  const ids: number[] = [];
  for (const market of venue.markets.values()) {
    if (symbol !== undefined && market.spec.symbol !== symbol) continue;
    for (const trigger of triggersOf(market, accountId)) {
      market.triggers.delete(trigger.id);
      ids.push(trigger.id);
    }
  }
  return ids;
}

/**
 * Keeps a position's TP/SL with the position after fills: sized to the whole position, and
 * cancelled once it is closed or has flipped. Answers the ids cancelled.
 */
export function syncAttachedTriggers(venue: PerpVenueState, fills: readonly PerpFill[]): number[] {
  // Made for the first fill in a market with trigger orders (most fills are in markets with none).
  let touched: Map<string, Set<string>> | undefined;
  // A taker's fills are all in one market: it is looked up once, not per fill.
  let symbol: string | undefined;
  let market: MarketState | undefined;
  for (const fill of fills) {
    if (fill.market !== symbol) {
      symbol = fill.market;
      market = venue.markets.get(symbol);
    }
    if (market?.triggers.size === 0) continue; // nothing attached there
    touched ??= new Map();
    const accounts = touched.get(fill.market) ?? new Set<string>();
    accounts.add(fill.taker).add(fill.maker);
    touched.set(fill.market, accounts);
  }
  if (touched === undefined) return [];
  const cancelled: number[] = [];
  for (const [symbol, accounts] of touched) {
    const market = venue.markets.get(symbol)!;
    for (const trigger of [...market.triggers.values()]) {
      if (trigger.attached === null || !accounts.has(trigger.account)) continue;
      const held = venue.accounts.get(trigger.account)?.positions.get(symbol)?.size ?? 0n;
      if (sign(held) === (trigger.side === 'buy' ? -1n : 1n)) trigger.size = abs(held);
      else {
        market.triggers.delete(trigger.id);
        cancelled.push(trigger.id);
      }
    }
  }
  return cancelled;
}

/** Ids of the market's trigger orders the oracle has reached, oldest first. */
export function triggeredIds(venue: PerpVenueState, symbol: string): number[] {
  const market = marketOf(venue, symbol);
  if (market.oracle <= 0n) return [];
  return [...market.triggers.values()]
    .filter((trigger) => isTriggered(trigger, market.oracle))
    .map((trigger) => trigger.id)
    .sort((a, b) => a - b);
}

/**
 * Fires every trigger order of a market the oracle has reached, oldest first: each leaves the venue
 * and is placed as a market order under its own id (reduce-only ones no larger than the position
 * then). A refused order (no liquidity, margin, nothing left to reduce) is reported, not retried: a
 * trigger fires once. Fills keep the positions' TP/SL in step, so a TP that closes the position
 * cancels its SL before it is looked at.
 */
export function fireTriggers(venue: PerpVenueState, symbol: string, at: number): TriggerResult {
  const market = marketOf(venue, symbol);
  const result: TriggerResult = { market: symbol, fired: [] };
  for (const id of triggeredIds(venue, symbol)) {
    const trigger = market.triggers.get(id);
    if (!trigger) continue;
    market.triggers.delete(id);
    const positionOf = () => venue.accounts.get(trigger.account)?.positions.get(symbol)?.size ?? 0n;
    const fired: FiredTrigger = { trigger, oracle: market.oracle, before: positionOf(), after: 0n };
    try {
      fired.result = placeOrder(
        venue,
        {
          account: trigger.account,
          market: symbol,
          side: trigger.side,
          type: 'market',
          size: trigger.size,
          reduceOnly: trigger.reduceOnly,
          at,
        },
        trigger.id,
      );
    } catch (error) {
      if (!(error instanceof PerpError)) throw error;
      fired.refusal = { code: error.code, message: error.message };
    }
    if (fired.result) fired.result.cancelled.push(...syncAttachedTriggers(venue, fired.result.fills));
    fired.after = positionOf();
    result.fired.push(fired);
  }
  return result;
}
