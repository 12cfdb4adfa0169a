import type { THolder, THolderAnalysis, THolderStats, THolderType } from '@solterm/contracts';
import { AppError } from '../../lib/app-error';
import { Dec } from '@solterm/engine';
import { toSignificant, toWireNumber } from '../../lib/wire-decimal';
import type { MarketService } from '../market/market.service';
import type { HolderSnapshot, HolderSource, WalletDirectory } from './holder-source';

/** Holders read to filter by category and to compute the top-100 statistics. */
const HOLDERS_SCANNED = 500;
const TOP = 100;

export interface HoldersServiceDeps {
  market: MarketService;
  source: HolderSource;
  directory: WalletDirectory;
}

function shortAddress(address: string): string {
  return `${address.slice(0, 4)}...${address.slice(-4)}`;
}

/** Holder analysis (the futures page panel): largest holders by category, and top-100 statistics. */
export function createHoldersService(deps: HoldersServiceDeps) {
  async function snapshotOf(tokenText: string): Promise<{ symbol: string; snapshot: HolderSnapshot }> {
    const token = await deps.market.resolveToken(tokenText);
    if (!token.mint) throw new AppError('MARKET__NO_DATA', `No holder data for ${token.symbol}`);
    const snapshot = await deps.source.getTopHolders(token.mint, HOLDERS_SCANNED);
    if (!snapshot) throw new AppError('MARKET__NO_DATA', `No holder data for ${token.symbol}`);
    return { symbol: token.symbol, snapshot };
  }

  /** Share of the supply in percent, rounded half up to `decimals` in decimals, on the wire. */
  function percentOf(amount: bigint, supply: bigint, decimals: number): number {
    if (supply === 0n) return 0;
    return toWireNumber(new Dec(amount.toString()).div(supply.toString()).times(100).toFixed(decimals));
  }

  return {
    async getHolders(tokenText: string, holderType: THolderType, limit: number): Promise<THolderAnalysis> {
      const { symbol, snapshot } = await snapshotOf(tokenText);
      const scale = new Dec(10).pow(snapshot.decimals);
      const holders: THolder[] = [];
      for (const [rank, holder] of snapshot.holders.entries()) {
        const label = deps.directory.describe(holder.owner, { mint: snapshot.mint, rank });
        if (holderType !== 'all' && !label.tags.includes(holderType)) continue;
        holders.push({
          address: holder.owner,
          name: label.name ?? shortAddress(holder.owner),
          owned_percentage: percentOf(holder.amount, snapshot.supply, 4),
          // Whole tokens: exact in decimals, then at most 15 significant digits on the wire.
          balance: toWireNumber(new Dec(holder.amount.toString()).div(scale)),
          sol_balance:
            holder.solLamports === null
              ? 0
              : toWireNumber(new Dec(holder.solLamports.toString()).div(1e9).toFixed(4)),
          last_activity: holder.lastActivity?.toISOString() ?? null,
          tags: label.tags,
        });
        if (holders.length >= limit) break;
      }
      return {
        token: symbol,
        mint: snapshot.mint,
        holder_type: holderType,
        holders,
        source: deps.source.name,
      };
    },

    async getStats(tokenText: string): Promise<THolderStats> {
      const { symbol, snapshot } = await snapshotOf(tokenText);
      const top = snapshot.holders.slice(0, TOP);
      const owned = top.reduce((sum, holder) => sum + holder.amount, 0n);
      // Balance-weighted average cost, and the plain average share sold, over holders whose history is known.
      let weightedCost = new Dec(0);
      let costWeight = new Dec(0);
      let soldSum = new Dec(0);
      let soldCount = 0;
      for (const holder of top) {
        if (holder.averageCostUsd !== null) {
          weightedCost = weightedCost.plus(new Dec(holder.averageCostUsd).times(holder.amount.toString()));
          costWeight = costWeight.plus(holder.amount.toString());
        }
        if (holder.soldPercent !== null) {
          soldSum = soldSum.plus(holder.soldPercent);
          soldCount += 1;
        }
      }
      return {
        token: symbol,
        mint: snapshot.mint,
        top100_owned: percentOf(owned, snapshot.supply, 2),
        top100_avg_cost: costWeight.isZero()
          ? null
          : toWireNumber(toSignificant(weightedCost.div(costWeight))),
        top100_avg_sold: soldCount === 0 ? null : toWireNumber(soldSum.div(soldCount).toFixed(2)),
        holder_count: snapshot.holderCount,
        source: deps.source.name,
      };
    },
  };
}

export type HoldersService = ReturnType<typeof createHoldersService>;
