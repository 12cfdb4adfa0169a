import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSigner, getBase58Decoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LAMPORTS_PER_SOL } from '../genesis';
import { SYSTEM_PROGRAM_ID } from '../program-ids';
import { startClusterWorker, type ClusterHost } from './cluster-host';

// The embedded cluster in a worker thread: LiteSVM (a napi addon) loads and runs there, the main
// thread gets JSON-RPC text, the treasury's and maker's signers, and async tooling methods.
// Starting a worker loads the cluster's modules anew (seconds on a busy machine): generous time-outs.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let host: ClusterHost;

async function rpc(
  method: string,
  params: unknown[] = [],
  caller?: Parameters<ClusterHost['handleJsonRpcText']>[1],
) {
  const text = await host.handleJsonRpcText(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    caller,
  );
  return JSON.parse(text) as { result?: unknown; error?: { code: number; message: string } };
}

beforeAll(async () => {
  host = await startClusterWorker({
    cluster: { slotClock: 'manual' },
    limits: { airdrop: { maxLamportsPerRequest: LAMPORTS_PER_SOL } },
  });
});

afterAll(async () => {
  await host.close();
});

describe('a cluster in a worker thread', () => {
  it('answers JSON-RPC and hands the main thread signers of its treasury and market maker', async () => {
    expect(await rpc('getHealth')).toMatchObject({ result: 'ok' });
    expect(await rpc('getIdentity')).toMatchObject({ result: { identity: host.treasury.address } });
    const lamports = await host.getBalance(host.marketMaker.address);
    expect(lamports).toBeGreaterThan(0n);
    // The signers sign on the main thread with the same keys the cluster holds
    const message = new TextEncoder().encode('solterm');
    const [signature] = await host.treasury.signMessages([{ content: message, signatures: {} }]);
    expect(signature![host.treasury.address]).toHaveLength(64);
  });

  it('applies the public limits it was started with, and none to internal callers', async () => {
    const recipient = (await generateKeyPairSigner()).address;
    const publicCaller = { kind: 'public', clientId: '192.0.2.1' } as const;
    expect((await rpc('requestAirdrop', [recipient, 2e9], publicCaller)).error?.message).toBe(
      'request too large; req: ◎2, cap: ◎1',
    );
    expect((await rpc('requestAirdrop', [recipient, 2e9])).error).toBeUndefined();
    expect(await host.getBalance(recipient)).toBe(2n * LAMPORTS_PER_SOL);
  });

  it('offers the tooling methods the tests use, asynchronously', async () => {
    const slot = await host.slot();
    await host.advanceSlots(5);
    expect(await host.slot()).toBe(slot + 5);
    await host.startSlotClock();
    await host.stopSlotClock();
    expect(await host.minimumBalanceForRentExemption(165)).toBe(2_039_280n);
    const count = await host.transactionCount();
    const recipient = (await generateKeyPairSigner()).address;
    const airdrop = await rpc('requestAirdrop', [recipient, 1e9]);
    expect(await host.transactionCount()).toBe(count + 1);
    const [record] = await host.getSignaturesForAddress(recipient);
    expect(record?.signature).toBe(airdrop.result);
    expect((await host.getAccount(recipient))?.lamports).toBe(LAMPORTS_PER_SOL);
    const system = await host.getProgramAccounts(SYSTEM_PROGRAM_ID);
    expect(system.map((account) => account.address)).toContain(recipient);
    const snapshot = await host.snapshot({
      programAccounts: [SYSTEM_PROGRAM_ID],
      signaturesFor: [{ address: recipient }],
    });
    expect(snapshot.transactionCount).toBe(count + 1);
    expect(snapshot.programAccounts[0]!.map((account) => account.address)).toContain(recipient);
    expect(snapshot.signatures[0]!.map((entry) => entry.signature)).toEqual([airdrop.result]);
  });
});

describe('lifecycle', () => {
  it('persists under a data directory across a restart of the worker', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'localnet-worker-'));
    try {
      const recipient = (await generateKeyPairSigner()).address;
      const first = await startClusterWorker({ cluster: { dataDir, slotClock: 'manual' } });
      const treasury = first.treasury.address;
      await first.handleJsonRpcText(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [recipient, 1e9] }),
      );
      await first.close();
      // A closed host refuses further calls instead of hanging
      await expect(first.getBalance(recipient)).rejects.toThrow(/exited|closed/);
      const second = await startClusterWorker({ cluster: { dataDir, slotClock: 'manual' } });
      try {
        expect(second.treasury.address).toBe(treasury);
        // The files kit's live getIdentity and getGenesisHash tests read, as `npm run localnet` leaves them.
        const identity = await second.handleJsonRpcText('{"jsonrpc":"2.0","id":1,"method":"getIdentity"}');
        const keypair = JSON.parse(
          await readFile(join(dataDir, 'validator-keypair.json'), 'utf8'),
        ) as number[];
        expect(getBase58Decoder().decode(Uint8Array.from(keypair).slice(32))).toBe(
          (JSON.parse(identity) as { result: { identity: string } }).result.identity,
        );
        const genesis = await second.handleJsonRpcText('{"jsonrpc":"2.0","id":1,"method":"getGenesisHash"}');
        expect(await readFile(join(dataDir, 'validator.log'), 'utf8')).toContain(
          `genesis hash: ${(JSON.parse(genesis) as { result: string }).result}`,
        );
        expect(await second.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reports a cluster that cannot start, and leaves no worker behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'localnet-worker-bad-'));
    try {
      const notADirectory = join(dir, 'file');
      await writeFile(notADirectory, 'x');
      await expect(startClusterWorker({ cluster: { dataDir: notADirectory } })).rejects.toThrow(
        /the cluster worker failed to start/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('answers as bytes', () => {
  it('hands over the same answer as UTF-8 bytes', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'getIdentity' });
    const bytes = await host.handleJsonRpcBytes(body, { kind: 'public', clientId: '192.0.2.2' });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(bytes)).toBe(await host.handleJsonRpcText(body));
  });
});

describe('requests of one turn', () => {
  it('answers each of many made together, in order, a failing one included', async () => {
    // One turn's requests travel as one message and their answers as another: each still gets its own.
    const recipient = (await generateKeyPairSigner()).address;
    const body = (id: number, method: string, params: unknown[] = []) =>
      JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const slot = await host.slot();
    const [airdrop, refused, bytes, advanced, slotAfter, rent] = await Promise.allSettled([
      host.handleJsonRpcText(body(1, 'requestAirdrop', [recipient, 1e9])),
      host.advanceSlots(-1),
      host.handleJsonRpcBytes(body(2, 'getIdentity')),
      host.advanceSlots(2),
      host.slot(),
      host.minimumBalanceForRentExemption(165),
    ]);
    expect(JSON.parse((airdrop as PromiseFulfilledResult<string>).value)).toMatchObject({ id: 1 });
    expect(refused).toMatchObject({
      status: 'rejected',
      reason: { message: 'count must be a non-negative integer' },
    });
    expect(new TextDecoder().decode((bytes as PromiseFulfilledResult<Uint8Array>).value)).toContain(
      host.treasury.address,
    );
    expect(advanced.status).toBe('fulfilled');
    // In order: the slot is read after the advance before it.
    expect(slotAfter).toEqual({ status: 'fulfilled', value: slot + 2 });
    expect(rent).toEqual({ status: 'fulfilled', value: 2_039_280n });
    expect(await host.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);
  });
});
