import { Dec, fundingRate, PERP_FUNDING_INTERVAL_MS, type PerpExchange } from '@solterm/engine';
import type { FuturesRepository } from './futures.repository';
import type { FuturesService } from './futures.service';
import { markOf } from './futures-markets';
import { PERP_MARKETS } from './perp-markets';

export interface PerpFundingDeps {
  service: FuturesService;
  repo: FuturesRepository;
  now: () => Date;
}

/**
 * Hourly funding, the keeper's part: every pass samples each market's mark (the book's mid) and
 * oracle; once the hour turns, each market is paid the engine's `fundingRate` of the hour's average
 * mark/oracle premium (a 24th of it, capped at ±0.1 %) — the engine's `applyFunding` moves the money.
 */
export function createPerpFunding(deps: PerpFundingDeps) {
  const { service, repo } = deps;
  /** Premium samples of the current hour per market: Σ mark and Σ oracle (time-weighted by tick). */
  const samples = new Map<string, { mark: bigint; oracle: bigint; n: bigint }>();
  let lastFundingAt: Date | null = null;

  function sample(exchange: PerpExchange): void {
    for (const perp of PERP_MARKETS) {
      const oracle = exchange.market(perp.symbol).oracle;
      if (oracle <= 0n) continue;
      const entry = samples.get(perp.symbol) ?? { mark: 0n, oracle: 0n, n: 0n };
      entry.mark += markOf(exchange, perp.symbol);
      entry.oracle += oracle;
      entry.n += 1n;
      samples.set(perp.symbol, entry);
    }
  }

  /** Pays funding in every market if the hour turned since the last payment; answers whether it did. */
  async function fund(): Promise<boolean> {
    const now = deps.now();
    lastFundingAt ??= (await repo.lastFundingAt()) ?? now;
    const hour = (at: Date) => Math.floor(at.getTime() / PERP_FUNDING_INTERVAL_MS);
    if (hour(now) <= hour(lastFundingAt)) return false;
    for (const perp of PERP_MARKETS) {
      const entry = samples.get(perp.symbol);
      const rate =
        entry && entry.n > 0n
          ? fundingRate(
              new Dec(entry.mark.toString()).div(entry.n.toString()),
              new Dec(entry.oracle.toString()).div(entry.n.toString()),
            )
          : new Dec(0);
      await service.run({ k: 'funding', market: perp.symbol, rate: rate.toFixed(), at: now.getTime() });
    }
    samples.clear();
    lastFundingAt = now;
    return true;
  }

  return { sample, fund };
}
