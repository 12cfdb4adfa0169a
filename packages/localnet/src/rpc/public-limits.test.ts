import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LAMPORTS_PER_SOL } from '../genesis';
import { createLocalCluster, type LocalCluster } from '../local-cluster';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../token-layout';
import { createJsonRpcHandler, type JsonRpcHandler, type RpcCaller } from './json-rpc-handler';
import { AirdropAllowance, resolvePublicRpcLimits } from './public-limits';

// Public callers of the JSON-RPC handler (anonymous clients of /rpc) are limited as public clusters
// limit them; the server's own internal calls are not, but nobody may airdrop the treasury below
// its reserve.

interface Answer {
  result?: unknown;
  error?: { code: number; message: string };
}

const alice: RpcCaller = { kind: 'public', clientId: '203.0.113.7' };
const bob: RpcCaller = { kind: 'public', clientId: '198.51.100.9' };
const SOL = Number(LAMPORTS_PER_SOL);

let cluster: LocalCluster;
let clock = 1_000_000;
let rpc: JsonRpcHandler;

async function ask(caller: RpcCaller | undefined, method: string, params: unknown[] = []): Promise<Answer> {
  const text = await rpc.handleJsonRpcText(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), caller);
  return JSON.parse(text) as Answer;
}

async function newAddress(): Promise<string> {
  return (await generateKeyPairSigner()).address;
}

beforeAll(async () => {
  cluster = await createLocalCluster({ slotClock: 'manual' });
  rpc = createJsonRpcHandler(cluster, {
    now: () => clock,
    limits: {
      maxBatchSize: 100,
      maxResponseBytes: 64 * 1024,
      airdrop: {
        maxLamportsPerRequest: 5n * LAMPORTS_PER_SOL,
        maxLamportsPerAddress: 10n * LAMPORTS_PER_SOL,
        maxLamportsPerClient: 20n * LAMPORTS_PER_SOL,
        windowMs: 3_600_000,
        treasuryReserveLamports: 10_000n * LAMPORTS_PER_SOL,
      },
    },
  });
});

afterAll(async () => {
  await cluster.close();
});

describe('requestAirdrop for public callers', () => {
  it('refuses the 949,946 SOL drain of issue #8 and moves nothing', async () => {
    // Given the treasury's balance
    const before = cluster.getBalance(cluster.treasury.address);
    // When an anonymous client asks for most of it
    const answer = await ask(alice, 'requestAirdrop', [await newAddress(), 949_946 * SOL]);
    // Then the faucet's per-request cap refuses it, as a validator's faucet does
    expect(answer.error).toEqual({ code: -32603, message: 'request too large; req: ◎949946, cap: ◎5' });
    expect(cluster.getBalance(cluster.treasury.address)).toBe(before);
  });

  it('caps each address per window, and the window passes', async () => {
    const recipient = await newAddress();
    expect((await ask(alice, 'requestAirdrop', [recipient, 5 * SOL])).result).toEqual(expect.any(String));
    expect((await ask(bob, 'requestAirdrop', [recipient, 5 * SOL])).result).toEqual(expect.any(String));
    const refused = await ask(bob, 'requestAirdrop', [recipient, 1]);
    expect(refused.error?.code).toBe(-32603);
    expect(refused.error?.message).toBe(
      `limit reached; req: ◎0.000000001, to: ${recipient}, current: ◎10, cap: ◎10`,
    );
    expect(cluster.getBalance(recipient)).toBe(10n * LAMPORTS_PER_SOL);
    clock += 3_600_001;
    expect((await ask(bob, 'requestAirdrop', [recipient, SOL])).result).toEqual(expect.any(String));
    clock += 3_600_001;
  });

  it('caps each client per window across addresses', async () => {
    for (let index = 0; index < 4; index += 1) {
      expect((await ask(alice, 'requestAirdrop', [await newAddress(), 5 * SOL])).error).toBeUndefined();
    }
    const refused = await ask(alice, 'requestAirdrop', [await newAddress(), SOL]);
    expect(refused.error?.code).toBe(-32603);
    expect(refused.error?.message).toBe('limit reached for this client; req: ◎1, current: ◎20, cap: ◎20');
    // Another client is not affected
    expect((await ask(bob, 'requestAirdrop', [await newAddress(), SOL])).error).toBeUndefined();
    clock += 3_600_001;
  });

  it('a failed airdrop does not count against the limits', async () => {
    // A zero-lamport request is invalid and costs no allowance
    const recipient = await newAddress();
    expect((await ask(alice, 'requestAirdrop', [recipient, 0])).error?.code).toBe(-32602);
    expect((await ask(alice, 'requestAirdrop', [recipient, 5 * SOL])).error).toBeUndefined();
    expect((await ask(alice, 'requestAirdrop', [recipient, 5 * SOL])).error).toBeUndefined();
    clock += 3_600_001;
  });

  it('internal callers (the server) are not capped per request', async () => {
    const recipient = await newAddress();
    expect((await ask(undefined, 'requestAirdrop', [recipient, 50 * SOL])).error).toBeUndefined();
    expect((await ask({ kind: 'internal' }, 'requestAirdrop', [recipient, 50 * SOL])).error).toBeUndefined();
    expect(cluster.getBalance(recipient)).toBe(100n * LAMPORTS_PER_SOL);
  });
});

describe('the treasury reserve', () => {
  it('no caller, internal included, airdrops the treasury below its reserve', async () => {
    // Given a treasury 12 SOL above its reserve
    const small = await createLocalCluster({ slotClock: 'manual' });
    const reserve = small.getBalance(small.treasury.address) - 12n * LAMPORTS_PER_SOL;
    try {
      const handler = createJsonRpcHandler(small, {
        limits: { airdrop: { treasuryReserveLamports: reserve } },
      });
      const airdrop = async (caller: RpcCaller | undefined, lamports: number) =>
        JSON.parse(
          await handler.handleJsonRpcText(
            JSON.stringify({
              jsonrpc: '2.0',
              id: 7,
              method: 'requestAirdrop',
              params: [await newAddress(), lamports],
            }),
            caller,
          ),
        ) as Answer;
      expect((await airdrop(undefined, 10 * SOL)).error).toBeUndefined();
      // When the next airdrop would leave less than the reserve (fees included)
      const refused = await airdrop(undefined, 2 * SOL);
      // Then it is refused, whoever asks
      expect(refused.error?.code).toBe(-32603);
      expect(refused.error?.message).toMatch(/^the airdrop faucet has run dry; req: ◎2, available: ◎1\.99/);
      expect((await airdrop(alice, 2 * SOL)).error?.message).toMatch(/^the airdrop faucet has run dry/);
      expect(small.getBalance(small.treasury.address)).toBeGreaterThanOrEqual(reserve);
    } finally {
      await small.close();
    }
  });
});

describe('batches', () => {
  const batch = (size: number) =>
    JSON.stringify(Array.from({ length: size }, (_, id) => ({ jsonrpc: '2.0', id, method: 'getSlot' })));

  it('answers a public batch at the limit and refuses a larger one', async () => {
    expect(JSON.parse(await rpc.handleJsonRpcText(batch(100), alice))).toHaveLength(100);
    expect(JSON.parse(await rpc.handleJsonRpcText(batch(101), alice))).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request: a batch may hold at most 100 requests (got 101)' },
      id: null,
    });
  });

  it('does not limit internal batches', async () => {
    expect(JSON.parse(await rpc.handleJsonRpcText(batch(101)))).toHaveLength(101);
  });
});

describe('getProgramAccounts of the token programs', () => {
  let owner: string;
  beforeAll(() => {
    owner = cluster.marketMaker.address;
  });

  it.each([
    ['no filters', TOKEN_PROGRAM_ID, undefined],
    ['dataSize only', TOKEN_PROGRAM_ID, [{ dataSize: 165 }]],
    ['a memcmp on the amount', TOKEN_PROGRAM_ID, [{ memcmp: { offset: 64, bytes: '11111111' } }]],
    ['Token-2022 unfiltered', TOKEN_2022_PROGRAM_ID, undefined],
  ])('refuses a public scan with %s', async (_name, programId, filters) => {
    const answer = await ask(alice, 'getProgramAccounts', [programId, { encoding: 'jsonParsed', filters }]);
    expect(answer.error?.code).toBe(-32010);
    expect(answer.error?.message).toBe(
      `${programId} excluded from account secondary indexes; this RPC method unavailable for key ` +
        'without a memcmp filter on the mint (offset 0) or the owner (offset 32) of a token account',
    );
  });

  it('answers a public scan narrowed to an owner', async () => {
    const answer = await ask(alice, 'getProgramAccounts', [
      TOKEN_PROGRAM_ID,
      { encoding: 'base64', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: owner } }] },
    ]);
    expect(answer.error).toBeUndefined();
    // The maker's SPL Token accounts: every listed mint but the Token-2022 risk demonstration tokens.
    const splTokenMints = cluster.mints.filter((mint) => mint.setup?.program !== 'spl-token-2022');
    expect((answer.result as unknown[]).length).toBe(splTokenMints.length);
  });

  it('answers a public unfiltered scan when the limits allow it (RPC_TOKEN_SCANS=any)', async () => {
    const open = createJsonRpcHandler(cluster, { limits: { unfilteredTokenScans: true } });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'getProgramAccounts',
      params: [TOKEN_PROGRAM_ID, { encoding: 'jsonParsed' }],
    });
    const answer = JSON.parse(await open.handleJsonRpcText(body, alice)) as Answer;
    expect(answer.error).toBeUndefined();
    expect((answer.result as unknown[]).length).toBeGreaterThan(cluster.mints.length);
  });

  it('answers an internal unfiltered scan', async () => {
    const answer = await ask(undefined, 'getProgramAccounts', [TOKEN_PROGRAM_ID, { encoding: 'base64' }]);
    expect((answer.result as unknown[]).length).toBeGreaterThan(cluster.mints.length);
  });
});

describe('response size', () => {
  const tight = () => createJsonRpcHandler(cluster, { limits: { maxResponseBytes: 8192 } });
  const askWith = async (
    handler: JsonRpcHandler,
    caller: RpcCaller | undefined,
    method: string,
    params: unknown[],
  ) =>
    JSON.parse(
      await handler.handleJsonRpcText(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), caller),
    ) as Answer;

  it('refuses a public answer larger than the cap', async () => {
    // The mints' parsed accounts of 100 lookups outgrow 8 KiB
    const mints = cluster.mints.map((mint) => mint.mint);
    const keys = Array.from({ length: 100 }, (_, index) => mints[index % mints.length]);
    const params = [keys, { encoding: 'jsonParsed' }];
    const answer = await askWith(tight(), alice, 'getMultipleAccounts', params);
    expect(answer.error?.code).toBe(-32012);
    expect(answer.error?.message).toMatch(
      /^response too large: \d+ bytes exceed this node's limit of 8192 bytes; narrow the request/,
    );
    // Internal callers get the whole answer
    expect((await askWith(tight(), undefined, 'getMultipleAccounts', params)).result).toHaveProperty('value');
  });

  it('refuses a public scan whose accounts would outgrow the cap before encoding them', async () => {
    const params = [
      TOKEN_PROGRAM_ID,
      { encoding: 'jsonParsed', filters: [{ memcmp: { offset: 32, bytes: cluster.marketMaker.address } }] },
    ];
    const answer = await askWith(tight(), alice, 'getProgramAccounts', params);
    expect(answer.error?.code).toBe(-32012);
    expect(answer.error?.message).toMatch(/^response too large: \d+ bytes exceed this node's limit of 8192/);
  });

  it('caps a public batch as a whole: answers past the cap become errors', async () => {
    const mints = cluster.mints.map((mint) => mint.mint);
    const keys = Array.from({ length: 20 }, (_, index) => mints[index % mints.length]);
    const one = { jsonrpc: '2.0', method: 'getMultipleAccounts', params: [keys, { encoding: 'jsonParsed' }] };
    const single = await rpc.handleJsonRpcText(JSON.stringify({ ...one, id: 0 }), alice);
    const fits = Math.floor((64 * 1024) / single.length);
    const answers = JSON.parse(
      await rpc.handleJsonRpcText(
        JSON.stringify(Array.from({ length: fits + 3 }, (_, id) => ({ ...one, id }))),
        alice,
      ),
    ) as Answer[];
    expect(answers.slice(0, fits).every((answer) => answer.error === undefined)).toBe(true);
    expect(answers.slice(fits).every((answer) => answer.error?.code === -32012)).toBe(true);
  });

  it('runs nothing of a public batch after an answer that did not fit', async () => {
    // A block of ten airdrops: small enough to pass the estimate made before encoding it (the wire
    // transactions and logs), too large for 8 KiB once encoded with its metas.
    cluster.advanceSlots(1);
    const slot = cluster.slot;
    for (let index = 0; index < 10; index += 1) await cluster.requestAirdrop(await newAddress(), 1_000_000n);
    cluster.advanceSlots(1);
    const recipient = await newAddress();
    const answers = JSON.parse(
      await tight().handleJsonRpcText(
        JSON.stringify([
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'getBlock',
            params: [slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }],
          },
          { jsonrpc: '2.0', id: 2, method: 'requestAirdrop', params: [recipient, 1_000_000] },
        ]),
        alice,
      ),
    ) as Answer[];
    expect(answers.map((answer) => answer.error?.code)).toEqual([-32012, -32012]);
    // The airdrop after it was refused without being run
    expect(cluster.getBalance(recipient)).toBe(0n);
  });
});

describe('public airdrop allowances across a restart', () => {
  it('are read back from the state file, so a restart resets nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'localnet-airdrops-'));
    try {
      const path = join(dir, 'airdrop-grants.json');
      const limits = resolvePublicRpcLimits().airdrop;
      const recipient = await newAddress();
      const now = () => 5_000_000;
      const first = new AirdropAllowance(limits, now, path);
      first.take(recipient, 'client-a', 5n * LAMPORTS_PER_SOL);
      first.take(recipient, 'client-b', 5n * LAMPORTS_PER_SOL);
      // A grant given back (its transfer failed) is not kept
      first.take(await newAddress(), 'client-c', LAMPORTS_PER_SOL)();
      const restarted = new AirdropAllowance(limits, now, path);
      expect(() => restarted.take(recipient, 'client-d', 1n)).toThrow(/^limit reached; req: ◎0.000000001/);
      const other = await newAddress();
      expect(() => restarted.take(other, 'client-c', 5n * LAMPORTS_PER_SOL)).not.toThrow();
      // Once the window has passed they are forgotten
      const later = new AirdropAllowance(limits, () => 5_000_000 + limits.windowMs + 1, path);
      expect(() => later.take(recipient, 'client-d', 5n * LAMPORTS_PER_SOL)).not.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('getLeaderSchedule for public callers', () => {
  it('is refused as too large before the schedule is built; the server itself still gets it', async () => {
    const from = vi.spyOn(Array, 'from');
    const refused = await ask(alice, 'getLeaderSchedule');
    expect(refused.error?.code).toBe(-32012);
    expect(refused.error?.message).toMatch(
      /^response too large: \d+ bytes exceed this node's limit of 65536 bytes/,
    );
    // Nothing of 432,000 slots was built for an answer that could never be sent.
    expect(from.mock.calls.some(([source]) => (source as { length?: number }).length === 432_000)).toBe(
      false,
    );
    from.mockRestore();
    const internal = await ask(undefined, 'getLeaderSchedule');
    expect(Object.values(internal.result as Record<string, number[]>)[0]).toHaveLength(432_000);
  });
});
