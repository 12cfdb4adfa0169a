/**
 * What kit's own live tests ask of a `solana-test-validator` started as its
 * `start-shared-test-validator.sh` starts it (`--ledger test-ledger --reset --account-dir fixtures`),
 * asked here with the stock kit client (issue 29): the ledger directory's identity keypair and log,
 * the stake config account genesis keeps over a fixture, base64+zstd frames byte for byte, and
 * slotsUpdatesNotifications.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  address,
  createSolanaRpc,
  createSolanaRpcSubscriptions_UNSTABLE,
  getBase58Decoder,
  getBase58Encoder,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { decompress } from 'fzstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAccountFixture } from '../account-fixtures';
import { startLocalnetServer, type LocalnetServer } from '../http-server';
import { createLocalCluster, type LocalCluster } from '../local-cluster';
import { CONFIG_PROGRAM_ID } from '../program-ids';
import { NATIVE_MINT, TOKEN_PROGRAM_ID } from '../token-layout';
import {
  VALIDATOR_KEYPAIR_FILE,
  VALIDATOR_LOG_FILE,
  writeValidatorLedgerFiles,
} from '../validator-ledger-files';
import { createJsonRpcHandler } from './json-rpc-handler';
import { createPubSub, type PubSub } from './pubsub';
import { zstdCompress } from './zstd';

/** kit's scripts/fixtures/config-stake-account.json: more lamports than genesis gives the account. */
const STAKE_CONFIG_FIXTURE = `{
  "pubkey": "StakeConfig11111111111111111111111111111111",
  "account": {
    "data": ["AAAAAAAAANA/DA==", "base64"],
    "executable": false,
    "lamports": 10290815,
    "owner": "Config1111111111111111111111111111111111111",
    "rentEpoch": 0
  }
}`;
/** kit's scripts/fixtures/GQE2yjns7SKKuMc89tveBDpzYHwXfeuB2PGAbGaPWc6G.json: 'test data'. */
const TEST_DATA_FIXTURE = `{
  "pubkey": "GQE2yjns7SKKuMc89tveBDpzYHwXfeuB2PGAbGaPWc6G",
  "account": {
    "data": ["dGVzdCBkYXRh", "base64"],
    "executable": false,
    "lamports": 1000000000,
    "owner": "11111111111111111111111111111111",
    "rentEpoch": 0
  }
}`;

/**
 * kit's scripts/fixtures/config-validator-account.json, rebuilt: two config keys (the validator-info
 * id, then the signing validator), a bincode string of JSON, zeros up to 643 bytes.
 */
function validatorInfoFixture(): string {
  const json = new TextEncoder().encode('{"name":"HoldTheNode","website":"https://holdthenode.com"}');
  const data = new Uint8Array(643);
  data[0] = 2;
  data.set(getBase58Encoder().encode('Va1idator1nfo111111111111111111111111111111'), 1);
  data.set(getBase58Encoder().encode(VALIDATOR_INFO_SIGNER), 34);
  data[66] = 1;
  new DataView(data.buffer).setBigUint64(67, BigInt(json.length), true);
  data.set(json, 75);
  const account = { data: [Buffer.from(data).toString('base64'), 'base64'], executable: false };
  return JSON.stringify({
    pubkey: VALIDATOR_INFO_ADDRESS,
    account: { ...account, lamports: 10290815, owner: CONFIG_PROGRAM_ID, rentEpoch: 0 },
  });
}
const VALIDATOR_INFO_ADDRESS = 'FtLZBmDW4Y6WNTYYZv9AcC2nQupDMDzX5Q5mp5MLpmdY';
const VALIDATOR_INFO_SIGNER = '5hvJ19nRgtzAkosb5bcx9bqeN2QA1Qwxq4M349Q2L6s2';

let ledgerDir: string;
let cluster: LocalCluster;
let pubsub: PubSub;
let server: LocalnetServer;
let rpc: Rpc<SolanaRpcApi>;

beforeAll(async () => {
  ledgerDir = await mkdtemp(join(tmpdir(), 'localnet-test-ledger-'));
  cluster = await createLocalCluster({
    dataDir: ledgerDir,
    slotDurationMs: 20,
    tokens: [],
    accounts: [STAKE_CONFIG_FIXTURE, TEST_DATA_FIXTURE, validatorInfoFixture()].map((text) =>
      parseAccountFixture(text, 'kit'),
    ),
  });
  await writeValidatorLedgerFiles(ledgerDir, cluster);
  pubsub = createPubSub(cluster);
  server = await startLocalnetServer({ handler: createJsonRpcHandler(cluster), port: 0, pubsub });
  rpc = createSolanaRpc(server.url);
});

afterAll(async () => {
  await server.close();
  pubsub.close();
  await cluster.close();
  await rm(ledgerDir, { recursive: true, force: true });
});

/** The first line of a ledger file matching `pattern`, read as kit's tests read it. */
async function firstMatch(file: string, pattern: RegExp): Promise<RegExpMatchArray | undefined> {
  const handle = await open(join(ledgerDir, file));
  try {
    for await (const line of handle.readLines({ encoding: 'utf-8' })) {
      const match = line.match(pattern);
      if (match) return match;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

describe('the ledger directory (kit’s getIdentity and getGenesisHash tests)', () => {
  it('validator-keypair.json is the identity getIdentity answers', async () => {
    const line = await firstMatch(VALIDATOR_KEYPAIR_FILE, /^\[/);
    const secretKey = new Uint8Array(JSON.parse(line!.input!) as number[]);
    const expected = getBase58Decoder().decode(secretKey.slice(32, 64));
    expect(await rpc.getIdentity().send()).toStrictEqual({ identity: expected });
  });

  it('validator.log names the genesis hash getGenesisHash answers, and the version in Agave 2.3’s format', async () => {
    const hash = await firstMatch(VALIDATOR_LOG_FILE, /genesis hash: ([\d\w]{32,})/);
    expect(await rpc.getGenesisHash().send()).toBe(hash![1]);
    const version = await firstMatch(VALIDATOR_LOG_FILE, /agave-validator ([\d.]+)/);
    expect((await rpc.getVersion().send())['solana-core']).toBe(version![1]);
    expect(version!.input).toMatch(/feat:\d+, client:Agave/);
  });
});

describe('genesis accounts win over fixtures, as on a validator', () => {
  it('the stake config account keeps its genesis lamports (kit’s jsonParsed fallback test)', async () => {
    const { value } = await rpc
      .getAccountInfo(address('StakeConfig11111111111111111111111111111111'), { encoding: 'jsonParsed' })
      .send();
    expect(value).toStrictEqual({
      data: ['AAAAAAAAANA/DA==', 'base64'],
      executable: false,
      lamports: 960480n,
      owner: 'Config1111111111111111111111111111111111111',
      rentEpoch: 0n,
      space: 10n,
    });
  });

  it('the native mint holds one SOL at rent epoch 1, as Agave’s genesis writes it (kit’s token scan)', async () => {
    const accounts = await rpc
      .getProgramAccounts(address(TOKEN_PROGRAM_ID), { encoding: 'jsonParsed' })
      .send();
    expect(accounts).toContainEqual({
      account: {
        data: {
          parsed: {
            info: {
              decimals: 9,
              freezeAuthority: null,
              isInitialized: true,
              mintAuthority: null,
              supply: '0',
            },
            type: 'mint',
          },
          program: 'spl-token',
          space: 82n,
        },
        executable: false,
        lamports: 1_000_000_000n,
        owner: TOKEN_PROGRAM_ID,
        rentEpoch: 1n,
        space: 82n,
      },
      pubkey: NATIVE_MINT,
    });
  });

  it('a validator-info config account reads as validatorInfo in jsonParsed (kit’s Config tests)', async () => {
    const parsed = {
      data: {
        parsed: {
          info: {
            configData: { name: 'HoldTheNode', website: 'https://holdthenode.com' },
            keys: [
              { pubkey: 'Va1idator1nfo111111111111111111111111111111', signer: false },
              { pubkey: VALIDATOR_INFO_SIGNER, signer: true },
            ],
          },
          type: 'validatorInfo',
        },
        program: 'config',
        space: 643n,
      },
      executable: false,
      lamports: 10290815n,
      owner: CONFIG_PROGRAM_ID,
      rentEpoch: 0n,
      space: 643n,
    };
    const key = address(VALIDATOR_INFO_ADDRESS);
    const { value } = await rpc.getAccountInfo(key, { encoding: 'jsonParsed' }).send();
    expect(value).toStrictEqual(parsed);
    const many = await rpc.getMultipleAccounts([key], { encoding: 'jsonParsed' }).send();
    expect(many.value).toStrictEqual([parsed]);
    const scan = await rpc.getProgramAccounts(address(CONFIG_PROGRAM_ID), { encoding: 'jsonParsed' }).send();
    expect(scan).toContainEqual({ account: parsed, pubkey: VALIDATOR_INFO_ADDRESS });
    expect(scan).toContainEqual({
      account: expect.objectContaining({ data: ['AAAAAAAAANA/DA==', 'base64'] }),
      pubkey: 'StakeConfig11111111111111111111111111111111',
    });
  });

  it('a fixture at an address genesis does not create is loaded as it is', async () => {
    const { value } = await rpc
      .getAccountInfo(address('GQE2yjns7SKKuMc89tveBDpzYHwXfeuB2PGAbGaPWc6G'), { encoding: 'base64' })
      .send();
    expect(value?.data).toStrictEqual(['dGVzdCBkYXRh', 'base64']);
    expect(value?.lamports).toBe(1_000_000_000n);
  });
});

describe('base64+zstd frames as a validator writes them (no content size, a 2 MiB window)', () => {
  it('getAccountInfo, getMultipleAccounts and getProgramAccounts answer kit’s expected frame', async () => {
    const expected = ['KLUv/QBYSQAAdGVzdCBkYXRh', 'base64+zstd'];
    const fixture = address('GQE2yjns7SKKuMc89tveBDpzYHwXfeuB2PGAbGaPWc6G');
    const single = await rpc.getAccountInfo(fixture, { encoding: 'base64+zstd' }).send();
    expect(single.value?.data).toStrictEqual(expected);
    const multiple = await rpc.getMultipleAccounts([fixture], { encoding: 'base64+zstd' }).send();
    expect(multiple.value[0]?.data).toStrictEqual(expected);
    const program = await rpc
      .getProgramAccounts(address('11111111111111111111111111111111'), {
        encoding: 'base64+zstd',
        filters: [{ dataSize: 9n }],
      })
      .send();
    expect(program.map((entry) => entry.account.data)).toStrictEqual([expected]);
  });

  it('compressed blocks too: kit’s token accounts (getTokenAccountsByOwner / ByDelegate) as Agave compresses them', () => {
    // Kit's expected answers for its 165-byte token-account fixtures, decompressed by an independent
    // decoder and compressed again here.
    for (const agave of [
      'KLUv/QBYbQIANAQabwjL/ggP9p8JIvjozrLTbn9yiLBEcl40PxbZc2kGxN++YxbNiIWM+zxxHYuV2FyrImZH2l93yTIUPo7gDw6JAAEAAgAEJwaY4Aw=',
      'KLUv/QBY5QMANAczNAkYBRovZ+6aKhcbDD09U5eAwRphJQ+v9fRxRl14BiwMvrPWGScC1sOOBlIjsgVf9PimkadS+JM3J8fn+ZRLABCl1OgAAAABAAAA375jFs2IhYz7PHEdi5XYXKsiZkfaX3fJMhQ+juAPDokBAOh2SBcAAgDBoy4Hzg==',
    ]) {
      const data = decompress(Buffer.from(agave, 'base64'));
      expect(data).toHaveLength(165);
      expect(Buffer.from(zstdCompress(data)).toString('base64')).toBe(agave);
    }
  });
});

describe('slotsUpdatesNotifications (kit’s unstable subscription API)', () => {
  it('tells each slot’s bank created, completed, frozen with its counts, confirmed, and the root', async () => {
    const subscriptions = createSolanaRpcSubscriptions_UNSTABLE(server.pubsubUrl!);
    const abort = new AbortController();
    const updates = await subscriptions.slotsUpdatesNotifications().subscribe({ abortSignal: abort.signal });
    const seen = new Set<string>();
    for await (const update of updates) {
      expect(update).toMatchObject({
        slot: expect.any(BigInt),
        timestamp: expect.any(BigInt),
        type: expect.any(String),
      });
      // (kit 8.4 types the iterated value as the base shape only.)
      const { type, slot, parent, stats } = update as typeof update & { parent?: bigint; stats?: object };
      if (type === ('createdBank' as string)) expect(parent).toBe(slot - 1n);
      if (type === ('frozen' as string)) {
        expect(stats).toStrictEqual({
          maxTransactionsPerEntry: expect.any(BigInt),
          numFailedTransactions: expect.any(BigInt),
          numSuccessfulTransactions: expect.any(BigInt),
          numTransactionEntries: expect.any(BigInt),
        });
      }
      seen.add(type);
      if (seen.size === 5) break;
    }
    abort.abort();
    expect([...seen].sort()).toEqual([
      'completed',
      'createdBank',
      'frozen',
      'optimisticConfirmation',
      'root',
    ]);
  });
});
