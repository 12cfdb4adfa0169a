import type { ZMarketplaceQuerySchema } from '@solterm/contracts';
import {
  CHART_INTERVAL_SECONDS,
  getMarketplaceRisk,
  MAX_BOTS_PER_USER,
  type TBacktestResult,
  type TBot,
  type TBotMetrics,
  type TDriftScore,
  type TMarketplaceBot,
  type TMarketplaceBotDetail,
  type TMarketplacePage,
} from '@solterm/contracts';
import { Dec, fromBaseUnits } from '@solterm/engine';
import type { z } from 'zod';
import { AppError, isAppError } from '../../../lib/app-error';
import type { BacktestTaskPayload } from '../backtest/backtest-task';
import { resolveBotStrategy } from '../bot-strategy';
import type { BotRow, BotsRepository } from '../bots.repository';
import { NO_METRICS } from '../live/bot-metrics';
import type { BotFillRow, BotRunRow } from '../live/bot-runs.repository';
import { seedOfRun } from '../live/bot-runner';
import type { BotRunsService } from '../live/bot-runs.service';
import { provenWalletOf, type WalletOwner } from '../../wallet/wallet.service';
import type { MarketplaceRepository } from './marketplace.repository';

/** Public bots the marketplace reads for one search (newest first), before filtering and sorting. */
const MAX_SCANNED = 2_000;
/** Fills a listing's detail shows (newest first). */
const MAX_DETAIL_FILLS = 50;
/** Creators a search by name may match. */
const MAX_CREATORS_MATCHED = 500;
const PCT = 2;

type Query = z.output<typeof ZMarketplaceQuerySchema>;

const round = (value: Dec, places = PCT) => value.toDecimalPlaces(places).toNumber();
/** A percentage at PCT places; one that rounds to zero is "0.00", never "-0.00". */
export function percentText(value: Dec): string {
  const rounded = value.toDecimalPlaces(PCT);
  return rounded.isZero() ? (0).toFixed(PCT) : rounded.toFixed(PCT);
}

/** Portfolio value after each fill: the run's cash plus its open base valued at that fill's price. */
function equityOf(run: BotRunRow, fills: readonly BotFillRow[]) {
  let cash = BigInt(run.initialCash);
  let base = 0n;
  const points = [
    { time: run.startedAt.toISOString(), value: fromBaseUnits(cash, run.quoteDecimals).toNumber() },
  ];
  for (const fill of fills) {
    const baseUnits = BigInt(fill.baseAmount);
    const quoteUnits = BigInt(fill.quoteAmount);
    if (fill.side === 'Buy') {
      cash -= quoteUnits;
      base += baseUnits;
    } else {
      cash += quoteUnits;
      base -= baseUnits;
    }
    const price = fromBaseUnits(quoteUnits, run.quoteDecimals).div(
      fromBaseUnits(baseUnits, run.baseDecimals),
    );
    const value = fromBaseUnits(cash, run.quoteDecimals).plus(
      price.times(fromBaseUnits(base, run.baseDecimals)),
    );
    points.push({ time: fill.time.toISOString(), value: round(value, 6) });
  }
  return points;
}

/**
 * The bot marketplace: public bots with figures the platform computes from each bot's own fills
 * (never entered by anyone), a track record with a backtest-vs-live drift score, and copying.
 */
export function createMarketplaceService(deps: {
  repo: MarketplaceRepository;
  bots: BotsRepository;
  runs: BotRunsService;
  /** Public names (usernames) of users, and users whose name matches a search. */
  users: {
    publicNamesOf(ids: readonly string[]): Promise<Map<string, string>>;
    usersNamedLike(text: string, limit: number): Promise<string[]>;
  };
  backtest: (payload: BacktestTaskPayload) => Promise<TBacktestResult>;
  /** A wallet's SOL on chain, in lamports (0 for an account that does not exist). */
  lamportsOf: (walletAddress: string) => Promise<bigint>;
  now: () => Date;
}) {
  async function listingsOf(rows: readonly BotRow[], viewerId: string): Promise<TMarketplaceBot[]> {
    const ids = rows.map((row) => row.id);
    const [metrics, modes, copies, names, copied] = await Promise.all([
      deps.runs.metricsOf(ids),
      deps.runs.modesOf(ids),
      deps.repo.copyCounts(ids),
      deps.users.publicNamesOf([...new Set(rows.map((row) => row.userId))]),
      deps.repo.copiedBy(viewerId, ids),
    ]);
    return rows.map((row) => {
      const figures: TBotMetrics = metrics.get(row.id) ?? NO_METRICS;
      const mode = modes.get(row.id);
      return {
        bot_id: row.id,
        bot_name: row.name,
        strategy_type: row.strategyType,
        status: row.status as TMarketplaceBot['status'],
        is_running: row.status === 'running',
        network_mode: row.networkMode,
        ...figures,
        creator_name: names.get(row.userId) ?? 'unknown',
        user_count: copies.get(row.id) ?? 0,
        description: row.description,
        is_public: row.isPublic,
        config: row.config,
        risk: getMarketplaceRisk(row.strategyType),
        record_source: mode === undefined ? 'none' : mode === 'mainnet' ? 'onchain' : 'paper',
        created_at: row.createdAt.toISOString(),
        is_yours: row.userId === viewerId,
        is_copied: copied.has(row.id),
      };
    });
  }

  /** The live record against the bot's own backtest over the same candles. */
  async function driftOf(
    bot: BotRow,
    run: BotRunRow,
    fills: readonly BotFillRow[],
  ): Promise<TDriftScore | null> {
    if (run.lastCandle === null) return null;
    const step = CHART_INTERVAL_SECONDS[run.config.interval];
    const from = new Date(run.firstCandle * 1000);
    const to = new Date((run.lastCandle + step) * 1000 - 1);
    const initial = fromBaseUnits(BigInt(run.initialCash), run.quoteDecimals);
    let backtest: TBacktestResult;
    try {
      backtest = await deps.backtest({
        strategy: resolveBotStrategy(run.strategyType, run.config),
        config: run.config,
        from: from.toISOString(),
        to: to.toISOString(),
        initialBalance: initial.toNumber(),
        seed: seedOfRun(run.id),
        userId: bot.userId,
        botId: bot.id,
      });
    } catch (error) {
      // A window the backtest refuses (one candle old, too long, busy): the record shows without
      // a drift score rather than failing.
      if (isAppError(error)) return null;
      throw error;
    }
    const liveFinal = equityOf(run, fills).at(-1)!.value;
    const liveReturn = new Dec(liveFinal).minus(initial).div(initial).times(100);
    const key = (time: string, side: string) => `${Date.parse(time)}:${side}`;
    const backtested = new Set(backtest.trades.map((trade) => key(trade.time, trade.side)));
    const matched = fills.filter((fill) => backtested.has(key(fill.time.toISOString(), fill.side))).length;
    const larger = Math.max(fills.length, backtest.trades.length);
    const ratio = larger === 0 ? 1 : matched / larger;
    const gap = liveReturn.minus(backtest.total_return);
    const liveTrades = fills.filter((fill) => fill.side === 'Sell').length;
    return {
      from: from.toISOString(),
      to: new Date((run.lastCandle + step) * 1000).toISOString(),
      live_return_pct: round(liveReturn),
      backtest_return_pct: round(new Dec(backtest.total_return)),
      return_gap_pct: round(gap),
      trade_match_ratio: Number(ratio.toFixed(3)),
      // Both returns and the gap at the same two places; fills are fills, trades are round trips.
      explanation:
        `Live ${percentText(liveReturn)} % vs its backtest ${percentText(new Dec(backtest.total_return))} % ` +
        `over the same candles (${gap.toDecimalPlaces(PCT).greaterThan(0) ? '+' : ''}${percentText(gap)} points); ` +
        `${matched} of ${larger} fills at the same candle and side; ` +
        `${liveTrades} ${liveTrades === 1 ? 'trade' : 'trades'} live, ${backtest.total_trades} in the backtest.`,
    };
  }

  return {
    /** GET /bots/marketplace: public bots matching the search and risk, sorted and paged. */
    async list(viewerId: string, query: Query): Promise<TMarketplacePage> {
      const creators = query.query ? await deps.users.usersNamedLike(query.query, MAX_CREATORS_MATCHED) : [];
      let listed = await listingsOf(await deps.repo.publicBots(query.query, creators, MAX_SCANNED), viewerId);
      if (query.risk !== 'All') listed = listed.filter((bot) => bot.risk === query.risk);
      const order: Record<Query['sort'], (a: TMarketplaceBot, b: TMarketplaceBot) => number> = {
        profit: (a, b) => b.total_pnl - a.total_pnl,
        users: (a, b) => b.user_count - a.user_count,
        newest: (a, b) => b.created_at.localeCompare(a.created_at),
        name: (a, b) => a.bot_name.localeCompare(b.bot_name),
      };
      listed.sort((a, b) => order[query.sort](a, b) || a.bot_id.localeCompare(b.bot_id));
      return {
        bots: listed.slice(query.offset, query.offset + query.limit),
        total: listed.length,
        limit: query.limit,
        offset: query.offset,
      };
    },

    /** GET /bots/marketplace/{id}: a public bot, its verified track record and its drift score. */
    async detail(viewerId: string, id: string): Promise<TMarketplaceBotDetail> {
      const bot = await deps.repo.findPublic(id);
      if (!bot) throw new AppError('BOTS__NOT_FOUND');
      const [listing] = await listingsOf([bot], viewerId);
      const record = await deps.runs.recordOf(bot.id);
      if (!record) {
        return {
          ...listing!,
          track_record: { live_since: null, realised_pnl: 0, return_pct: 0, equity: [], fills: [] },
          drift: null,
        };
      }
      const { run, fills } = record;
      const equity = equityOf(run, fills);
      const initial = fromBaseUnits(BigInt(run.initialCash), run.quoteDecimals);
      const realised = fills.reduce((sum, fill) => sum + (fill.pnl === null ? 0n : BigInt(fill.pnl)), 0n);
      return {
        ...listing!,
        track_record: {
          live_since: run.startedAt.toISOString(),
          realised_pnl: fromBaseUnits(realised, run.quoteDecimals).toNumber(),
          return_pct: round(new Dec(equity.at(-1)!.value).minus(initial).div(initial).times(100)),
          equity,
          fills: fills
            .slice(-MAX_DETAIL_FILLS)
            .reverse()
            .map((fill) => ({
              time: fill.time.toISOString(),
              side: fill.side as 'Buy' | 'Sell',
              base_amount: fromBaseUnits(BigInt(fill.baseAmount), run.baseDecimals).toNumber(),
              quote_amount: fromBaseUnits(BigInt(fill.quoteAmount), run.quoteDecimals).toNumber(),
              transaction_hash: fill.txSignature,
            })),
        },
        drift: await driftOf(bot, run, fills),
      };
    },

    /**
     * Copies a public bot into the caller's bots (strategy, config and code; private, stopped),
     * linked to its origin. The origin's user_count counts each copier once, ever — and only a
     * copier whose proven wallet holds SOL on chain when copying: a wallet key costs nothing to
     * make, an account on chain costs a transfer of at least the rent-exempt minimum, so a fresh
     * throwaway wallet gets its copy but does not count.
     */
    async copy(copier: WalletOwner, id: string, toWire: (row: BotRow) => Promise<TBot>): Promise<TBot> {
      const origin = await deps.repo.findPublic(id);
      if (!origin) throw new AppError('BOTS__NOT_FOUND');
      if (origin.userId === copier.id) throw new AppError('MARKETPLACE__OWN_BOT');
      // Part 2 §5 "Wallet Required": a wallet the copier proved by signature, not a typed address.
      const wallet = provenWalletOf(copier, 'MARKETPLACE__WALLET_REQUIRED');
      if (await deps.repo.copyOf(copier.id, origin.id)) throw new AppError('MARKETPLACE__ALREADY_COPIED');
      if ((await deps.bots.countOf(copier.id)) >= MAX_BOTS_PER_USER)
        throw new AppError('BOTS__LIMIT_REACHED');
      // Read before anything is written: an RPC failure refuses the copy and changes nothing.
      const counts = (await deps.lamportsOf(wallet)) > 0n;
      const creator = (await deps.users.publicNamesOf([origin.userId])).get(origin.userId) ?? 'unknown';
      // A snapshot: the copy keeps this definition when its origin is edited, renamed or deleted.
      const copy = await deps.bots.insert({
        userId: copier.id,
        name: origin.name,
        copiedFromLabel: `${origin.name} by ${creator}`,
        description: origin.description,
        strategyType: origin.strategyType,
        config: origin.config,
        isPublic: false,
        copiedFrom: origin.id,
      });
      if (counts) await deps.repo.recordCopier(origin.id, copier.id, deps.now());
      return toWire(copy);
    },
  };
}

export type MarketplaceService = ReturnType<typeof createMarketplaceService>;
