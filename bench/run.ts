import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/harness';

// `npm run bench`: runs every bench/*.bench.ts in turn (one process each, so none disturbs
// another), echoes their result lines and exits non-zero when one fails or misses its target.
const only = process.argv.slice(2);
const files = fs
  .readdirSync(path.join(ROOT, 'bench'))
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

// The benchmarks start the server as production runs it: the compiled build (BENCH_SERVER=source runs
// the TypeScript through tsx instead, to compare).
if (process.env.BENCH_SERVER !== 'source')
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT });

const lines: string[] = [];
let failed = false;
for (const file of files) {
  const output = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', file)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout }));
  });
  const line = output.stdout.split('\n').find((candidate) => candidate.startsWith('bench='));
  if (output.code !== 0 || !line) {
    failed = true;
    lines.push(`bench=${file.replace('.bench.ts', '')} error=exit-${output.code} pass=false`);
  } else {
    lines.push(line);
    if (!line.endsWith('pass=true')) failed = true;
  }
  console.log(lines[lines.length - 1]);
}
process.exitCode = failed ? 1 : 0;
