import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  call,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { createSolanaWallet, signInWithWallet } from './helpers/wallets';

// Issue #8: the public JSON-RPC at /rpc must not let an anonymous client drain the treasury or stall
// the API, and the faucet's limit must survive a restart and hold across processes.
//
// vitest: own worker. Three times in full runs the worker process died without a word while this
// file ran. Reproduced by repeating the file: a segfault in Node's teardown of a cluster worker
// thread, after the heavy batch below (see freeArrayBuffersOnTheirOwnThread in
// packages/localnet/src/worker/cluster-host.ts). It keeps a worker of its own until full runs confirm
// that fix; a fresh worker costs ~1.3 s of CPU.

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const LAMPORTS_PER_SOL = 1_000_000_000n;

interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string };
}

async function rpc(app: TestApp, body: unknown, remoteAddress = '203.0.113.7') {
  const response = await app.server.inject({
    method: 'POST',
    url: '/rpc',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    remoteAddress,
  });
  return { status: response.statusCode, body: response.json<RpcAnswer & Record<string, unknown>>() };
}

const request = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params });

async function solanaUser(app: TestApp): Promise<{ token: string; address: string }> {
  const wallet = createSolanaWallet();
  const { status, body } = await signInWithWallet(app, wallet, 'phantom');
  expect(status).toBe(200);
  return { token: body.data.token, address: wallet.address };
}

describe.each(databaseTargets())('public /rpc limits (%s)', (target) => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase(target);
    app = await createTestApp({ database, env: { RPC_RATE_LIMIT_MAX: '1000' } });
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  it('refuses the anonymous 949,946 SOL airdrop of issue #8; the treasury keeps its SOL and the faucet works', async () => {
    const treasury = app.cluster!.treasury.address;
    const before = await app.services.chain.getBalance(treasury);
    const { address } = createSolanaWallet();

    const drained = await rpc(app, request('requestAirdrop', [address, 949_946 * 1e9]));

    expect(drained.status).toBe(200);
    expect(drained.body.error).toEqual({ code: -32603, message: 'request too large; req: ◎949946, cap: ◎5' });
    expect(await app.services.chain.getBalance(treasury)).toBe(before);
    // A public airdrop within the cap lands, and the faucet still funds a user afterwards
    expect((await rpc(app, request('requestAirdrop', [address, 5 * 1e9]))).body.result).toEqual(
      expect.any(String),
    );
    const user = await solanaUser(app);
    const funded = await call(app, {
      method: 'POST',
      url: '/api/wallet/fund',
      headers: bearer(user.token),
      payload: { amount_sol: 10 },
    });
    expect(funded.status).toBe(200);
    expect(await app.services.chain.getBalance(treasury)).toBeLessThan(before);
    expect(before - (await app.services.chain.getBalance(treasury))).toBeLessThan(16n * LAMPORTS_PER_SOL);
  });

  it('caps public airdrops per address', async () => {
    const { address } = createSolanaWallet();
    expect(
      (await rpc(app, request('requestAirdrop', [address, 5e9]), '198.51.100.1')).body.error,
    ).toBeUndefined();
    expect(
      (await rpc(app, request('requestAirdrop', [address, 5e9]), '198.51.100.2')).body.error,
    ).toBeUndefined();
    const refused = await rpc(app, request('requestAirdrop', [address, 1e9]), '198.51.100.3');
    expect(refused.body.error?.message).toMatch(/^limit reached; req: ◎1, to: \w+, current: ◎10, cap: ◎10$/);
  });

  it('refuses a batch over the limit and an unfiltered token-program scan', async () => {
    const batch = Array.from({ length: 101 }, (_, id) => request('getSlot', [], id));
    expect((await rpc(app, batch)).body.error).toEqual({
      code: -32600,
      message: 'Invalid request: a batch may hold at most 100 requests (got 101)',
    });
    expect(await rpc(app, batch.slice(0, 100)).then((answer) => answer.body)).toHaveLength(100);
    const scan = await rpc(app, request('getProgramAccounts', [TOKEN_PROGRAM, { encoding: 'jsonParsed' }]));
    expect(scan.body.error?.code).toBe(-32010);
  });

  it('answers a client over its /rpc rate limit with a clear 429', async () => {
    const limited = await createTestApp({ database, env: { RPC_RATE_LIMIT_MAX: '3' } });
    try {
      for (let index = 0; index < 3; index += 1) {
        expect((await rpc(limited, request('getSlot'), '192.0.2.10')).status).toBe(200);
      }
      const refused = await rpc(limited, request('getSlot'), '192.0.2.10');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ success: false, code: 'REQUEST__RATE_LIMITED' });
      // Another client is not affected, nor is the server's own use of the cluster
      expect((await rpc(limited, request('getSlot'), '192.0.2.11')).status).toBe(200);
      expect(await limited.services.chain.getBalance(limited.cluster!.treasury.address)).toBeGreaterThan(0n);
    } finally {
      await limited.close();
    }
  });

  it('keeps the faucet limit in the database: a restarted server still refuses', async () => {
    const env = { FAUCET_RATE_LIMIT_MAX: '1' };
    const first = await createTestApp({ database, env });
    const fund = (on: TestApp, token: string) =>
      call(on, {
        method: 'POST',
        url: '/api/wallet/fund',
        headers: bearer(token),
        payload: { amount_usdc: 0 },
      });
    let user: { token: string; address: string };
    try {
      user = await solanaUser(first);
      expect((await fund(first, user.token)).status).toBe(200);
    } finally {
      await first.close();
    }
    // A second server process on the same database (or the same one restarted)
    const second = await createTestApp({ database, env });
    try {
      const refused = await fund(second, user.token);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('WALLET__FAUCET_RATE_LIMITED');
    } finally {
      await second.close();
    }
  });

  it('grants exactly the limit to 10 simultaneous faucet calls of one user', async () => {
    const limited = await createTestApp({ database, env: { FAUCET_RATE_LIMIT_MAX: '3' } });
    try {
      const user = await solanaUser(limited);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(limited, {
            method: 'POST',
            url: '/api/wallet/fund',
            headers: bearer(user.token),
            payload: { amount_sol: 0.1, amount_usdc: 0 },
          }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(7);
    } finally {
      await limited.close();
    }
  });
});

describe('the embedded cluster off the API event loop', () => {
  let app: TestApp;

  beforeAll(async () => {
    // Answer limits high enough that one request keeps the cluster busy for a while.
    app = await createTestApp({
      env: { RPC_MAX_BATCH: '1000', RPC_MAX_RESPONSE_BYTES: String(256 * 1024 * 1024) },
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('keeps the event loop free while the cluster answers a heavy /rpc request', async () => {
    // Given a batch of 200 owner-filtered scans of the Token program (the market maker's accounts)
    const owner = app.cluster!.marketMaker.address;
    const scan = (id: number) =>
      request(
        'getProgramAccounts',
        [TOKEN_PROGRAM, { encoding: 'jsonParsed', filters: [{ memcmp: { offset: 32, bytes: owner } }] }],
        id,
      );
    const batch = Array.from({ length: 200 }, (_, id) => scan(id));
    // When it runs, with a 5 ms timer ticking on the API's event loop
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const answer = await rpc(app, batch);
    const took = performance.now() - started;
    clearInterval(ticker);
    // (a timer that never fired while the request ran is one gap as long as the request)
    longestGap = Math.max(longestGap, performance.now() - last);
    // Then the answer is complete, and the event loop kept ticking while the cluster worked
    expect(answer.body, JSON.stringify(answer.body).slice(0, 300)).toHaveLength(200);
    expect(took, 'the batch is heavy enough to measure').toBeGreaterThan(100);
    expect(longestGap, `longest gap ${Math.round(longestGap)} ms of ${Math.round(took)} ms`).toBeLessThan(
      took / 2,
    );
  });
});
