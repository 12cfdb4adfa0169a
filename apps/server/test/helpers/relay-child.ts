/**
 * A server process for the kill-and-restart test (relay-kill-restart.test.ts), configured from its
 * environment like `npm start` (one PostgreSQL, one standalone cluster). It boots, says `ready`, and
 * waits for a line on stdin:
 * - `withdraw <crash point> <token> <amount>`: a futures withdrawal that stops at the crash point —
 *   it prints `at <point> <signature>` and blocks there until the test kills it (SIGKILL);
 * - `reconcile`: the relay's reconcile until nothing is unsettled; prints `reconciled <json>`.
 */
import readline from 'node:readline';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config/env';
import type { CrashPoint } from '../../src/modules/relay/relay.service';

let stopAt: CrashPoint | null = null;

function hold(point: CrashPoint, signature: string): void {
  if (point !== stopAt) return;
  process.stdout.write(`at ${point} ${signature}\n`);
  // Blocks this thread where it stands (no event loop turn, nothing more sent or written): the test
  // kills the process here.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

async function main(): Promise<void> {
  const app = await buildApp(loadConfig(), { relayCrashPoint: hold });
  process.stdout.write('ready\n');
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const [command, ...args] = line.trim().split(' ');
    if (command === 'withdraw') {
      const [point, token, amount] = args as [CrashPoint, string, string];
      stopAt = point;
      const answer = await app.server.inject({
        method: 'POST',
        url: '/api/futures/collateral/withdraw',
        headers: { authorization: `Bearer ${token}` },
        payload: { amount: Number(amount) },
      });
      process.stdout.write(`answered ${answer.statusCode} ${answer.body}\n`);
    } else if (command === 'reconcile') {
      const rounds: { settled: number; pending: number }[] = [];
      for (let round = 0; round < 200; round++) {
        rounds.push(await app.services.relay.server.reconcile());
        if ((await app.services.relay.server.unsettled()).length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const settled = rounds.reduce((sum, round) => sum + round.settled, 0);
      process.stdout.write(`reconciled ${JSON.stringify({ settled, rounds: rounds.length })}\n`);
    }
  }
  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
