import type { ChildProcess, fork as forkType } from 'node:child_process';
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { BREADCRUMB_DIR, breadcrumbPath, type Breadcrumb } from './worker-breadcrumbs-file';

/**
 * Explains a test worker's death. Vitest reports only "Worker exited unexpectedly" for a worker
 * process that ended without being asked to, whatever the exit code or signal; this setup (in
 * vitest's main process) watches each worker it forks and, when one ends on its own with an error
 * code or a signal, prints how it ended, what it was running and its memory then (recorded by
 * worker-breadcrumbs.ts inside the worker). A worker ended by a segfault prints nothing itself, and
 * the kernel logs nothing either: Node's own SIGSEGV handler re-raises the signal (scripts/test.sh
 * keeps the core and prints its backtrace).
 */
const SIGNAL_CAUSES: Record<string, string> = {
  SIGSEGV: 'a native crash or a native stack overflow (an addon, Node or V8)',
  SIGBUS: 'a native crash (an addon, Node or V8)',
  SIGILL: 'a native crash (an addon, Node or V8)',
  SIGABRT:
    "abort(): a V8 or Node fatal error (see its message above and the fatal-error report) or a native library's abort",
  SIGKILL: "killed from outside the process: the kernel's OOM killer (dmesg) or another process",
};

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as { fork: typeof forkType };
const DEATHS_LOG = path.join(BREADCRUMB_DIR, 'deaths.log');
const INSTALLED = Symbol.for('solterm.test.workerExits');
const state = globalThis as { [INSTALLED]?: { users: number; restore: () => void } };

const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function readBreadcrumb(pid: number): Breadcrumb | undefined {
  try {
    return JSON.parse(fs.readFileSync(breadcrumbPath(pid), 'utf8')) as Breadcrumb;
  } catch {
    return undefined;
  }
}

function forget(pid: number): void {
  fs.rmSync(breadcrumbPath(pid), { force: true });
}

/** What a worker that ended on its own was doing, as lines of the report. */
function describeExit(pid: number, code: number | null, signal: string | null, crumb?: Breadcrumb): string {
  const how =
    signal !== null
      ? `killed by ${signal}: ${SIGNAL_CAUSES[signal] ?? 'a signal from another process'}`
      : `exit code ${code}${crumb?.exit ? ', through process.exit' : ', not through process.exit (Node ended it)'}`;
  const lines = [`[worker-exits] vitest's test worker (pid ${pid}) died, ${how}.`];
  if (crumb === undefined) {
    lines.push(
      '  (it recorded nothing: it died before its setup file ran, or it is not a server test worker)',
    );
    return lines.join('\n');
  }
  const before = crumb.exit?.at ?? Date.now();
  const what =
    crumb.test === undefined
      ? `${crumb.file} (outside any test: file setup or a beforeAll/afterAll hook)`
      : `${crumb.file} > ${crumb.test} (${crumb.testState === 'running' ? 'running for' : 'finished'} ${seconds(before - crumb.testAt)}${crumb.testState === 'running' ? '' : ' before; in a hook or between tests'})`;
  lines.push(`  running: ${what}`);
  lines.push(
    `  memory ${seconds(before - crumb.at)} before the end: resident ${megabytes(crumb.rss)} (the most seen ${megabytes(crumb.peakRss)}), JavaScript heap ${megabytes(crumb.heapUsed)}`,
  );
  if (crumb.exit) lines.push(`  process.exit(${crumb.exit.code}) called from:\n    ${crumb.exit.stack}`);
  const reports = fs
    .readdirSync(BREADCRUMB_DIR)
    .filter((name) => name.startsWith('report.') && name.includes(`.${pid}.`));
  for (const report of reports) lines.push(`  fatal-error report: ${path.join(BREADCRUMB_DIR, report)}`);
  return lines.join('\n');
}

function watch(child: ChildProcess): void {
  const { pid } = child;
  if (pid === undefined) return;
  forget(pid);
  let asked = false;
  const kill = child.kill.bind(child);
  child.kill = (signal) => {
    asked = true;
    return kill(signal);
  };
  child.once('exit', (code, signal) => {
    // Runs in vitest's own process: nothing here may throw.
    try {
      if (!asked && (signal !== null || code !== 0)) {
        const report = `${describeExit(pid, code, signal, readBreadcrumb(pid))}\n`;
        process.stderr.write(`\n${report}\n`);
        // scripts/test.sh prints them again after the run, where they are easy to find.
        fs.mkdirSync(BREADCRUMB_DIR, { recursive: true });
        fs.appendFileSync(DEATHS_LOG, report);
      }
      forget(pid);
    } catch (error) {
      process.stderr.write(
        `[worker-exits] worker ${pid} ended (code ${code}, signal ${signal}): ${String(error)}\n`,
      );
    }
  });
}

export default function setup(): () => void {
  const installed = state[INSTALLED];
  if (installed) {
    installed.users += 1;
  } else {
    const fork = childProcess.fork;
    childProcess.fork = function watchedFork(this: unknown, ...args: Parameters<typeof forkType>) {
      const child = fork.apply(this, args);
      // Vitest's test workers only (workers/forks.js, workers/vmForks.js), not what tests fork.
      if (/[\\/]workers[\\/](vm)?forks\.js$/i.test(String(args[0]))) watch(child);
      return child;
    } as typeof forkType;
    // Vitest imports `fork` as an ES binding of the built-in module: this makes it see the wrapper.
    syncBuiltinESMExports();
    state[INSTALLED] = {
      users: 1,
      restore() {
        childProcess.fork = fork;
        syncBuiltinESMExports();
      },
    };
  }
  return () => {
    const current = state[INSTALLED]!;
    current.users -= 1;
    if (current.users === 0) {
      current.restore();
      delete state[INSTALLED];
    }
  };
}
