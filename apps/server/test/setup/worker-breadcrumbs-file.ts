import os from 'node:os';
import path from 'node:path';

/** What a test worker last recorded about itself (worker-breadcrumbs.ts), read if it dies (worker-exits.ts). */
export interface Breadcrumb {
  pid: number;
  file: string;
  /** The current or last test of `file`, with its suites. */
  test?: string;
  testState?: 'running' | 'finished';
  /** When the test started or finished (ms since the epoch). */
  testAt: number;
  /** When the memory figures were taken. */
  at: number;
  rss: number;
  peakRss: number;
  heapUsed: number;
  /** Set when JavaScript ended the process. */
  exit?: { code: number; stack: string; at: number };
}

export const BREADCRUMB_DIR = path.join(os.tmpdir(), 'solterm-vitest-workers');

export function breadcrumbPath(pid: number): string {
  return path.join(BREADCRUMB_DIR, `${pid}.json`);
}
