import {
  FUTURES_MAKER_FEE_RATE,
  FUTURES_TAKER_FEE_RATE,
  type TFuturesFunding,
  type TFuturesMarket,
  type TFuturesOrderBook,
  type TFuturesPair,
} from '@solterm/contracts';
import {
  Dec,
  fundingRate,
  maintenanceFraction,
  PERP_FUNDING_INTERVAL_MS,
  type PerpExchange,
} from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { FuturesRepository } from './futures.repository';
import type { PerpLedger } from './perp-ledger';
import { findPerpMarket, PERP_MARKETS, type PerpMarket } from './perp-markets';
import { createPerpWire } from './perp-wire';

const BOOK_LEVELS = 15;
const DAY_MS = 86_400_000;

/** The next whole hour: when funding is paid. */
export function nextFundingAt(now: Date): Date {
  return new Date(Math.floor(now.getTime() / PERP_FUNDING_INTERVAL_MS + 1) * PERP_FUNDING_INTERVAL_MS);
}

/** The mid of the book, or the oracle when a side is empty (the mark the premium is measured from). */
export function markOf(exchange: PerpExchange, symbol: string): bigint {
  const market = exchange.market(symbol);
  const bid = market.book.bestPrice('buy');
  const ask = market.book.bestPrice('sell');
  return bid !== undefined && ask !== undefined ? (bid + ask) / 2n : market.oracle;
}

/** The public side of the local venue: markets, books, funding, open interest and volume. */
export interface FuturesMarketsDeps {
  ledger: PerpLedger;
  repo: FuturesRepository;
  now: () => Date;
  /**
   * Brings a market up to the feed (the keeper leaves one nobody uses where it is): a public read
   * answers today's oracle and book, never those of the last time the market was used.
   */
  syncMarket?: (symbol: string) => Promise<void>;
  log?: FastifyBaseLogger;
}

export function createFuturesMarkets(deps: FuturesMarketsDeps) {
  const { ledger, repo } = deps;
  const wire = createPerpWire();

  /** A read still answers (the last applied prices) when the feed cannot be reached. */
  async function current(symbol: string): Promise<void> {
    await deps.syncMarket?.(symbol).catch((error: unknown) => {
      deps.log?.warn({ err: error, market: symbol }, 'could not bring a perp market up to the feed');
    });
  }

  function marketOf(symbol: string): PerpMarket {
    const market = findPerpMarket(symbol);
    if (!market) throw new AppError('FUTURES__MARKET_UNSUPPORTED');
    return market;
  }

  function pairToWire(exchange: PerpExchange, market: PerpMarket): TFuturesPair {
    const oracle = exchange.market(market.symbol).oracle;
    return {
      id: market.symbol,
      symbol: market.symbol,
      base_symbol: market.baseSymbol,
      market_index: market.index,
      tick_size: wire.price(market.tick, market),
      min_order_size: wire.size(market.minSize, market),
      max_leverage: market.maxLeverage,
      maintenance_margin_fraction: maintenanceFraction(market.maxLeverage).toFixed(),
      oracle_price: oracle > 0n ? wire.price(oracle, market) : null,
      taker_fee: new Dec(FUTURES_TAKER_FEE_RATE).toFixed(),
      maker_fee: new Dec(FUTURES_MAKER_FEE_RATE).toFixed(),
    };
  }

  function bookOf(exchange: PerpExchange, market: PerpMarket): TFuturesOrderBook {
    const { book } = exchange.market(market.symbol);
    const level = (entry: { price: bigint; size: bigint; orders: number }) => ({
      price: wire.price(entry.price, market),
      size: wire.size(entry.size, market),
      orders: entry.orders,
    });
    const bid = book.bestPrice('buy');
    const ask = book.bestPrice('sell');
    const spread = bid !== undefined && ask !== undefined ? ask - bid : undefined;
    return {
      symbol: market.symbol,
      bids: book.depth('buy', BOOK_LEVELS).map(level),
      asks: book.depth('sell', BOOK_LEVELS).map(level),
      best_bid: bid === undefined ? null : wire.price(bid, market),
      best_ask: ask === undefined ? null : wire.price(ask, market),
      spread: spread === undefined ? null : wire.price(spread, market),
      spread_percent:
        spread === undefined || bid === undefined
          ? null
          : new Dec(spread.toString())
              .div(((bid + ask!) / 2n).toString())
              .times(100)
              .toFixed(4),
      at: deps.now().toISOString(),
    };
  }

  return {
    async pairs(): Promise<TFuturesPair[]> {
      for (const market of PERP_MARKETS) await current(market.symbol);
      const exchange = await ledger.read();
      return PERP_MARKETS.map((market) => pairToWire(exchange, market));
    },

    async pair(id: string): Promise<TFuturesPair> {
      const market = marketOf(id);
      await current(market.symbol);
      return pairToWire(await ledger.read(), market);
    },

    async book(symbol: string): Promise<TFuturesOrderBook> {
      const market = marketOf(symbol);
      await current(market.symbol);
      return bookOf(await ledger.read(), market);
    },

    /** The book of a market from the venue in memory (for the channel push, no database read). */
    bookNow(symbol: string): TFuturesOrderBook {
      return bookOf(ledger.current(), marketOf(symbol));
    },

    async market(symbol: string): Promise<TFuturesMarket> {
      const market = marketOf(symbol);
      await current(market.symbol);
      const exchange = await ledger.read();
      const state = exchange.market(market.symbol);
      if (state.oracle <= 0n) throw new AppError('FUTURES__NO_MARKET_PRICE');
      const volume = await repo.volumeSince(market.symbol, new Date(deps.now().getTime() - DAY_MS));
      return {
        symbol: market.symbol,
        oracle_price: wire.price(state.oracle, market),
        mark_price: wire.price(markOf(exchange, market.symbol), market),
        last_price: state.lastPrice === null ? null : wire.price(state.lastPrice, market),
        funding_rate: state.lastFundingRate.toFixed(),
        next_funding_at: nextFundingAt(deps.now()).toISOString(),
        open_interest: wire.size(state.longLots, market),
        volume_24h: wire.usdc(volume.notional),
        order_book: bookOf(exchange, market),
      };
    },

    async funding(symbol: string): Promise<TFuturesFunding> {
      const market = marketOf(symbol);
      const exchange = await ledger.read();
      const state = exchange.market(market.symbol);
      const history = await repo.fundingHistory(market.symbol, 24);
      const oracle = new Dec(state.oracle.toString());
      return {
        symbol: market.symbol,
        funding_rate: state.lastFundingRate.toFixed(),
        predicted_rate:
          state.oracle > 0n
            ? fundingRate(new Dec(markOf(exchange, market.symbol).toString()), oracle).toFixed()
            : '0',
        next_funding_at: nextFundingAt(deps.now()).toISOString(),
        history: history.map((row) => ({
          rate: new Dec(row.rate).toFixed(),
          at: row.createdAt.toISOString(),
        })),
      };
    },

    async openInterest(symbol: string) {
      const market = marketOf(symbol);
      const state = (await ledger.read()).market(market.symbol);
      const usd = (state.longLots * state.oracle) / 10n ** BigInt(market.sizeDecimals);
      return {
        symbol: market.symbol,
        open_interest: wire.size(state.longLots, market),
        open_interest_usd: wire.usdc(usd),
      };
    },

    async volume(symbol: string) {
      const market = marketOf(symbol);
      const volume = await repo.volumeSince(market.symbol, new Date(deps.now().getTime() - DAY_MS));
      return { symbol: market.symbol, volume_24h: wire.usdc(volume.notional), trades_24h: volume.trades };
    },

    async recentTrades(symbol: string, limit = 30) {
      const market = marketOf(symbol);
      const rows = await repo.recentFills(market.symbol, limit);
      return rows.map((row) => ({
        symbol: row.symbol,
        side: row.side as 'Long' | 'Short',
        size: wire.size(BigInt(row.size), market),
        price: wire.price(BigInt(row.price), market),
        at: row.createdAt.toISOString(),
      }));
    },
  };
}

export type FuturesMarkets = ReturnType<typeof createFuturesMarkets>;
