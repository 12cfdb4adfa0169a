import { normal } from '../../../lib/counter-hash';

/** Steps of one bridge shape (a minute's 60 seconds, an hour's 60 minutes). */
export const SHAPE_STEPS = 60;
export const SHAPE_POINTS = SHAPE_STEPS + 1;
/** Size of the shape library (a power of two: a hash picks a shape with a mask). */
export const SHAPE_COUNT = 1024;

const STREAM_SHAPE = 0x51a9e;

function buildHull(shapes: Float64Array, offset: number, upper: boolean): number[] {
  // Andrew's monotone chain over points (i, S(i)), i = 0..60 (x already sorted).
  const hull: number[] = [];
  for (let i = 0; i < SHAPE_POINTS; i += 1) {
    const y = shapes[offset + i]!;
    while (hull.length >= 2) {
      const a = hull[hull.length - 2]!;
      const b = hull[hull.length - 1]!;
      const ya = shapes[offset + a]!;
      const yb = shapes[offset + b]!;
      const cross = (b - a) * (y - ya) - (yb - ya) * (i - a);
      if (upper ? cross >= 0 : cross <= 0) hull.pop();
      else break;
    }
    hull.push(i);
  }
  return hull;
}

/**
 * A seeded library of standard 60-step Brownian bridge shapes (0 at both ends) with each shape's
 * upper and lower convex hull. A path segment is a straight line plus a scaled shape, so its highest
 * and lowest point lie on a hull vertex: `extremes` finds them in a few steps instead of sixty.
 */
export class BridgeShapes {
  private readonly values = new Float64Array(SHAPE_COUNT * SHAPE_POINTS);
  private readonly upperStart = new Int32Array(SHAPE_COUNT + 1);
  private readonly lowerStart = new Int32Array(SHAPE_COUNT + 1);
  private readonly upperHull: Int8Array;
  private readonly lowerHull: Int8Array;
  /** Each shape's highest and lowest value: bounds that let hour-level scans skip most minutes. */
  readonly max = new Float64Array(SHAPE_COUNT);
  readonly min = new Float64Array(SHAPE_COUNT);

  constructor(seedKey: number) {
    const uppers: number[] = [];
    const lowers: number[] = [];
    for (let shape = 0; shape < SHAPE_COUNT; shape += 1) {
      const offset = shape * SHAPE_POINTS;
      let walk = 0;
      const steps = new Float64Array(SHAPE_POINTS);
      for (let i = 1; i < SHAPE_POINTS; i += 1) {
        walk += normal(seedKey, STREAM_SHAPE, shape, i);
        steps[i] = walk;
      }
      let max = 0;
      let min = 0;
      for (let i = 0; i < SHAPE_POINTS; i += 1) {
        const value = steps[i]! - (i / SHAPE_STEPS) * walk;
        this.values[offset + i] = value;
        if (value > max) max = value;
        if (value < min) min = value;
      }
      this.max[shape] = max;
      this.min[shape] = min;
      this.upperStart[shape] = uppers.length;
      uppers.push(...buildHull(this.values, offset, true));
      this.lowerStart[shape] = lowers.length;
      lowers.push(...buildHull(this.values, offset, false));
    }
    this.upperStart[SHAPE_COUNT] = uppers.length;
    this.lowerStart[SHAPE_COUNT] = lowers.length;
    this.upperHull = Int8Array.from(uppers);
    this.lowerHull = Int8Array.from(lowers);
  }

  /** Value of `shape` at step `i` (0..60). */
  at(shape: number, i: number): number {
    return this.values[shape * SHAPE_POINTS + i]!;
  }

  /**
   * Highest and lowest value of `slope·i + sigma·shape(i)` over i = 0..60, written into `out` as
   * [high, low] (no allocation: this runs ~10⁷ times).
   */
  extremes(shape: number, slope: number, sigma: number, out: Float64Array): void {
    const offset = shape * SHAPE_POINTS;
    const values = this.values;
    const upper = this.upperHull;
    const lower = this.lowerHull;
    let high = -Infinity;
    for (let k = this.upperStart[shape]!, end = this.upperStart[shape + 1]!; k < end; k += 1) {
      const i = upper[k]!;
      const value = slope * i + sigma * values[offset + i]!;
      if (value > high) high = value;
    }
    let low = Infinity;
    for (let k = this.lowerStart[shape]!, end = this.lowerStart[shape + 1]!; k < end; k += 1) {
      const i = lower[k]!;
      const value = slope * i + sigma * values[offset + i]!;
      if (value < low) low = value;
    }
    out[0] = high;
    out[1] = low;
  }
}
