import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import { ROOT } from '../lib/harness';

// The other checkout (its server built with `node scripts/build-server.mjs`) against this one.
const BASE_ROOT = process.env.BENCH_AB_BASE;
if (!BASE_ROOT) throw new Error('BENCH_AB_BASE must name the root of another built checkout');
export const ROOTS = { base: BASE_ROOT, new: ROOT } as const;
/** Starts the compiled server of the checkout at `root` on `port`, with a data directory of its own. */
export async function startAt(root: string, port: number) {
  const dataDir = await fs.mkdtemp(`${os.tmpdir()}/solterm-paired-`);
  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/server.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const mainCpu = async () => {
    const stat = await fs.readFile(`/proc/${child.pid}/task/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  return {
    url,
    mainCpu,
    stop: () => {
      child.kill('SIGTERM');
      return fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type PairedServer = Awaited<ReturnType<typeof startAt>>;
