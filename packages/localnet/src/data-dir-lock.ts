/**
 * One owner per data directory: two processes appending to one ledger would corrupt it (say the
 * app server embeds the cluster while `npm run localnet` runs on the same directory), and so would
 * two PGlite instances on one database directory (the app server's embedded database). A LOCK file
 * holds the owner's pid and thread id (clusters may run in worker threads); a lock left by a
 * process that no longer exists is taken over.
 */
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';

const LOCK_FILE = 'LOCK';
const heldHere = new Set<string>();

function isProcessAlive(pid: number): boolean {
  try {
    // Signal 0 only checks that the process exists; nothing is sent.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock or throws naming the process that holds it. Returns the release. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const directory = resolve(dataDir);
  const path = join(directory, LOCK_FILE);
  if (heldHere.has(directory)) throw new Error(`${directory} is already open in this process`);
  const holder = `${process.pid} ${threadId}`;
  try {
    await writeFile(path, holder, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const [pid = 0, thread = 0] = (await readFile(path, 'utf8')).trim().split(' ').map(Number);
    if (pid === process.pid && thread !== threadId) {
      throw new Error(`${directory} is in use by thread ${thread} of this process`);
    }
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
      throw new Error(`${directory} is in use by process ${pid} (another localnet or app server)`);
    }
    await writeFile(path, holder);
  }
  heldHere.add(directory);
  return async () => {
    heldHere.delete(directory);
    await unlink(path).catch(() => undefined);
  };
}
