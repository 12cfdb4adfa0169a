import type { PathParams } from './price-path';

/**
 * Dev price shifts (POST /api/dev/market/shift): per token, the total log offset from a unix second
 * on, oldest first. The price process adds the offset whenever it reads a log price, never into its
 * cached paths, so what was before a shift stays as it was and everything read from then on (prices,
 * candles, 24 h statistics) carries it. Empty outside dev: then every read adds 0.
 */
export class PriceShifts {
  private readonly steps = new Map<PathParams, { from: number; log: number }[]>();

  /**
   * Multiplies the token's price by `factor` from unix second `from` on (on top of earlier shifts;
   * a pegged token follows its reference's shifts). Returns the token's total factor from then on.
   */
  shift(params: PathParams, from: number, factor: number): number {
    if (factor === 1) return Math.exp(this.ownOffsetAt(params, from));
    const steps = this.steps.get(params) ?? [];
    const total = this.ownOffsetAt(params, from) + Math.log(factor);
    // A second shift at the same second replaces the first's total instead of stacking a step.
    while (steps.length > 0 && steps[steps.length - 1]!.from >= from) steps.pop();
    steps.push({ from, log: total });
    this.steps.set(params, steps);
    return Math.exp(total);
  }

  /** How many shift steps a token holds (the dev route caps them). */
  count(params: PathParams): number {
    return this.steps.get(params)?.length ?? 0;
  }

  /** The log offset the shifts add at unix second `second` (0 without shifts). */
  offsetAt(params: PathParams, second: number): number {
    if (this.steps.size === 0) return 0;
    const own = this.ownOffsetAt(params, second);
    return params.peg ? own + this.offsetAt(params.peg.ref, second) : own;
  }

  /** Whether a shift starts inside (from, to]: then seconds in that range do not share one offset. */
  shiftedWithin(params: PathParams, from: number, to: number): boolean {
    if (this.steps.size === 0) return false;
    if (this.steps.get(params)?.some((step) => step.from > from && step.from <= to)) return true;
    return params.peg ? this.shiftedWithin(params.peg.ref, from, to) : false;
  }

  private ownOffsetAt(params: PathParams, second: number): number {
    const steps = this.steps.get(params);
    if (!steps) return 0;
    for (let k = steps.length - 1; k >= 0; k -= 1) if (steps[k]!.from <= second) return steps[k]!.log;
    return 0;
  }
}
