import { Dec, priceUnitsOf, type PerpExchange } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { RecurringJob } from '../../jobs/scheduler';
import type { Db } from '../../db/database';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { FuturesRepository } from './futures.repository';
import type { FuturesService } from './futures.service';
import { MAKER_ACCOUNT } from './perp-commands';
import { createPerpFunding } from './perp-funding';
import type { Applied, PerpLedger } from './perp-ledger';
import { liquidateBelowMaintenance } from './perp-liquidation';
import { PERP_MARKETS, type PerpMarket } from './perp-markets';
import { createPerpReconciler } from './perp-reconcile';
import type { PerpVault } from './perp-vault';

/** The maker's collateral and the insurance fund, minted into the vault once (embedded cluster). */
export const MAKER_COLLATERAL = 5_000_000n * 1_000_000n;
export const INSURANCE_SEED = 100_000n * 1_000_000n;
/** Maker: levels a side, notional per level, the first level's distance and the step, in bps of the oracle. */
const MAKER_LEVELS = 10;
const MAKER_LEVEL_NOTIONAL = 20_000n * 1_000_000n;
const MAKER_HALF_SPREAD_BPS = 2n;
const MAKER_STEP_BPS = 3n;
/** Past this inventory (notional) the maker quotes only the side that reduces it. */
const MAKER_MAX_INVENTORY = 1_000_000n * 1_000_000n;
/** How far the feed may be from the venue's oracle before an order syncs it (bps). */
const SYNC_TOLERANCE_BPS = 1n;

/**
 * The maker's quotes around the oracle: `MAKER_LEVELS` levels a side, the first 2 bps away (at
 * least a tick) and then every 3 bps, each about 20,000 USDC; past 1,000,000 USDC of inventory only
 * the reducing side is quoted. Prices and sizes are base units; pure.
 */
export function makerQuotes(market: PerpMarket, oracle: bigint, inventory: bigint) {
  const step = (bps: bigint) => {
    const raw = (oracle * bps) / 10_000n;
    return raw < market.tick ? market.tick : (raw / market.tick) * market.tick;
  };
  const mid = (oracle / market.tick) * market.tick;
  const half = step(MAKER_HALF_SPREAD_BPS);
  const gap = step(MAKER_STEP_BPS);
  const size = (MAKER_LEVEL_NOTIONAL * 10n ** BigInt(market.sizeDecimals)) / oracle;
  const lots = size < market.minSize ? market.minSize : size;
  const inventoryNotional =
    ((inventory < 0n ? -inventory : inventory) * oracle) / 10n ** BigInt(market.sizeDecimals);
  const heavy = inventoryNotional > MAKER_MAX_INVENTORY;
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  for (let level = 0n; level < BigInt(MAKER_LEVELS); level++) {
    const bid = mid - half - level * gap;
    const ask = mid + half + level * gap;
    if (bid > 0n && !(heavy && inventory > 0n)) bids.push([bid.toString(), lots.toString()]);
    if (!(heavy && inventory < 0n)) asks.push([ask.toString(), lots.toString()]);
  }
  return { bids, asks };
}

/** Markets where anyone but the maker has a position, a resting order or a trigger order. */
export function marketsInUse(exchange: PerpExchange): Set<string> {
  const used = new Set<string>();
  for (const [symbol, state] of exchange.markets) {
    if (state.triggers.size > 0 || state.longLots > 0n) used.add(symbol);
  }
  for (const account of exchange.accounts.values()) {
    if (account.id === MAKER_ACCOUNT) continue;
    for (const symbol of account.positions.keys()) used.add(symbol);
    for (const id of account.orders) {
      const market = exchange.marketOfOrder(id);
      if (market !== undefined) used.add(market);
    }
  }
  return used;
}

/** Whether the maker has an order resting in the market. */
function makerQuoting(exchange: PerpExchange, symbol: string): boolean {
  for (const id of exchange.accounts.get(MAKER_ACCOUNT)?.orders ?? []) {
    if (exchange.marketOfOrder(id) === symbol) return true;
  }
  return false;
}

export interface PerpKeeperDeps {
  ledger: PerpLedger;
  service: FuturesService;
  repo: FuturesRepository;
  vault: PerpVault;
  market: MarketService;
  chain: ChainService;
  now: () => Date;
  log: FastifyBaseLogger;
  intervalMs?: number;
}

/**
 * The venue's single-owner job: funds the maker and insurance fund once, moves the oracles of the
 * markets in use to the market feed, re-quotes the maker where the oracle moved, fires the trigger orders the oracle
 * reached (perp-triggers in the engine), liquidates accounts below maintenance on every oracle move (perp-liquidation.ts), pays funding each hour from the hour's mark/oracle
 * premium (perp-funding.ts) and reconciles the vault with the ledger every minute (perp-reconcile.ts).
 */
export function createPerpKeeper(deps: PerpKeeperDeps) {
  const { ledger, service, repo, vault, market, log } = deps;
  const hourlyFunding = createPerpFunding(deps);
  const reconciler = createPerpReconciler(deps);
  const liquidate = () => liquidateBelowMaintenance(deps);
  /**
   * One `fire` command per market whose trigger orders the oracle has reached (after the oracle
   * moved and the maker re-quoted, before liquidations, so a stop can act first). The command
   * fires them in the log, so across processes and restarts each fires once; a pass with nothing
   * reached writes nothing.
   */
  async function fireTriggers(caughtUp?: PerpExchange): Promise<number> {
    let fired = 0;
    // One catch-up for the pass: the venue in memory is kept current by the commands that follow.
    const exchange = caughtUp ?? (await ledger.read());
    for (const perp of PERP_MARKETS) {
      if (exchange.triggeredIds(perp.symbol).length === 0) continue;
      const { applied } = await service.run({ k: 'fire', market: perp.symbol, at: deps.now().getTime() });
      if (applied.effect.k === 'fire') fired += applied.effect.result.fired.length;
    }
    return fired;
  }
  /** The market feed's price of the market, in base units on its tick. */
  const feedUnits = async (perp: PerpMarket) =>
    priceUnitsOf(new Dec(await market.getUsdPrice(await market.resolveToken(perp.baseSymbol))), perp.tick);
  /** The feed price (base units) this process last applied to each market's oracle. */
  const lastFeed = new Map<string, bigint>();
  let lastReconciledAt = 0;

  // The venue's books are credited in the settlement of the funding mint, so a mint whose answer
  // was lost is credited when it lands and never minted again.
  vault.onFunded(async (tx, funding) => {
    const at = deps.now().getTime();
    const record = (inner: Db, entry: Applied) => repo.recordEffect(inner, entry);
    await ledger.run({ k: 'deposit', account: MAKER_ACCOUNT, amount: funding.collateral, at }, record, tx);
    await ledger.run({ k: 'insurance', amount: funding.insurance, at }, record, tx);
    log.info({ vault: vault.address }, 'perp venue funded: maker collateral and insurance fund');
  });

  async function bootstrap(): Promise<boolean> {
    if (await service.makerFunded()) return true;
    if (!vault.canMint() || (await vault.fundingInFlight())) return false;
    await vault.ensureReady();
    const sent = await vault.mint({ collateral: MAKER_COLLATERAL, insurance: INSURANCE_SEED });
    return sent.status === 'landed' && (await service.makerFunded());
  }

  /**
   * Moves the oracles of the markets that need it to the feed, in one command; answers those moved.
   * A market nobody but the maker uses (no position, order or trigger order of anyone else) is left
   * where it is while the maker quotes it: its marks would change nothing anyone holds, so an idle
   * venue writes nothing to its log. An order there first brings it to the feed (`syncMarket`), as
   * does a socket watching it (the futures stream); `force` (the first pass) moves every market.
   */
  async function oracles(exchange: PerpExchange, force: boolean): Promise<PerpMarket[]> {
    const prices: Record<string, string> = {};
    const moved: PerpMarket[] = [];
    const used = force ? undefined : marketsInUse(exchange);
    await Promise.all(
      PERP_MARKETS.map(async (perp) => {
        try {
          if (used && !used.has(perp.symbol) && makerQuoting(exchange, perp.symbol)) return;
          const units = await feedUnits(perp);
          lastFeed.set(perp.symbol, units);
          if (units > 0n && units !== exchange.market(perp.symbol).oracle) {
            prices[perp.symbol] = units.toString();
            moved.push(perp);
          }
        } catch (error) {
          log.warn({ err: error, market: perp.symbol }, 'no oracle price for a perp market');
        }
      }),
    );
    if (moved.length > 0) await service.run({ k: 'oracle', prices, at: deps.now().getTime() });
    return moved;
  }

  async function quote(exchange: PerpExchange, perp: PerpMarket): Promise<void> {
    const state = exchange.market(perp.symbol);
    if (state.oracle <= 0n) return;
    const inventory = exchange.accounts.get(MAKER_ACCOUNT)?.positions.get(perp.symbol)?.size ?? 0n;
    const { bids, asks } = makerQuotes(perp, state.oracle, inventory);
    await service.run({ k: 'quote', market: perp.symbol, bids, asks, at: deps.now().getTime() });
  }

  /**
   * One pass; `force` moves and re-quotes every market (first pass, tests). The venue is caught up
   * once (the maker's funding check); the rest of the pass reads the memory this process keeps current.
   */
  async function tick(force = false): Promise<void> {
    if (!(await bootstrap())) return;
    const moved = await oracles(ledger.current(), force);
    const exchange = ledger.current();
    const toQuote = force
      ? PERP_MARKETS
      : PERP_MARKETS.filter((perp) => moved.includes(perp) || !makerQuoting(exchange, perp.symbol));
    for (const perp of toQuote) await quote(exchange, perp);
    await fireTriggers(ledger.current());
    if (moved.length > 0 || force) await liquidate();
    hourlyFunding.sample(ledger.current());
    await hourlyFunding.fund();
    if (deps.now().getTime() - lastReconciledAt >= 60_000) {
      lastReconciledAt = deps.now().getTime();
      await reconciler.reconcile();
    }
  }

  /**
   * Before an order (and for a socket watching the market): if the market feed has moved more than
   * 1 bp since the price last applied (the keeper's last pass over the market), the oracle moves and
   * the maker re-quotes first (and liquidations run), so nobody trades against quotes the feed has
   * already left behind (the RFQ maker re-quotes at execute for the same reason).
   */
  async function syncMarket(symbol: string): Promise<void> {
    const perp = PERP_MARKETS.find((candidate) => candidate.symbol === symbol);
    // The memory as it is (no catch-up query on the order path): the order's own write catches up.
    const venue = ledger.current();
    if (!perp || !venue.accounts.has(MAKER_ACCOUNT)) return;
    const units = await feedUnits(perp);
    // Against the feed price last applied (the venue's oracle until this process has applied one).
    const current = lastFeed.get(symbol) ?? venue.market(symbol).oracle;
    const moved = units > current ? units - current : current - units;
    if (units <= 0n || moved * 10_000n <= current * SYNC_TOLERANCE_BPS) return;
    lastFeed.set(symbol, units);
    await service.run({ k: 'oracle', prices: { [symbol]: units.toString() }, at: deps.now().getTime() });
    await quote(await ledger.read(), perp);
    await fireTriggers();
    await liquidate();
  }

  return {
    tick,
    syncMarket,
    fireTriggers,
    liquidate,
    fund: hourlyFunding.fund,
    reconcile: reconciler.reconcile,
    lastReconciliation: reconciler.lastReconciliation,
    job(): RecurringJob {
      let first = true;
      return {
        name: 'perp-keeper',
        intervalMs: deps.intervalMs ?? 1000,
        async run() {
          await tick(first);
          first = false;
        },
      };
    },
  };
}

export type PerpKeeper = ReturnType<typeof createPerpKeeper>;
