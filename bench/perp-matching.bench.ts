import { build } from 'esbuild';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { report, ROOT } from './lib/harness';
import type * as PerpMatchingLoad from './lib/perp-matching-load';

// The perp venue's matching engine in process (issue #28), beside nodejs-order-book in the same
// process: one recorded stream — ≈ 75 % limit adds, 15 % cancels, 10 % market orders taking the
// best 6 resting orders (up to 6 levels) — on SOL-PERP at 1,000 and at 10,000 resting orders (250
// levels a side), margin check, fees and positions included on the venue's side. The rounds
// alternate venue / reference / the venue's engine before #28 (its frozen copy, fixtures/engine-v1)
// on fresh books, at 1,000 then at 10,000 resting, and each round's preload is promoted to the old
// generation before it is timed (perp-matching-load.ts, `settle`). The figures are medians of the
// rounds, per wall-clock second and per CPU-second (this process's user + system time: what a
// loaded machine does not take away); the ratios are medians of each round's own.
//
// The work (lib/perp-matching-load.ts) is bundled first as production bundles the engine
// (scripts/build-server.mjs: esbuild, no keepNames), so the figure is not tsx's: its `__name`
// wrapper around every named closure cost the venue ~7 %. BENCH_SERVER=source runs it through tsx.
const TARGET_OPS_PER_SECOND = 1_000_000;
const TARGET_VS_REFERENCE = 5;
const MAX_SLOWDOWN = 0.15;
const OPS = 200_000;
const ROUNDS = Number(process.env.PERP_BENCH_ROUNDS ?? 11);

type Load = typeof PerpMatchingLoad;

async function load(): Promise<Load> {
  const entry = path.join(ROOT, 'bench/lib/perp-matching-load.ts');
  if (process.env.BENCH_SERVER === 'source') return import(entry);
  const outfile = path.join(ROOT, 'node_modules/.cache/perp-matching-bench/load.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // npm packages stay imports, our workspace packages are bundled (as the production build).
    plugins: [
      {
        name: 'external-npm-packages',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@solterm/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href) as Promise<Load>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const work = await load();

interface Rounds {
  stream: PerpMatchingLoad.Stream;
  ours: PerpMatchingLoad.Round[];
  reference: PerpMatchingLoad.Round[];
  before: PerpMatchingLoad.Round[];
}

function roundsAt(resting: number): Rounds {
  const stream = work.record(resting, OPS);
  work.roundOurs(stream); // warm-up
  work.roundReference(stream);
  work.roundOurs(stream, true);
  return { stream, ours: [], reference: [], before: [] };
}

function round(rounds: Rounds): void {
  rounds.ours.push(work.roundOurs(rounds.stream));
  rounds.reference.push(work.roundReference(rounds.stream));
  rounds.before.push(work.roundOurs(rounds.stream, true));
}

function summary({ stream, ours, reference, before }: Rounds) {
  return {
    wall: median(ours.map((r) => r.wall)),
    cpu: median(ours.map((r) => r.cpu)),
    refWall: median(reference.map((r) => r.wall)),
    refCpu: median(reference.map((r) => r.cpu)),
    ratio: median(ours.map((o, i) => o.cpu / reference[i]!.cpu)),
    beforeCpu: median(before.map((r) => r.cpu)),
    vsBefore: median(ours.map((o, i) => o.cpu / before[i]!.cpu)),
    mix: stream.mix,
    bookAfter: work.restingAfter(stream),
  };
}

// The rounds at 1,000 and at 10,000 resting alternate too, and the slowdown is the median of each
// pair's: this machine's speed drifts over seconds, which a comparison of two phases measured one
// after the other took for the book's size.
const atSmall = roundsAt(1_000);
const atLarge = roundsAt(10_000);
for (let i = 0; i < ROUNDS; i++) {
  round(atSmall);
  round(atLarge);
}
const small = summary(atSmall);
const large = summary(atLarge);
const slowdown = 1 - median(atLarge.ours.map((r, i) => r.cpu / atSmall.ours[i]!.cpu));
const pct = (n: number, total: number) => Math.round((n / total) * 100);
report(
  'perp-matching',
  {
    ops: OPS,
    rounds: ROUNDS,
    mode: process.env.BENCH_SERVER === 'source' ? 'tsx' : 'bundled',
    mix_add_cancel_market_pct: `${pct(small.mix.add, OPS)}/${pct(small.mix.cancel, OPS)}/${pct(small.mix.market, OPS)}`,
    ops_per_cpu_s_1k: Math.round(small.cpu),
    ops_per_s_1k: Math.round(small.wall),
    reference_ops_per_cpu_s_1k: Math.round(small.refCpu),
    vs_reference_1k: small.ratio.toFixed(2),
    before_ops_per_cpu_s_1k: Math.round(small.beforeCpu),
    vs_before_1k: small.vsBefore.toFixed(2),
    book_after_1k: small.bookAfter,
    ops_per_cpu_s_10k: Math.round(large.cpu),
    ops_per_s_10k: Math.round(large.wall),
    reference_ops_per_cpu_s_10k: Math.round(large.refCpu),
    vs_reference_10k: large.ratio.toFixed(2),
    before_ops_per_cpu_s_10k: Math.round(large.beforeCpu),
    vs_before_10k: large.vsBefore.toFixed(2),
    book_after_10k: large.bookAfter,
    slowdown_pct: Math.round(slowdown * 1000) / 10,
    load_1m: os.loadavg()[0]!.toFixed(2),
  },
  [
    `target_ops_per_cpu_s=${TARGET_OPS_PER_SECOND}`,
    `target_vs_reference=${TARGET_VS_REFERENCE}`,
    `target_slowdown_pct=${MAX_SLOWDOWN * 100}`,
  ],
  small.cpu >= TARGET_OPS_PER_SECOND &&
    large.cpu >= TARGET_OPS_PER_SECOND &&
    small.ratio >= TARGET_VS_REFERENCE &&
    large.ratio >= TARGET_VS_REFERENCE &&
    slowdown <= MAX_SLOWDOWN,
);
