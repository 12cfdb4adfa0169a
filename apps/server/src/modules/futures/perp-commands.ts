import {
  Dec,
  PerpError,
  type FundingResult,
  type LiquidationResult,
  type PerpExchange,
  type PerpSide,
  type PlaceOrderResult,
  type TpslResult,
  type TriggerKind,
  type TriggerOrder,
  type TriggerResult,
} from '@solterm/engine';

/** The account the venue's market maker trades as, and the leverage its quotes are margined at. */
export const MAKER_ACCOUNT = 'venue:maker';
const MAKER_LEVERAGE = 10;

/**
 * One change to the perp venue, as stored in the command log (JSON: amounts, sizes and prices are
 * decimal strings of base units). Applying the same commands in the same order rebuilds the same
 * venue in any process.
 */
export type PerpCommand =
  | { k: 'deposit'; account: string; amount: string; at: number }
  | { k: 'withdraw'; account: string; amount: string; at: number }
  | { k: 'insurance'; amount: string; at: number }
  | {
      k: 'order';
      /**
       * 2: `leverage` is what the trader expects (refused if it differs from the account's setting
       * while the market has a position or orders). Absent (commands logged before leverage was an
       * account setting): `leverage` re-levered the market, and replays so.
       */
      v?: 2;
      account: string;
      market: string;
      side: PerpSide;
      type: 'market' | 'limit';
      size: string;
      price?: string;
      leverage: number;
      reduceOnly: boolean;
      postOnly: boolean;
      ioc: boolean;
      at: number;
    }
  | { k: 'cancel'; account: string; orderId: number; at: number }
  /** A stop market or take profit market order, waiting for the oracle. */
  | {
      k: 'trigger';
      account: string;
      market: string;
      side: PerpSide;
      kind: TriggerKind;
      size: string;
      triggerPrice: string;
      reduceOnly: boolean;
      at: number;
    }
  /** A position's take profit and stop loss: a price sets that leg, null cancels it, absent keeps it. */
  | {
      k: 'tpsl';
      account: string;
      market: string;
      takeProfit?: string | null;
      stopLoss?: string | null;
      at: number;
    }
  /** Fires the market's trigger orders the oracle has reached (the keeper, after an oracle move). */
  | { k: 'fire'; market: string; at: number }
  /** The account's leverage setting in a market (its position and open orders there follow it). */
  | { k: 'leverage'; account: string; market: string; leverage: number; at: number }
  | { k: 'oracle'; prices: Record<string, string>; at: number }
  /** The maker replaces its quotes in a market: `[price, size]` per level. */
  | { k: 'quote'; market: string; bids: [string, string][]; asks: [string, string][]; at: number }
  | { k: 'funding'; market: string; rate: string; at: number }
  | { k: 'liquidate'; account: string; at: number };

export type PerpEffect =
  | { k: 'none' }
  | { k: 'order'; result: PlaceOrderResult }
  | { k: 'cancel'; orderIds: number[] }
  | { k: 'trigger'; trigger: TriggerOrder; leverage: number }
  | { k: 'tpsl'; result: TpslResult; leverage: number }
  | { k: 'fire'; result: TriggerResult }
  | { k: 'leverage'; account: string; market: string; leverage: number }
  | { k: 'quote'; results: PlaceOrderResult[]; cancelled: number[] }
  | { k: 'funding'; result: FundingResult }
  | { k: 'liquidate'; result: LiquidationResult };

type OrderCommand = Extract<PerpCommand, { k: 'order' }>;

function placeOrder(exchange: PerpExchange, command: OrderCommand): PlaceOrderResult {
  const input = {
    account: command.account,
    market: command.market,
    side: command.side,
    type: command.type,
    size: BigInt(command.size),
    price: command.price === undefined ? undefined : BigInt(command.price),
    leverage: command.leverage,
    reduceOnly: command.reduceOnly,
    postOnly: command.postOnly,
    ioc: command.ioc,
    at: command.at,
  };
  if (command.v === 2) return exchange.placeOrder(input);
  // A command logged when each order re-levered its market: replayed the way it was applied then.
  const account = exchange.accounts.get(command.account);
  const before = account?.leverage.get(command.market);
  exchange.forceLeverage(command.account, command.market, command.leverage);
  try {
    return exchange.placeOrder(input);
  } catch (error) {
    if (account) {
      if (before === undefined) account.leverage.delete(command.market);
      else account.leverage.set(command.market, before);
    }
    throw error;
  }
}

function leverageOf(exchange: PerpExchange, account: string, market: string): number {
  return exchange.leverageOf(exchange.account(account), market);
}

/** Applies one command; a refusal throws PerpError and changes nothing. */
export function applyCommand(exchange: PerpExchange, command: PerpCommand): PerpEffect {
  switch (command.k) {
    case 'deposit':
      exchange.deposit(command.account, BigInt(command.amount));
      return { k: 'none' };
    case 'withdraw':
      exchange.withdraw(command.account, BigInt(command.amount));
      return { k: 'none' };
    case 'insurance':
      exchange.fundInsurance(BigInt(command.amount));
      return { k: 'none' };
    case 'order':
      return { k: 'order', result: placeOrder(exchange, command) };
    case 'leverage':
      exchange.setLeverage(command.account, command.market, command.leverage);
      return { k: 'leverage', account: command.account, market: command.market, leverage: command.leverage };
    case 'cancel':
      exchange.cancelOrder(command.account, command.orderId);
      return { k: 'cancel', orderIds: [command.orderId] };
    case 'trigger': {
      const trigger = exchange.placeTrigger({
        account: command.account,
        market: command.market,
        side: command.side,
        kind: command.kind,
        size: BigInt(command.size),
        triggerPrice: BigInt(command.triggerPrice),
        reduceOnly: command.reduceOnly,
        at: command.at,
      });
      return { k: 'trigger', trigger, leverage: leverageOf(exchange, command.account, command.market) };
    }
    case 'tpsl': {
      const price = (text: string | null | undefined) =>
        text === undefined || text === null ? text : BigInt(text);
      const result = exchange.setPositionTpsl({
        account: command.account,
        market: command.market,
        takeProfit: price(command.takeProfit),
        stopLoss: price(command.stopLoss),
        at: command.at,
      });
      return { k: 'tpsl', result, leverage: leverageOf(exchange, command.account, command.market) };
    }
    case 'fire':
      return { k: 'fire', result: exchange.fireTriggers(command.market, command.at) };
    case 'oracle':
      for (const [market, price] of Object.entries(command.prices)) exchange.setOracle(market, BigInt(price));
      return { k: 'none' };
    case 'quote': {
      const cancelled = exchange.cancelAll(MAKER_ACCOUNT, command.market);
      exchange.forceLeverage(MAKER_ACCOUNT, command.market, MAKER_LEVERAGE);
      const results: PlaceOrderResult[] = [];
      const levels = [
        ...command.bids.map(([price, size]) => ({ side: 'buy' as const, price, size })),
        ...command.asks.map(([price, size]) => ({ side: 'sell' as const, price, size })),
      ];
      for (const level of levels) {
        try {
          results.push(
            exchange.placeOrder({
              account: MAKER_ACCOUNT,
              market: command.market,
              side: level.side,
              type: 'limit',
              size: BigInt(level.size),
              price: BigInt(level.price),
              at: command.at,
            }),
          );
        } catch (error) {
          // A level the maker cannot margin is skipped (the same way in every replay).
          if (!(error instanceof PerpError)) throw error;
        }
      }
      return { k: 'quote', results, cancelled };
    }
    case 'funding':
      return {
        k: 'funding',
        result: exchange.applyFunding(command.market, new Dec(command.rate), command.at),
      };
    case 'liquidate':
      // The maker is the backstop (as Hyperliquid's liquidator vault): it takes over at the oracle
      // what the book would only have taken past the account's bankruptcy price.
      return { k: 'liquidate', result: exchange.liquidate(command.account, command.at, MAKER_ACCOUNT) };
  }
}
