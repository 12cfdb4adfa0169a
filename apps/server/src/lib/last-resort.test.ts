import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The server's last resort, in a process of its own: a child that writes garbage onto a Node IPC
// channel makes Node's parser throw in the parent's event loop (how a Python strategy brought the
// whole server down); with keepServingOnUncaughtErrors the parent logs it and goes on.
const LAST_RESORT = fileURLToPath(new URL('./last-resort.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'solterm-last-resort-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const server = join(dir, 'server.ts');
writeFileSync(
  server,
  `
import { spawn } from 'node:child_process';
import { keepServingOnUncaughtErrors } from ${JSON.stringify(LAST_RESORT)};
// The server's logger, as far as the last resort uses it.
const log = { error: (fields, msg) => console.log(JSON.stringify({ msg, err: fields.err.message })) };
if (process.env.LAST_RESORT === 'on') keepServingOnUncaughtErrors(log);
const child = spawn(process.execPath, ['-e', "require('fs').writeSync(3, Buffer.from('0000000f676172626167652d67617262616765fffe', 'hex'))"], {
  stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  serialization: 'advanced',
});
child.on('close', () => setImmediate(() => console.log('still serving')));
`,
);

const run = (lastResort: 'on' | 'off') =>
  spawnSync(process.execPath, ['--import', 'tsx', server], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, LAST_RESORT: lastResort },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('the last resort for uncaught errors', () => {
  it('without it a child writing garbage ends the server; with it the error is logged and it serves on', () => {
    const bare = run('off');
    expect(bare.status).toBe(1);
    expect(bare.stderr).toMatch(/Unable to deserialize cloned data/);
    expect(bare.stdout).not.toMatch(/still serving/);

    const guarded = run('on');
    expect(guarded.status, guarded.stderr).toBe(0);
    expect(guarded.stdout).toMatch(/"msg":"uncaught exception: logged, and the server keeps serving"/);
    expect(guarded.stdout).toMatch(/Unable to deserialize cloned data/);
    expect(guarded.stdout).toMatch(/still serving/);
  }, 120_000);
});
