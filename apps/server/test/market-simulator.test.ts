import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  getTokenBySymbol,
  isSolanaAddress,
  TOKEN_IDENTITIES,
  UNVERIFIED_IDENTITY_SYMBOLS,
} from '@solterm/contracts';
import { aggregateCandles, type RawCandle } from '../src/modules/market/candle-aggregation';
import { createCandleStore } from '../src/modules/market/simulator/candle-store';
import { HOUR, MINUTE, PriceProcess } from '../src/modules/market/simulator/price-process';
import { buildSimulatedTokens } from '../src/modules/market/simulator/simulated-tokens';
import { TOKEN_UNIVERSE } from '../src/modules/market/simulator/token-universe';

const T0 = Date.parse('2026-01-15T12:34:56Z') / 1000;
const tokens = buildSimulatedTokens();
const bySymbol = new Map(tokens.map((token) => [token.symbol, token]));
const sol = bySymbol.get('SOL')!;
const process = new PriceProcess('test-seed');

describe('token universe', () => {
  it('holds at least 40 tokens with unique symbols and valid, unique mints', () => {
    expect(TOKEN_UNIVERSE.length).toBeGreaterThanOrEqual(40);
    expect(new Set(TOKEN_UNIVERSE.map((token) => token.symbol.toUpperCase())).size).toBe(
      TOKEN_UNIVERSE.length,
    );
    expect(new Set(TOKEN_UNIVERSE.map((token) => token.mint)).size).toBe(TOKEN_UNIVERSE.length);
    for (const token of TOKEN_UNIVERSE) expect(isSolanaAddress(token.mint), token.symbol).toBe(true);
  });

  it('includes every verified token of the identity map at its mainnet mint and decimals', () => {
    for (const identity of TOKEN_IDENTITIES) {
      const token = TOKEN_UNIVERSE.find((candidate) => candidate.symbol === identity.symbol);
      expect(token, identity.symbol).toBeDefined();
      expect(token!.mint).toBe(identity.mint);
      expect(token!.decimals).toBe(identity.decimals);
    }
    // DOGE and GIVE have no verified mainnet mint: they stay out rather than get an invented one.
    for (const symbol of UNVERIFIED_IDENTITY_SYMBOLS) expect(getTokenBySymbol(symbol)).toBeUndefined();
  });

  it('gives every token a plausible price, supply and volatility', () => {
    for (const token of TOKEN_UNIVERSE) {
      expect(Number(token.basePrice), token.symbol).toBeGreaterThan(0);
      expect(BigInt(token.circulatingSupply) <= BigInt(token.totalSupply), token.symbol).toBe(true);
      expect(token.annualVolatility, token.symbol).toBeGreaterThan(0);
      expect(token.annualVolatility, token.symbol).toBeLessThan(3);
    }
  });
});

describe('price process', () => {
  it('is deterministic: the same seed and time give the same price and candles', () => {
    // Given two processes built from the same seed
    const again = new PriceProcess('test-seed');
    // Then every price and candle agrees, whichever order they are computed in
    for (const offset of [0, 1, 59, 3600, 86_400 * 30]) {
      expect(again.priceAt(sol.params, T0 - offset)).toBe(process.priceAt(sol.params, T0 - offset));
    }
    const hour = Math.floor(T0 / HOUR) - 10;
    expect(again.hourCandle(sol.params, hour)).toEqual(process.hourCandle(sol.params, hour));
    expect(again.minuteCandle(sol.params, hour * HOUR + 5 * MINUTE)).toEqual(
      process.minuteCandle(sol.params, hour * HOUR + 5 * MINUTE),
    );
  });

  it('differs between seeds', () => {
    const other = new PriceProcess('another-seed');
    expect(other.priceAt(sol.params, T0)).not.toBe(process.priceAt(sol.params, T0));
  });

  it('makes an hour candle the exact aggregate of its minutes, and a minute the aggregate of its seconds', () => {
    const hour = Math.floor(T0 / HOUR) - 3;
    for (const token of [sol, bySymbol.get('BONK')!, bySymbol.get('mSOL')!, bySymbol.get('USDC')!]) {
      const minutes = process.hourMinuteCandles(token.params, hour);
      expect(aggregateCandles(minutes, HOUR)).toEqual([process.hourCandle(token.params, hour)]);
      const seconds = process.secondCandles(token.params, minutes[7]!.time);
      expect(seconds).toHaveLength(60);
      expect(aggregateCandles(seconds, MINUTE)).toEqual([minutes[7]]);
    }
  });

  it('is continuous: each candle opens where the previous closed, and the price at a second is its candle close', () => {
    const start = Math.floor(T0 / MINUTE) * MINUTE - 600;
    let previous: RawCandle | undefined;
    for (let minute = start; minute < start + 600; minute += MINUTE) {
      const candle = process.minuteCandle(sol.params, minute);
      if (previous) expect(candle.open).toBe(previous.close);
      expect(process.priceAt(sol.params, minute)).toBe(candle.open);
      previous = candle;
    }
  });

  it('keeps stablecoins within 0.1 % of one dollar', () => {
    for (const symbol of ['USDC', 'USDT', 'DAI']) {
      const token = bySymbol.get(symbol)!;
      for (let day = 0; day < 365; day += 7) {
        const price = process.priceAt(token.params, T0 - day * 86_400);
        expect(price, symbol).toBeGreaterThanOrEqual(0.999);
        expect(price, symbol).toBeLessThanOrEqual(1.001);
      }
    }
  });

  it('moves with the configured volatility (hourly log returns over a year)', () => {
    const hour = Math.floor(T0 / HOUR);
    let sumSquares = 0;
    let previous = process.priceAt(sol.params, (hour - 8760) * HOUR);
    for (let index = hour - 8759; index <= hour; index += 1) {
      const price = process.priceAt(sol.params, index * HOUR);
      sumSquares += Math.log(price / previous) ** 2;
      previous = price;
    }
    const annualised = Math.sqrt(sumSquares / 8760) * Math.sqrt(8760);
    expect(annualised).toBeGreaterThan(sol.annualVolatility * 0.8);
    expect(annualised).toBeLessThan(sol.annualVolatility * 1.2);
  });

  it('keeps pegged tokens at their ratio to the reference', () => {
    const msol = bySymbol.get('mSOL')!;
    const ratio = process.priceAt(msol.params, T0) / process.priceAt(sol.params, T0);
    expect(ratio).toBeGreaterThan(1.3 * 0.95);
    expect(ratio).toBeLessThan(1.3 * 1.05);
  });

  it('splits a minute volume over its seconds exactly', () => {
    const minute = Math.floor(T0 / MINUTE) * MINUTE - 120;
    const candle = process.minuteCandle(sol.params, minute);
    const seconds = process.secondCandles(sol.params, minute);
    expect(seconds.reduce((sum, second) => sum + second.volumeCents, 0)).toBe(candle.volumeCents);
    expect(Number.isInteger(candle.volumeCents)).toBe(true);
  });

  it('never exposes a second after the one asked for (the forming minute)', () => {
    const minute = Math.floor(T0 / MINUTE) * MINUTE;
    const partial = process.secondCandles(sol.params, minute, 17);
    expect(partial).toHaveLength(17);
    expect(partial[16]!.close).toBe(process.priceAt(sol.params, minute + 17));
  });

  it('answers 24 h statistics equal to the minute candles they summarise', () => {
    const end = Math.floor(T0 / MINUTE) * MINUTE;
    const stats = process.rangeStats(sol.params, end - 3 * HOUR + 300, end);
    const minutes: RawCandle[] = [];
    for (let minute = end - 3 * HOUR + 300; minute < end; minute += MINUTE)
      minutes.push(process.minuteCandle(sol.params, minute));
    expect(stats.high).toBe(Math.max(...minutes.map((candle) => candle.high)));
    expect(stats.low).toBe(Math.min(...minutes.map((candle) => candle.low)));
    expect(stats.volumeCents).toBe(minutes.reduce((sum, candle) => sum + candle.volumeCents, 0));
  });
});

describe('candle aggregation', () => {
  const arbitraryCandles = fc
    .array(
      fc.record({
        open: fc.integer({ min: 1, max: 1_000_000 }),
        close: fc.integer({ min: 1, max: 1_000_000 }),
        up: fc.integer({ min: 0, max: 10_000 }),
        down: fc.integer({ min: 0, max: 10_000 }),
        volumeCents: fc.integer({ min: 0, max: 1_000_000_000 }),
      }),
      { minLength: 1, maxLength: 300 },
    )
    .chain((rows) =>
      fc.tuple(
        fc.constant(rows),
        fc.integer({ min: 1_700_000_000, max: 1_800_000_000 }).map((start) => Math.floor(start / 60) * 60),
      ),
    )
    .map(([rows, start]) =>
      rows.map((row, index): RawCandle => ({
        time: start + index * 60,
        open: row.open,
        close: row.close,
        high: Math.max(row.open, row.close) + row.up,
        low: Math.max(1, Math.min(row.open, row.close) - row.down),
        volumeCents: row.volumeCents,
      })),
    );

  it('keeps every aggregated candle consistent: high ≥ max(open, close), low ≤ min(open, close), volumes sum', () => {
    fc.assert(
      fc.property(
        arbitraryCandles,
        fc.constantFrom(300, 900, 3600, 14_400, 43_200, 86_400),
        (candles, interval) => {
          const aggregated = aggregateCandles(candles, interval);
          for (const candle of aggregated) {
            expect(candle.time % interval).toBe(0);
            expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
            expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
            const members = candles.filter(
              (source) => Math.floor(source.time / interval) * interval === candle.time,
            );
            expect(candle.open).toBe(members[0]!.open);
            expect(candle.close).toBe(members[members.length - 1]!.close);
            expect(candle.high).toBe(Math.max(...members.map((source) => source.high)));
            expect(candle.low).toBe(Math.min(...members.map((source) => source.low)));
            expect(candle.volumeCents).toBe(members.reduce((sum, source) => sum + source.volumeCents, 0));
          }
          expect(aggregated.reduce((sum, candle) => sum + candle.volumeCents, 0)).toBe(
            candles.reduce((sum, candle) => sum + candle.volumeCents, 0),
          );
        },
      ),
    );
  });

  it('is associative across interval sizes: 1M → 5M → 15M equals 1M → 15M', () => {
    fc.assert(
      fc.property(arbitraryCandles, (candles) => {
        expect(aggregateCandles(aggregateCandles(candles, 300), 900)).toEqual(aggregateCandles(candles, 900));
      }),
    );
  });
});

describe('candle store (history on demand)', () => {
  it('serves the same candles from a tiny cache as from the process, holding no more than its bound', async () => {
    const now = T0;
    const small = createCandleStore({ priceProcess: process, nowSeconds: () => now, maxCachedCandles: 2000 });
    const from = now - 400 * 86_400;
    const candles = await small.getRange(sol, HOUR, from, now);
    expect(candles.length).toBe(365 * 24 + 1);
    expect(small.cacheStats().candles).toBeLessThanOrEqual(2000);
    for (const candle of candles.slice(0, -1).filter((_, index) => index % 997 === 0)) {
      expect(candle).toEqual(process.hourCandle(sol.params, candle.time / HOUR));
    }
    // Read again: recomputed (evicted) or cached, the answer is identical.
    expect(await small.getRange(sol, HOUR, from, now)).toEqual(candles);
    // The forming hour aggregates its closed minutes and the forming minute.
    const minutes = await small.getRange(sol, MINUTE, Math.floor(now / HOUR) * HOUR, now);
    expect(aggregateCandles(minutes, HOUR)[0]).toEqual(candles.at(-1));
  });
});
