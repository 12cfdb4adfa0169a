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
// on fresh books; the figures are medians of the rounds, per wall-clock second and per CPU-second
// (this process's user + system time: what a loaded machine does not take away).
//
// The work (lib/perp-matching-load.ts) is bundled first as production bundles the engine
// (scripts/build-server.mjs: esbuild, no keepNames), so the figure is not tsx's: its `__name`
// wrapper around every named closure cost the venue ~7 %. BENCH_SERVER=source runs it through tsx.
const TARGET_OPS_PER_SECOND = 1_000_000;
const TARGET_VS_REFERENCE = 5;
const MAX_SLOWDOWN = 0.15;
const OPS = 200_000;
const ROUNDS = Number(process.env.PERP_BENCH_ROUNDS ?? 7);

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

function measure(resting: number) {
  const stream = work.record(resting, OPS);
  const ours: { wall: number; cpu: number }[] = [];
  const reference: { wall: number; cpu: number }[] = [];
  const before: { wall: number; cpu: number }[] = [];
  work.roundOurs(stream); // warm-up
  work.roundReference(stream);
  work.roundOurs(stream, true);
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(work.roundOurs(stream));
    reference.push(work.roundReference(stream));
    before.push(work.roundOurs(stream, true));
  }
  const ratios = ours.map((o, i) => o.cpu / reference[i]!.cpu);
  return {
    wall: median(ours.map((r) => r.wall)),
    cpu: median(ours.map((r) => r.cpu)),
    refWall: median(reference.map((r) => r.wall)),
    refCpu: median(reference.map((r) => r.cpu)),
    ratio: median(ratios),
    beforeCpu: median(before.map((r) => r.cpu)),
    vsBefore: median(ours.map((o, i) => o.cpu / before[i]!.cpu)),
    mix: stream.mix,
    bookAfter: work.restingAfter(stream),
  };
}

const small = measure(1_000);
const large = measure(10_000);
const slowdown = 1 - large.cpu / small.cpu;
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
