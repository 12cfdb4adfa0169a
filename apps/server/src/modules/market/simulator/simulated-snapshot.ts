import { Dec } from '@solterm/engine';
import { decimalString, percentChange } from '../../../lib/wire-decimal';
import { MINUTE, type PriceProcess } from './price-process';
import type { SimulatedToken } from './simulated-tokens';

const DAY = 86_400;

/**
 * What the simulator knows of a token at one second. Prices are doubles of decimals quantised by the
 * price process (10 significant digits, 6 for stablecoins): they go on the wire as they are.
 */
export interface TokenSnapshot {
  readonly token: SimulatedToken;
  readonly price: number;
  readonly price24hAgo: number;
  readonly change24h: string;
  readonly volume24hCents: number;
  readonly high24h: number;
  readonly low24h: number;
  readonly marketCap: Dec;
  readonly liquidityCents: number;
}

/**
 * Snapshots of tokens at a given second. The closed minutes of each token's rolling 24 h window are
 * cached per minute; the forming minute is added on top.
 */
export function createSnapshotter(
  priceProcess: PriceProcess,
): (token: SimulatedToken, now: number) => TokenSnapshot {
  const rolling = new Map<string, { minute: number; high: number; low: number; volumeCents: number }>();

  function rolling24h(token: SimulatedToken, now: number) {
    const minute = Math.floor(now / MINUTE) * MINUTE;
    const cached = rolling.get(token.mint);
    if (cached && cached.minute === minute) return cached;
    const stats = priceProcess.rangeStats(token.params, minute - DAY, minute);
    const entry = { minute, ...stats };
    rolling.set(token.mint, entry);
    return entry;
  }

  return function snapshotOf(token, now) {
    const price = priceProcess.priceAt(token.params, now);
    const price24hAgo = priceProcess.priceAt(token.params, now - DAY);
    const basePrice = Number(token.basePrice);
    const liquidityCents = Math.round(
      token.liquidityUsd * 100 * Math.sqrt(price / (token.peg ? price : basePrice)),
    );
    // The 24 h statistics cost more than a price: computed only when something reads them (the
    // prices channel and the dashboard cards never do).
    let stats: { volume24hCents: number; high24h: number; low24h: number } | undefined;
    const statsOf = () => {
      if (stats) return stats;
      const rolled = rolling24h(token, now);
      const minuteStart = Math.floor(now / MINUTE) * MINUTE;
      // The forming minute's traded value so far joins the 24 h volume.
      const formingCents = priceProcess.partialMinuteVolumeCents(
        token.params,
        minuteStart,
        now - minuteStart,
      );
      stats = {
        volume24hCents: rolled.volumeCents + formingCents,
        high24h: Number.isNaN(rolled.high) ? price : Math.max(rolled.high, price),
        low24h: Number.isNaN(rolled.low) ? price : Math.min(rolled.low, price),
      };
      return stats;
    };
    return {
      token,
      price,
      price24hAgo,
      change24h: percentChange(decimalString(price), decimalString(price24hAgo)),
      get volume24hCents() {
        return statsOf().volume24hCents;
      },
      get high24h() {
        return statsOf().high24h;
      },
      get low24h() {
        return statsOf().low24h;
      },
      marketCap: new Dec(decimalString(price)).times(token.circulatingSupply),
      liquidityCents,
    };
  };
}
