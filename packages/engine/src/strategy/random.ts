/**
 * A seeded pseudo-random source for strategies (mulberry32: 32-bit state, uniform in [0, 1)). The
 * runtime hands one to each strategy so a backtest is reproducible; nothing reads Math.random.
 *
 * @example const random = seededRandom(42); random(); // the same first value on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
