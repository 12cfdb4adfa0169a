import { Dec } from '../money/decimal';
import { PerpExchange } from './perp-exchange';
import { newAccount, Position, type PerpMarketSpec } from './perp-state';

/** A PerpExchange as JSON (bigints as decimal strings): what a restart rebuilds the venue from. */
export interface PerpSnapshot {
  readonly insurance: string;
  readonly fees: string;
  readonly nextOrderId: number;
  readonly markets: readonly {
    symbol: string;
    oracle: string;
    lastPrice: string | null;
    longLots: string;
    volume: string;
    lastFundingRate: string;
  }[];
  readonly accounts: readonly {
    id: string;
    collateral: string;
    positions: readonly [symbol: string, size: string, quote: string, funding: string][];
    leverage: readonly [symbol: string, leverage: number][];
  }[];
  /** Open orders, oldest first (their ids rise with time, which keeps each level's priority). */
  readonly orders: readonly {
    id: number;
    market: string;
    account: string;
    side: 'buy' | 'sell';
    price: string;
    size: string;
    remaining: string;
    reduceOnly: boolean;
    leverage: number;
    createdAt: number;
  }[];
  /** Trigger orders waiting for the oracle, oldest first (absent in snapshots from before them). */
  readonly triggers?: readonly {
    id: number;
    market: string;
    account: string;
    side: 'buy' | 'sell';
    kind: 'stop_market' | 'take_profit_market';
    triggerPrice: string;
    size: string;
    reduceOnly: boolean;
    attached: 'tp' | 'sl' | null;
    createdAt: number;
  }[];
}

export function snapshotOf(exchange: PerpExchange): PerpSnapshot {
  const orders = [...exchange.markets.values()]
    .flatMap((market) => market.book.orders())
    .sort((a, b) => a.id - b.id);
  return {
    insurance: exchange.insurance.toString(),
    fees: exchange.fees.toString(),
    nextOrderId: exchange.nextOrderId,
    markets: [...exchange.markets.values()].map((market) => ({
      symbol: market.spec.symbol,
      oracle: market.oracle.toString(),
      lastPrice: market.lastPrice?.toString() ?? null,
      longLots: market.longLots.toString(),
      volume: market.volume.toString(),
      lastFundingRate: market.lastFundingRate.toString(),
    })),
    accounts: [...exchange.accounts.values()].map((account) => ({
      id: account.id,
      collateral: account.collateral.toString(),
      positions: [...account.positions].map(
        ([symbol, p]) => [symbol, p.size.toString(), p.quote.toString(), p.funding.toString()] as const,
      ),
      leverage: [...account.leverage],
    })),
    orders: orders.map((order) => ({
      ...order.toJSON(),
      price: order.price.toString(),
      size: order.size.toString(),
      remaining: order.remaining.toString(),
    })),
    triggers: [...exchange.markets.values()]
      .flatMap((market) => [...market.triggers.values()])
      .sort((a, b) => a.id - b.id)
      .map((trigger) => ({
        ...trigger,
        triggerPrice: trigger.triggerPrice.toString(),
        size: trigger.size.toString(),
      })),
  };
}

/** Rebuilds an exchange from a snapshot over the given market rules (markets no longer listed are dropped). */
export function exchangeFromSnapshot(specs: readonly PerpMarketSpec[], snapshot: PerpSnapshot): PerpExchange {
  const exchange = new PerpExchange(specs);
  exchange.insurance = BigInt(snapshot.insurance);
  exchange.fees = BigInt(snapshot.fees);
  exchange.nextOrderId = snapshot.nextOrderId;
  for (const saved of snapshot.markets) {
    const market = exchange.markets.get(saved.symbol);
    if (!market) continue;
    market.oracle = BigInt(saved.oracle);
    market.lastPrice = saved.lastPrice === null ? null : BigInt(saved.lastPrice);
    market.longLots = BigInt(saved.longLots);
    market.volume = BigInt(saved.volume);
    market.lastFundingRate = new Dec(saved.lastFundingRate);
  }
  for (const saved of snapshot.accounts) {
    const account = newAccount(saved.id);
    account.collateral = BigInt(saved.collateral);
    for (const [symbol, size, quote, funding] of saved.positions)
      account.positions.set(symbol, new Position(BigInt(size), BigInt(quote), BigInt(funding)));
    for (const [symbol, leverage] of saved.leverage) account.leverage.set(symbol, leverage);
    exchange.accounts.set(saved.id, account);
  }
  for (const saved of snapshot.orders) {
    if (!exchange.markets.has(saved.market)) continue;
    exchange.restoreOrder({
      ...saved,
      price: BigInt(saved.price),
      size: BigInt(saved.size),
      remaining: BigInt(saved.remaining),
    });
  }
  for (const saved of snapshot.triggers ?? []) {
    if (!exchange.markets.has(saved.market)) continue;
    exchange.restoreTrigger({ ...saved, triggerPrice: BigInt(saved.triggerPrice), size: BigInt(saved.size) });
  }
  return exchange;
}
