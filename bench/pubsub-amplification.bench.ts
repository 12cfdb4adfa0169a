import { fork, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system';
import {
  appendTransactionMessageInstruction,
  blockhash as toBlockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { percentile, report, ROOT, round, startServer } from './lib/harness';

// PubSub amplification at the byte budget, against the app's /rpc on a fresh server: one client
// (one IP behind a trusted proxy hop) opens BENCH_ATTACK_CONNS WebSockets (default 4) and subscribes
// each to a 1 MB account with distinct dataSlices until the server refuses (2 MiB a commit a
// connection: one each; 4 MiB across the client's connections: the fourth holds none), while 1-lamport transfers to that account land at the client's public /rpc rate
// (BENCH_TOUCH_RATE per s, default 9; 100 requests per 10 s is the limit); each commit then sends
// the attacker ~4 MB of notifications. Meanwhile a client asks getLatestBlockhash one request at a
// time, 10 ms apart, for BENCH_SECONDS (default 15), from 10 other addresses (each within its own
// public rate limit): its p99 must stay under 50 ms. (Before the budget, 256 subscriptions per
// connection made one transfer cost hundreds of MB and getLatestBlockhash seconds.)
// BENCH_TARGET=standalone runs the same against the standalone cluster (`npm run localnet`, its
// own process, a data directory on disk): one event loop for HTTP, PubSub and the chain, no public
// limits, every client at 127.0.0.1 (the attacker's connections share its budget all the same).
const TARGET_P99_MS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ATTACK_CONNECTIONS = Number(process.env.BENCH_ATTACK_CONNS ?? 4);
const TOUCH_RATE = Number(process.env.BENCH_TOUCH_RATE ?? 9);
const DATA_LENGTH = 1_000_000;
/** Bytes of each subscription's slice (the attacker picks the largest its budget admits). */
const SLICE_LENGTH = Number(process.env.BENCH_SLICE ?? DATA_LENGTH);
const ATTACKER_IP = '198.51.100.66';
const SETUP_IP = '198.51.100.1';
const MEASURER_IPS = Array.from({ length: 10 }, (_, index) => `203.0.113.${index + 1}`);

interface RpcAnswer<T> {
  result?: T;
  error?: { code: number; message: string };
}

async function rpc<T>(url: string, ip: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(`${url}${RPC_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as RpcAnswer<T>;
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

type Lifetime = { blockhash: string; lastValidBlockHeight: number };

async function signed(payer: KeyPairSigner, lifetime: Lifetime, instruction: Instruction): Promise<string> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(payer, draft),
    (draft) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: toBlockhash(lifetime.blockhash),
          lastValidBlockHeight: BigInt(lifetime.lastValidBlockHeight),
        },
        draft,
      ),
    (draft) => appendTransactionMessageInstruction(instruction, draft),
  );
  return getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
}

async function landed(url: string, signature: string): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const { value } = await rpc<{ value: ({ confirmationStatus: string; err: unknown } | null)[] }>(
      url,
      SETUP_IP,
      'getSignatureStatuses',
      [[signature]],
    );
    if (value[0]?.err) throw new Error(`${signature} failed: ${JSON.stringify(value[0].err)}`);
    if (value[0]?.confirmationStatus === 'confirmed' || value[0]?.confirmationStatus === 'finalized') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${signature} did not land`);
}

/** getLatestBlockhash latencies (ms), one request at a time, 10 ms apart, rotating the addresses. */
async function sample(url: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  for (let index = 0; performance.now() < until; index += 1) {
    const started = performance.now();
    await rpc(url, MEASURER_IPS[index % MEASURER_IPS.length]!, 'getLatestBlockhash');
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return latencies;
}

const TARGET = process.env.BENCH_TARGET === 'standalone' ? 'standalone' : 'app';

/** The standalone cluster in a child process, on a free port, with a fresh data directory. */
async function startStandalone(): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'localnet-bench-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'packages/localnet/src/main.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, LOCALNET_PORT: '0', LOCALNET_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match !== null) resolve(match[1]!.replace(/\/$/, ''));
    });
    child.once('exit', (code) => reject(new Error(`localnet exited early with code ${code}`)));
  });
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const server = TARGET === 'app' ? await startServer({ TRUST_PROXY: '1' }) : await startStandalone();
/** JSON-RPC path: the app serves it at /rpc; the standalone server at / (and PubSub on any path). */
const RPC_PATH = TARGET === 'app' ? '/rpc' : '/';
try {
  const { url } = server;
  // A 1 MB system account, funded by the public faucet (rent ≈ 7 SOL; 10 SOL per address).
  const [payer, big] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
  for (const grant of [5e9, 5e9])
    await landed(url, await rpc(url, SETUP_IP, 'requestAirdrop', [payer.address, grant]));
  const rent = await rpc<number>(url, SETUP_IP, 'getMinimumBalanceForRentExemption', [DATA_LENGTH]);
  const { value: lifetime } = await rpc<{ value: Lifetime }>(url, SETUP_IP, 'getLatestBlockhash', [
    { commitment: 'confirmed' },
  ]);
  const create = await signed(
    payer,
    lifetime,
    getCreateAccountInstruction({
      payer,
      newAccount: big,
      lamports: BigInt(rent),
      space: BigInt(DATA_LENGTH),
      programAddress: '11111111111111111111111111111111' as never,
    }),
  );
  await landed(url, await rpc(url, SETUP_IP, 'sendTransaction', [create, { encoding: 'base64' }]));
  const touches: string[] = [];
  for (let index = 0; index < Math.ceil(SECONDS * TOUCH_RATE) + 5; index += 1) {
    touches.push(
      await signed(
        payer,
        lifetime,
        getTransferSolInstruction({ source: payer, destination: big.address, amount: BigInt(index + 1) }),
      ),
    );
  }

  const baseline = await sample(url, 3);

  const attacker = fork(
    path.join(ROOT, 'bench/lib/pubsub-attacker.ts'),
    [
      `${url.replace('http', 'ws')}${RPC_PATH}`,
      big.address,
      String(ATTACK_CONNECTIONS),
      ATTACKER_IP,
      String(SLICE_LENGTH),
    ],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      attacker.once('exit', (code) => reject(new Error(`the attacker exited (${code})`)));
      attacker.on('message', (message: { type: string }) => {
        if (message.type === type) resolve(message as T);
      });
    });
  const ready = await next<{ accepted: number[]; refusal?: string }>('ready');
  // (BENCH_ATTACK_CONNS=0: the transfers alone, for comparison.)
  if (ATTACK_CONNECTIONS > 0 && ready.refusal === undefined) {
    throw new Error('the server refused none of the attacker’s subscriptions');
  }

  // The attacker's transfers, at its own address's rate.
  let stopping = false;
  const statuses: Record<string, number> = {};
  const touching = (async () => {
    const started = performance.now();
    for (let index = 0; !stopping && index < touches.length; index += 1) {
      const due = started + (index * 1000) / TOUCH_RATE;
      if (due > performance.now())
        await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const response = await fetch(`${url}${RPC_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ATTACKER_IP },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: index,
          method: 'sendTransaction',
          params: [touches[index], { encoding: 'base64', skipPreflight: true }],
        }),
      });
      const answer = (await response.json()) as RpcAnswer<string>;
      const key = answer.error ? `rpc${answer.error.code}` : String(response.status);
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  })();
  const latencies = await sample(url, SECONDS);
  stopping = true;
  await touching;
  const done = next<{ notifications: number; bytes: number; closed: number }>('done');
  attacker.send({ type: 'stop' });
  const attack = await done;

  const p99 = percentile(latencies, 99);
  const subscriptions = ready.accepted.reduce((total, count) => total + count, 0);
  // Every subscription is notified once per commit of a transfer.
  const landedTouches =
    subscriptions === 0 ? (statuses['200'] ?? 0) : Math.round(attack.notifications / subscriptions);
  report(
    'pubsub-amplification',
    {
      target: TARGET,
      p99_ms: round(p99, 1),
      p50_ms: round(percentile(latencies, 50), 1),
      max_ms: round(Math.max(...latencies), 1),
      baseline_p99_ms: round(percentile(baseline, 99), 1),
      samples: latencies.length,
      subscriptions: `${subscriptions}(${ready.accepted.join('+')})`,
      commits: landedTouches,
      notified_mb: round(attack.bytes / 1e6, 1),
      mb_per_commit: round(attack.bytes / 1e6 / Math.max(1, landedTouches), 2),
      closed: attack.closed,
    },
    [`target_p99_ms<${TARGET_P99_MS}`],
    p99 < TARGET_P99_MS,
  );
  console.error(`refusal: ${ready.refusal}`);
  console.error(`transfer answers: ${JSON.stringify(statuses)}`);
  attacker.kill();
} finally {
  await server.stop();
}
