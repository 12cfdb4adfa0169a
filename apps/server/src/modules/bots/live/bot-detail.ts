import {
  BOT_DETAIL_MAX_RUNS,
  type TBotDetail,
  type TBotDetailQuery,
  type TBotPosition,
  type TBotRunSummary,
} from '@solterm/contracts';
import { Dec, fromBaseUnits } from '@solterm/engine';
import { AppError } from '../../../lib/app-error';
import type { MarketService } from '../../market/market.service';
import type { BotRow } from '../bots.repository';
import type { BotFillRow, BotRunRow, BotRunsRepository } from './bot-runs.repository';

/** Price and value figures: 10 significant digits is what the market answers prices with. */
const significant = (value: Dec) => Number(value.toSignificantDigits(10).toString());
const places = (value: Dec, n: number) => Number(value.toDecimalPlaces(n).toString());

/** An open lot: base bought and the quote paid for it (fee included), in base units. */
interface Lot {
  base: bigint;
  quote: bigint;
}

/**
 * The lots still open after `fills`, oldest first: a buy opens one, a sell closes base from the
 * oldest (a partial close keeps the rest of a lot at its share of the cost).
 */
export function openLotsOf(fills: readonly Pick<BotFillRow, 'side' | 'baseAmount' | 'quoteAmount'>[]): Lot[] {
  const lots: Lot[] = [];
  for (const fill of fills) {
    const base = BigInt(fill.baseAmount);
    if (fill.side === 'Buy') {
      lots.push({ base, quote: BigInt(fill.quoteAmount) });
      continue;
    }
    let left = base;
    while (left > 0n && lots.length > 0) {
      const lot = lots[0]!;
      if (lot.base <= left) {
        left -= lot.base;
        lots.shift();
      } else {
        const quote = (lot.quote * (lot.base - left)) / lot.base;
        lots[0] = { base: lot.base - left, quote };
        left = 0n;
      }
    }
  }
  return lots;
}

/**
 * The open position of a run valued at `livePrice` (quote per base token): unrealized PnL is the
 * value at that price less what the open lots cost, fees included. Null when the run is flat.
 */
export function positionOf(run: BotRunRow, lots: readonly Lot[], livePrice: Dec | null): TBotPosition | null {
  const baseUnits = lots.reduce((sum, lot) => sum + lot.base, 0n);
  if (baseUnits === 0n) return null;
  const base = fromBaseUnits(baseUnits, run.baseDecimals);
  const cost = fromBaseUnits(
    lots.reduce((sum, lot) => sum + lot.quote, 0n),
    run.quoteDecimals,
  );
  const value = livePrice === null ? null : base.times(livePrice);
  const pnl = value === null ? null : value.minus(cost);
  return {
    base_amount: base.toNumber(),
    cost: places(cost, 6),
    average_price: significant(cost.div(base)),
    live_price: livePrice === null ? null : significant(livePrice),
    market_value: value === null ? null : places(value, 6),
    unrealized_pnl: pnl === null ? null : places(pnl, 6),
    unrealized_pnl_pct: pnl === null || cost.isZero() ? null : places(pnl.div(cost).times(100), 2),
  };
}

/** Cash plus open base at each fill's own price, and a last point now at the live price. */
function equityOf(run: BotRunRow, fills: readonly BotFillRow[], livePrice: Dec | null, now: Date) {
  let cash = BigInt(run.initialCash);
  let base = 0n;
  const quote = (units: bigint) => fromBaseUnits(units, run.quoteDecimals);
  const points = [{ time: run.startedAt.toISOString(), value: places(quote(cash), 6) }];
  let price: Dec | null = null;
  for (const fill of fills) {
    const baseUnits = BigInt(fill.baseAmount);
    const quoteUnits = BigInt(fill.quoteAmount);
    cash += fill.side === 'Buy' ? -quoteUnits : quoteUnits;
    base += fill.side === 'Buy' ? baseUnits : -baseUnits;
    if (baseUnits > 0n) price = quote(quoteUnits).div(fromBaseUnits(baseUnits, run.baseDecimals));
    const held = price === null ? new Dec(0) : price.times(fromBaseUnits(base, run.baseDecimals));
    points.push({ time: fill.time.toISOString(), value: places(quote(cash).plus(held), 6) });
  }
  const mark = run.status === 'running' ? livePrice : null;
  if (mark !== null) {
    const held = mark.times(fromBaseUnits(base, run.baseDecimals));
    points.push({ time: now.toISOString(), value: places(quote(cash).plus(held), 6) });
  }
  return points;
}

/** GET /bots/{id}/detail: what one of the owner's bots did — runs, fills, position, equity, errors. */
export function createBotDetail(deps: {
  findOwned: (userId: string, id: string) => Promise<BotRow | undefined>;
  repo: BotRunsRepository;
  market: MarketService;
  now: () => Date;
}) {
  /** The pair's live price in its quote token, or null when the market has none right now. */
  async function livePriceOf(symbol: string) {
    try {
      const pair = await deps.market.resolvePair(symbol);
      const [base, quote] = await Promise.all([
        deps.market.getUsdPrice(pair.base),
        deps.market.getUsdPrice(pair.quote),
      ]);
      return { pair, price: new Dec(base).div(quote) };
    } catch {
      return { pair: null, price: null };
    }
  }

  function summaryOf(
    run: BotRunRow,
    stats: { fills: number; sells: number; pnl: bigint } | undefined,
    now: Date,
  ): TBotRunSummary {
    const until = run.stoppedAt ?? (run.status === 'running' ? now : run.endsAt);
    return {
      run_id: run.id,
      mode: run.mode,
      status: run.status as TBotRunSummary['status'],
      message: run.message,
      started_at: run.startedAt.toISOString(),
      stopped_at: run.stoppedAt?.toISOString() ?? null,
      ends_at: run.endsAt.toISOString(),
      duration_seconds: Math.max(0, Math.floor((until.getTime() - run.startedAt.getTime()) / 1000)),
      fills: stats?.fills ?? 0,
      trades: stats?.sells ?? 0,
      realised_pnl: fromBaseUnits(stats?.pnl ?? 0n, run.quoteDecimals).toNumber(),
      initial_balance: fromBaseUnits(BigInt(run.initialCash), run.quoteDecimals).toNumber(),
    };
  }

  return {
    /** @throws AppError BOTS__NOT_FOUND for a bot that is not the caller's, or a run not of this bot. */
    async detail(userId: string, botId: string, query: TBotDetailQuery): Promise<TBotDetail> {
      const bot = await deps.findOwned(userId, botId);
      if (!bot) throw new AppError('BOTS__NOT_FOUND');
      const now = deps.now();
      const runs = await deps.repo.runsOf(bot.id, BOT_DETAIL_MAX_RUNS);
      const run = query.run_id === undefined ? runs[0] : runs.find((row) => row.id === query.run_id);
      if (query.run_id !== undefined && !run) throw new AppError('BOTS__NOT_FOUND');
      const [stats, fills, live] = await Promise.all([
        deps.repo.statsOfRuns(runs.map((row) => row.id)),
        run ? deps.repo.fillsOfRuns([run.id]).then((map) => map.get(run.id) ?? []) : [],
        livePriceOf(bot.config.symbol),
      ]);
      const [baseSymbol, quoteSymbol] = live.pair
        ? [live.pair.base.symbol, live.pair.quote.symbol]
        : bot.config.symbol.split('/');
      const newestFirst = [...fills].reverse().slice(query.offset, query.offset + query.limit);
      return {
        bot_id: bot.id,
        bot_name: bot.name,
        symbol: bot.config.symbol,
        base_symbol: baseSymbol ?? bot.config.symbol,
        quote_symbol: quoteSymbol ?? '',
        status: bot.status as TBotDetail['status'],
        runs: runs.map((row) => summaryOf(row, stats.get(row.id), now)),
        run: run ? summaryOf(run, stats.get(run.id), now) : null,
        position: run ? positionOf(run, openLotsOf(fills), live.price) : null,
        equity: run ? equityOf(run, fills, live.price, now) : [],
        fills: {
          items: run
            ? newestFirst.map((fill) => {
                const base = fromBaseUnits(BigInt(fill.baseAmount), run.baseDecimals);
                const quote = fromBaseUnits(BigInt(fill.quoteAmount), run.quoteDecimals);
                return {
                  seq: fill.seq,
                  time: fill.time.toISOString(),
                  side: fill.side as 'Buy' | 'Sell',
                  base_amount: base.toNumber(),
                  quote_amount: quote.toNumber(),
                  price: base.isZero() ? 0 : significant(quote.div(base)),
                  pnl:
                    fill.pnl === null ? null : fromBaseUnits(BigInt(fill.pnl), run.quoteDecimals).toNumber(),
                  reason: fill.reason,
                  transaction_hash: fill.txSignature,
                };
              })
            : [],
          total: fills.length,
          limit: query.limit,
          offset: query.offset,
        },
        errors: runs
          .filter((row) => row.status === 'failed')
          .map((row) => ({
            run_id: row.id,
            time: (row.stoppedAt ?? row.startedAt).toISOString(),
            message: row.message ?? 'The run failed',
          })),
      };
    },
  };
}

export type BotDetail = ReturnType<typeof createBotDetail>;
