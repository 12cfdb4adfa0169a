import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The calling thread's CPU time in ms, from Linux's scheduler statistics for the thread
 * (/proc/thread-self/schedstat: nanoseconds on a CPU). NaN where it cannot be read (another OS, no
 * /proc): callers then fall back to wall time. Node 20 has no per-thread CPU clock of its own.
 *
 * The file is opened once per thread (a worker thread loads its own copy of this module, and
 * /proc/thread-self names the thread that opens it).
 */
let fd: number | null | undefined;
const buffer = Buffer.alloc(64);

export function threadCpuMs(): number {
  if (fd === undefined) {
    try {
      fd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      fd = null;
    }
  }
  if (fd === null) return Number.NaN;
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.toString('latin1', 0, length);
    const nanoseconds = Number(text.slice(0, text.indexOf(' ')));
    return nanoseconds > 0 ? nanoseconds / 1e6 : Number.NaN;
  } catch {
    closeSync(fd);
    fd = null;
    return Number.NaN;
  }
}
