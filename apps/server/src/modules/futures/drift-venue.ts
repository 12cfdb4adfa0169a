import {
  FUTURES_MAKER_FEE_RATE,
  FUTURES_TAKER_FEE_RATE,
  type TFuturesOrderBook,
  type TFuturesPair,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { createProviderClient } from '../../lib/provider-client';
import { nextFundingAt } from './futures-markets';
import type { PerpVenue } from './perp-venue';

// Drift's public data API (https://data.api.drift.trade): the fields we read of GET /contracts and
// GET /fundingRates (recorded shapes in the tests). Numbers arrive as strings or numbers.
const ZNumeric = z.union([z.string(), z.number()]).transform((value) => new Dec(value));

const ZDriftContract = z.object({
  contract_index: z.coerce.number().int(),
  ticker_id: z.string(),
  base_currency: z.string(),
  product_type: z.string(),
  last_price: ZNumeric,
  index_price: ZNumeric,
  open_interest: ZNumeric,
  quote_volume: ZNumeric.optional(),
  /** Hourly, in percent. */
  funding_rate: ZNumeric,
  next_funding_rate: ZNumeric.optional(),
  next_funding_rate_timestamp: z.union([z.string(), z.number()]).optional(),
});
const ZDriftContracts = z.object({ contracts: z.array(ZDriftContract) });

const ZDriftFundingRates = z.object({
  fundingRates: z.array(
    z.object({
      ts: z.union([z.string(), z.number()]),
      /** Quote per base with 9 decimals: over the oracle TWAP (6 decimals) it is the hourly rate. */
      fundingRate: ZNumeric,
      oraclePriceTwap: ZNumeric,
    }),
  ),
});

const CONTRACTS_TTL_MS = 30_000;

/**
 * PERP_VENUE=drift: Drift's markets, funding, open interest and volume from its data API, read-only.
 * The book is not served (Drift's order book lives in its DLOB servers) and trading is not built.
 */
export function createDriftPerpVenue(deps: {
  baseUrl: string;
  timeoutMs: number;
  log: FastifyBaseLogger;
  now: () => Date;
  fetch?: typeof fetch;
}): PerpVenue {
  const client = createProviderClient({
    name: 'Drift',
    baseUrl: deps.baseUrl,
    timeoutMs: deps.timeoutMs,
    log: deps.log,
    fetch: deps.fetch,
  });

  async function contracts() {
    const answer = await client.get('/contracts', undefined, ZDriftContracts, CONTRACTS_TTL_MS);
    return (answer?.contracts ?? []).filter((contract) => contract.product_type.toUpperCase() === 'PERP');
  }

  async function contractOf(symbol: string) {
    const wanted = symbol.trim().toUpperCase();
    const id = wanted.includes('-') ? wanted : `${wanted.split('/')[0]}-PERP`;
    const contract = (await contracts()).find((entry) => entry.ticker_id.toUpperCase() === id);
    if (!contract) throw new AppError('FUTURES__MARKET_UNSUPPORTED');
    return contract;
  }

  const hourly = (percent: Dec) => percent.div(100).toFixed();

  function pairOf(contract: z.infer<typeof ZDriftContract>): TFuturesPair {
    return {
      id: contract.ticker_id,
      symbol: contract.ticker_id,
      base_symbol: contract.base_currency,
      market_index: contract.contract_index,
      tick_size: '0.0001',
      min_order_size: '0.001',
      max_leverage: 20,
      maintenance_margin_fraction: '0.025',
      oracle_price: contract.index_price.toFixed(),
      taker_fee: new Dec(FUTURES_TAKER_FEE_RATE).toFixed(),
      maker_fee: new Dec(FUTURES_MAKER_FEE_RATE).toFixed(),
    };
  }

  const emptyBook = (symbol: string): TFuturesOrderBook => ({
    symbol,
    bids: [],
    asks: [],
    best_bid: null,
    best_ask: null,
    spread: null,
    spread_percent: null,
    at: deps.now().toISOString(),
  });

  const nextFunding = (contract: z.infer<typeof ZDriftContract>) =>
    contract.next_funding_rate_timestamp !== undefined
      ? new Date(Number(contract.next_funding_rate_timestamp)).toISOString()
      : nextFundingAt(deps.now()).toISOString();

  return {
    kind: 'drift',
    pairs: async () => (await contracts()).map(pairOf),
    pair: async (id) => pairOf(await contractOf(id)),
    async market(symbol) {
      const contract = await contractOf(symbol);
      return {
        symbol: contract.ticker_id,
        oracle_price: contract.index_price.toFixed(),
        mark_price: contract.last_price.toFixed(),
        last_price: contract.last_price.toFixed(),
        funding_rate: hourly(contract.funding_rate),
        next_funding_at: nextFunding(contract),
        open_interest: contract.open_interest.toFixed(),
        volume_24h: (contract.quote_volume ?? new Dec(0)).toFixed(),
        order_book: emptyBook(contract.ticker_id),
      };
    },
    book: async (symbol) => emptyBook((await contractOf(symbol)).ticker_id),
    async funding(symbol) {
      const contract = await contractOf(symbol);
      const rates = await client.get(
        '/fundingRates',
        { marketName: contract.ticker_id },
        ZDriftFundingRates,
        CONTRACTS_TTL_MS,
      );
      return {
        symbol: contract.ticker_id,
        funding_rate: hourly(contract.funding_rate),
        predicted_rate: hourly(contract.next_funding_rate ?? contract.funding_rate),
        next_funding_at: nextFunding(contract),
        history: (rates?.fundingRates ?? [])
          .slice(-24)
          .reverse()
          .map((rate) => ({
            rate: rate.oraclePriceTwap.isZero()
              ? '0'
              : rate.fundingRate.div(1e9).div(rate.oraclePriceTwap.div(1e6)).toFixed(),
            at: new Date(Number(rate.ts) * 1000).toISOString(),
          })),
      };
    },
    async openInterest(symbol) {
      const contract = await contractOf(symbol);
      return {
        symbol: contract.ticker_id,
        open_interest: contract.open_interest.toFixed(),
        open_interest_usd: contract.open_interest.times(contract.index_price).toFixed(2),
      };
    },
    async volume(symbol) {
      const contract = await contractOf(symbol);
      return {
        symbol: contract.ticker_id,
        volume_24h: (contract.quote_volume ?? new Dec(0)).toFixed(),
        trades_24h: 0,
      };
    },
  };
}
