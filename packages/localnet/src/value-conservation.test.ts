/**
 * Property: across random sequences of SOL transfers between a few accounts (some unaffordable,
 * some leaving an account below rent exemption, some sent without preflight), lamports are
 * conserved — what the accounts lose is exactly what they gain plus the fees of committed
 * transactions — no balance ever goes negative, and the ledger rebuilds exactly the same accounts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createLocalCluster } from './local-cluster';
import { createJsonRpcHandler, type JsonRpcResponse } from './rpc/json-rpc-handler';
import { signTransfer } from './test-helpers';

const ACCOUNTS = 4;

const operation = fc.record({
  from: fc.nat({ max: ACCOUNTS - 1 }),
  to: fc.nat({ max: ACCOUNTS - 1 }),
  amount: fc.oneof(fc.bigInt({ min: 1n, max: 2_000_000n }), fc.bigInt({ min: 1n, max: 80_000_000n })),
  skipPreflight: fc.boolean(),
  slots: fc.nat({ max: 3 }),
});

function resultOf(response: JsonRpcResponse | JsonRpcResponse[]): unknown {
  if (Array.isArray(response) || !('result' in response)) return undefined;
  return response.result;
}

describe('value conservation', () => {
  it('conserves lamports minus fees over random transfer sequences and never goes negative', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.bigInt({ min: 1_000_000n, max: 50_000_000n }), {
          minLength: ACCOUNTS,
          maxLength: ACCOUNTS,
        }),
        fc.array(operation, { minLength: 1, maxLength: 20 }),
        async (initial, operations) => {
          const dataDir = await mkdtemp(join(tmpdir(), 'localnet-conservation-'));
          let cluster = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [], fsync: false });
          const rpc = createJsonRpcHandler(cluster);
          const call = async (method: string, params: unknown[]): Promise<JsonRpcResponse> =>
            (await rpc.handleJsonRpc({ jsonrpc: '2.0', id: 1, method, params })) as JsonRpcResponse;
          const balanceOf = async (signer: KeyPairSigner): Promise<bigint> =>
            BigInt(
              ((await call('getBalance', [signer.address])) as { result: { value: bigint } }).result.value,
            );
          try {
            // Given a few accounts funded from the faucet
            const signers = await Promise.all(initial.map(() => generateKeyPairSigner()));
            for (const [index, signer] of signers.entries())
              await cluster.requestAirdrop(signer.address, initial[index]!);
            const model = [...initial];
            const total = initial.reduce((sum, value) => sum + value, 0n);
            let fees = 0n;

            for (const op of operations) {
              // When a transfer is sent over JSON-RPC (with or without preflight)
              const lifetime = cluster.getLatestBlockhash();
              const transfer = await signTransfer(
                signers[op.from]!,
                signers[op.to]!.address,
                op.amount,
                lifetime,
              );
              await call('sendTransaction', [
                transfer.base64,
                { encoding: 'base64', skipPreflight: op.skipPreflight },
              ]);
              // `confirmed` means on disk: wait for the ledger's group commit.
              await cluster.flush();
              const landed = resultOf(
                await call('getTransaction', [
                  transfer.signature,
                  { commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
                ]),
              ) as { meta: { fee: bigint; err: unknown } } | null;
              if (landed !== null) {
                const fee = BigInt(landed.meta.fee);
                fees += fee;
                model[op.from]! -= fee;
                if (landed.meta.err === null) {
                  model[op.from]! -= op.amount;
                  model[op.to]! += op.amount;
                }
              }
              cluster.advanceSlots(op.slots);

              // Then every balance matches the model, none is negative, and the total is conserved
              const balances = await Promise.all(signers.map(balanceOf));
              expect(balances).toEqual(model);
              for (const balance of balances) expect(balance >= 0n).toBe(true);
              expect(balances.reduce((sum, value) => sum + value, 0n) + fees).toBe(total);
            }

            // And a cluster rebuilt from the ledger holds exactly the same accounts
            const live = signers.map((signer) => cluster.getAccount(signer.address));
            await cluster.close();
            cluster = await createLocalCluster({ dataDir, slotClock: 'manual', tokens: [], fsync: false });
            expect(signers.map((signer) => cluster.getAccount(signer.address))).toEqual(live);
          } finally {
            await cluster.close();
            await rm(dataDir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
