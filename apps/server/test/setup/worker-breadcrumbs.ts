import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { BREADCRUMB_DIR, breadcrumbPath, type Breadcrumb } from './worker-breadcrumbs-file';

/**
 * Inside each server test worker: keeps a small file saying which test runs and how much memory the
 * process holds (updated at each test's start and end and every second), the stack of whatever calls
 * process.exit, and a V8 report on a fatal error, so that worker-exits.ts can explain a worker that
 * dies without a word. Costs two in-place writes of 4 kB per test and one a second (~15 µs each).
 */
type TaskLike = { name: string; suite?: TaskLike };

/** One per worker process (this file runs again for each test file of a shared worker). */
interface Recorder {
  crumb: Breadcrumb;
  /** The open breadcrumb file, and what is written over it (see {@link write}). */
  fd?: number;
  buffer: Buffer;
}

const INSTALLED = Symbol.for('solterm.test.workerBreadcrumbs');
const state = globalThis as { [INSTALLED]?: Recorder };

function install(): Recorder {
  try {
    fs.mkdirSync(BREADCRUMB_DIR, { recursive: true });
  } catch {
    // Then nothing is recorded (write() gives up quietly), and no test fails for it.
  }
  const crumb: Breadcrumb = {
    pid: process.pid,
    file: '',
    testAt: Date.now(),
    at: 0,
    rss: 0,
    peakRss: 0,
    heapUsed: 0,
  };
  const recorder: Recorder = { crumb, buffer: Buffer.alloc(4096) };
  process.report.directory = BREADCRUMB_DIR;
  process.report.reportOnFatalError = true;
  // What process.exit calls last (not in @types/node): whoever ends the process goes through it.
  const internals = process as unknown as { reallyExit: (code?: number) => void };
  const reallyExit = internals.reallyExit.bind(process);
  internals.reallyExit = (code) => {
    crumb.exit = { code: code ?? 0, stack: stackOfCaller(), at: Date.now() };
    write(recorder);
    reallyExit(code);
  };
  setInterval(() => write(recorder), 1000).unref();
  return recorder;
}

/** The JavaScript stack that led to process.reallyExit, one frame a line. */
function stackOfCaller(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  const frames = (new Error().stack ?? '').split('\n').slice(3);
  Error.stackTraceLimit = limit;
  return frames.map((frame) => frame.trim()).join('\n    ');
}

/**
 * Overwrites the file in place, padded with spaces to a size that never shrinks: rewriting it whole
 * (writeFileSync truncates) took ~2 ms a time on this machine's ext4, an in-place write ~15 µs.
 */
function write(recorder: Recorder): void {
  const { crumb } = recorder;
  const { rss, heapUsed } = process.memoryUsage();
  crumb.at = Date.now();
  crumb.rss = rss;
  crumb.peakRss = Math.max(crumb.peakRss, rss);
  crumb.heapUsed = heapUsed;
  try {
    recorder.fd ??= fs.openSync(breadcrumbPath(process.pid), 'w');
    const text = Buffer.from(JSON.stringify(crumb));
    if (text.length > recorder.buffer.length) recorder.buffer = Buffer.alloc(text.length * 2);
    recorder.buffer.fill(0x20);
    text.copy(recorder.buffer);
    fs.writeSync(recorder.fd, recorder.buffer, 0, recorder.buffer.length, 0);
  } catch {
    // A diagnostic: never the reason a test fails.
  }
}

function fullName(task: TaskLike): string {
  const names: string[] = [];
  // The file is the only task without a suite.
  for (let current: TaskLike | undefined = task; current?.suite; current = current.suite) {
    names.unshift(current.name);
  }
  return names.join(' > ');
}

const recorder = (state[INSTALLED] ??= install());
const { crumb } = recorder;

beforeAll(() => {
  crumb.file = path.relative(process.cwd(), expect.getState().testPath ?? '');
  crumb.test = undefined;
  crumb.testState = undefined;
  crumb.testAt = Date.now();
  write(recorder);
});

beforeEach(({ task }) => {
  crumb.test = fullName(task);
  crumb.testState = 'running';
  crumb.testAt = Date.now();
  write(recorder);
});

afterEach(() => {
  crumb.testState = 'finished';
  crumb.testAt = Date.now();
  write(recorder);
});
