/**
 * `--account-dir`: fixtures in `solana account --output json` form are placed at genesis with
 * their rent epoch, and the flags parse as solana-test-validator's do.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAccountDir } from './account-fixtures';
import { readLocalnetFlags } from './config';
import { startLocalnetServer, type LocalnetServer } from './http-server';
import { createLocalCluster, type LocalCluster } from './local-cluster';
import { createJsonRpcHandler } from './rpc/json-rpc-handler';

const address = Keypair.generate().publicKey.toBase58();
const owner = Keypair.generate().publicKey.toBase58();
let dir: string;
let cluster: LocalCluster;
let server: LocalnetServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'localnet-fixtures-'));
  // As `solana account --output json` writes it: rentEpoch u64::MAX as a bare integer literal.
  await writeFile(
    join(dir, 'fixture.json'),
    `{"pubkey":"${address}","account":{"lamports":1461600,"data":["AQIDBA==","base64"],"owner":"${owner}","executable":false,"rentEpoch":18446744073709551615,"space":4}}`,
  );
  await writeFile(join(dir, 'notes.txt'), 'not a fixture');
  cluster = await createLocalCluster({
    slotClock: 'manual',
    tokens: [],
    accounts: await loadAccountDir(dir),
  });
  server = await startLocalnetServer({ handler: createJsonRpcHandler(cluster), port: 0 });
});

afterAll(async () => {
  await server.close();
  await cluster.close();
  await rm(dir, { recursive: true, force: true });
});

describe('--account-dir', () => {
  it('places each fixture with its lamports, owner, data and rent epoch', async () => {
    const info = await new Connection(server.url).getAccountInfo(new PublicKey(address));
    expect(info?.lamports).toBe(1_461_600);
    expect(info?.owner.toBase58()).toBe(owner);
    expect(Array.from(info!.data)).toEqual([1, 2, 3, 4]);
    const text = await (
      await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'getAccountInfo',
          params: [address, { encoding: 'base64' }],
        }),
      })
    ).text();
    expect(text).toContain('"rentEpoch":18446744073709551615');
  });

  it('parses the validator-style flags and refuses unknown ones', () => {
    expect(readLocalnetFlags(['--account-dir', 'a', '--account-dir', 'b', '--reset', '--bare'])).toEqual({
      accountDirs: ['a', 'b'],
      reset: true,
      bare: true,
    });
    expect(readLocalnetFlags([])).toEqual({ accountDirs: [], reset: false, bare: false });
    // web3.js's and kit's start-shared-test-validator.sh pass these too.
    expect(readLocalnetFlags(['--ledger', 'x', '--quiet', '--rpc-port', '9899', '--reset'])).toEqual({
      accountDirs: [],
      reset: true,
      bare: false,
      ledger: 'x',
      rpcPort: 9899,
    });
    expect(() => readLocalnetFlags(['--rpc-port', '65535'])).toThrow(/--rpc-port/);
    expect(() => readLocalnetFlags(['--limit-ledger-size', 'x'])).toThrow(/Unknown option/);
  });
});
