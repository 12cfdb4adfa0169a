import { hash4, uniform } from '../../../lib/counter-hash';
import { SHAPE_STEPS } from './bridge-shapes';
import type { HourPath, PathParams } from './price-path';

// Hash stream tags of the volume draws (the price draws have their own, in price-process.ts).
const STREAM_VOLUME = 0x70f1e;
const STREAM_SECOND_VOLUME = 0x5ec0d;

/** Traded value of minute `j` of an hour path, in whole US cents. */
export function minuteVolumeCents(seedKey: number, params: PathParams, path: HourPath, j: number): number {
  const minute = path.hour * 60 + j;
  const hourOfDay = path.hour % 24;
  // Busiest when Europe and America overlap (15:00 UTC), quietest twelve hours later.
  const diurnal = 1 + 0.35 * Math.cos((2 * Math.PI * (hourOfDay - 15)) / 24);
  // Right-skewed noise with mean 1 (no exp: this runs for every minute of a year of history).
  const u = uniform(hash4(seedKey, params.key ^ STREAM_VOLUME, 0, minute));
  const noise = 0.4 + 1.8 * u * u;
  const move = Math.abs(path.logs[j + 1]! - path.logs[j]!) / (params.sigmaHour / Math.sqrt(SHAPE_STEPS));
  // Volume follows volatility: E|move| ≈ 0.8, so activity averages ≈ 1.
  const activity = 0.45 + 0.69 * move;
  return Math.max(0, Math.round(params.minuteVolumeCents * diurnal * noise * activity));
}

/** How a minute's volume splits over its 60 seconds: one weight per second and their sum. */
export function secondWeights(
  seedKey: number,
  params: PathParams,
  minuteStart: number,
): { weights: Float64Array; total: number } {
  const weights = new Float64Array(SHAPE_STEPS);
  let total = 0;
  for (let i = 0; i < SHAPE_STEPS; i += 1) {
    const u = uniform(hash4(seedKey, params.key ^ STREAM_SECOND_VOLUME, 0, minuteStart + i));
    weights[i] = 0.15 + u * u;
    total += weights[i]!;
  }
  return { weights, total };
}
