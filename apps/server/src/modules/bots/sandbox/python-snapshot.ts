import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PYODIDE_MODULE } from './python-process';

// Pyodide's start from a memory snapshot: a sandbox process restores the interpreter as it stood right
// after loading (~0.5 s of CPU) instead of booting it (~3 s), so a spare, a save's code check or a live
// bot's process costs a sixth of what it did. The snapshot holds Pyodide's own state only: it is made by
// a process that runs no user code, with the load options the sandbox host uses (python-host.ts), and
// each sandbox process still applies its lockdown after restoring it.

/** Loads Pyodide as the sandbox host does, and writes the memory snapshot to the path in argv[1]. */
const MAKER = `
import { writeFileSync } from 'node:fs';
const { loadPyodide } = await import(process.env.PYODIDE_MODULE_URL);
const quiet = () => {};
const pyodide = await loadPyodide({ jsglobals: Object.create(null), stdout: quiet, stderr: quiet, env: {}, _makeSnapshot: true });
writeFileSync(process.argv[1], pyodide.makeMemorySnapshot());
`;

const PYODIDE_VERSION = (
  JSON.parse(readFileSync(join(dirname(PYODIDE_MODULE), 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * Where the snapshot of this Pyodide version (and this maker) is kept: beside Pyodide in node_modules,
 * which holds what the server trusts to run, never in a shared temporary folder.
 */
export const PYTHON_SNAPSHOT_FILE = join(
  dirname(PYODIDE_MODULE),
  '..',
  '.cache',
  'solterm',
  `pyodide-${PYODIDE_VERSION}-${createHash('sha256').update(MAKER).digest('hex').slice(0, 12)}.snapshot`,
);

let making: Promise<string | undefined> | undefined;

/**
 * The snapshot's path, made first if it is missing (once per install; concurrent makers each write a
 * file of their own and rename it into place). Undefined when it cannot be made: the sandbox then
 * boots Pyodide the slow way, with the same walls.
 */
export function pythonSnapshot(): Promise<string | undefined> {
  making ??= existsSync(PYTHON_SNAPSHOT_FILE) ? Promise.resolve(PYTHON_SNAPSHOT_FILE) : makeSnapshot();
  return making;
}

function makeSnapshot(): Promise<string | undefined> {
  mkdirSync(dirname(PYTHON_SNAPSHOT_FILE), { recursive: true });
  const partial = `${PYTHON_SNAPSHOT_FILE}.${process.pid}.${Date.now()}.partial`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', MAKER, partial], {
      stdio: 'ignore',
      env: { PYODIDE_MODULE_URL: pathToFileURL(PYODIDE_MODULE).href },
    });
    const give = (made: boolean) => {
      // Inside a child's event handler: a failed rename must not become an uncaught error in the server.
      try {
        if (made) renameSync(partial, PYTHON_SNAPSHOT_FILE);
      } catch {
        made = false;
      }
      if (!made) rmSync(partial, { force: true });
      resolve(made ? PYTHON_SNAPSHOT_FILE : undefined);
    };
    child.once('error', () => give(false));
    child.once('exit', (code) => give(code === 0 && existsSync(partial)));
  });
}
