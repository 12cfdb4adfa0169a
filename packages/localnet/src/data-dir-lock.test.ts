import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock';

let directory: string | undefined;

afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('takes over a lock left by a process that no longer exists, and releases it', async () => {
    directory = await mkdtemp(join(tmpdir(), 'localnet-lock-'));
    // A pid far above Linux's pid_max: no such process.
    await writeFile(join(directory, 'LOCK'), '99999999');
    const release = await lockDataDir(directory);
    expect(await readFile(join(directory, 'LOCK'), 'utf8')).toBe(`${process.pid} ${threadId}`);
    await expect(lockDataDir(directory)).rejects.toThrow(/already open in this process/);
    await release();
    const again = await lockDataDir(directory);
    await again();
  });
});
