/**
 * The `base64+zstd` account encoding. Answers are decompressed with fzstd, an independent pure-JS
 * zstd decoder, so a frame the WebAssembly compressor got wrong cannot round-trip through its own
 * decoder unnoticed.
 */
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { USDC_MINT } from '@solterm/contracts';
import { decompress } from 'fzstd';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findAssociatedTokenAddress } from '../genesis';
import { createLocalCluster, type AccountView, type LocalCluster } from '../local-cluster';
import { signTransfer } from '../test-helpers';
import { encodeAccount, readAccountEncoding, type DataSlice } from './account-encoding';
import { createJsonRpcHandler, type JsonRpcHandler, type JsonRpcResponse } from './json-rpc-handler';
import { JSON_RPC_INVALID_PARAMS, RpcError } from './rpc-error';
import type * as Zstd from './zstd';

/** Lets a test make the compressor fail, to see the validator's fallback to plain base64. */
const compressor = vi.hoisted(() => ({ fail: false }));
vi.mock('./zstd', async (importOriginal) => {
  const actual = await importOriginal<typeof Zstd>();
  return {
    zstdCompress: (data: Uint8Array): Uint8Array => {
      if (compressor.fail) throw new Error('compression failed');
      return actual.zstdCompress(data);
    },
  };
});

type EncodedData = [string, string];
type Encoded = { data: EncodedData } & Record<string, unknown>;

let cluster: LocalCluster;
let handler: JsonRpcHandler;
let mint: AccountView;
let tokenAccount: AccountView;

beforeAll(async () => {
  cluster = await createLocalCluster({ slotClock: 'manual' });
  handler = createJsonRpcHandler(cluster);
  mint = requireAccount(USDC_MINT);
  tokenAccount = requireAccount(await findAssociatedTokenAddress(cluster.marketMaker.address, USDC_MINT));
});

afterAll(async () => {
  await cluster.close();
});

function requireAccount(address: string): AccountView {
  const account = cluster.getAccount(address);
  if (account === null) throw new Error(`no account ${address}`);
  return account;
}

function encode(account: AccountView, encoding: 'base64' | 'base64+zstd', slice?: DataSlice): Encoded {
  return encodeAccount(account, encoding, slice, cluster) as Encoded;
}

/** The bytes of a `[data, encoding]` answer, decompressing base64+zstd with fzstd. */
function bytesOf([text, encoding]: EncodedData): Buffer {
  const raw = Buffer.from(text, 'base64');
  if (encoding === 'base64') return raw;
  expect(encoding).toBe('base64+zstd');
  return Buffer.from(decompress(raw));
}

async function call(method: string, params: unknown[]): Promise<unknown> {
  const response = (await handler.handleJsonRpc({
    jsonrpc: '2.0',
    id: 1,
    method,
    params,
  })) as JsonRpcResponse;
  if ('error' in response) throw new Error(`${method}: ${response.error.message}`);
  return response.result;
}

describe('base64+zstd', () => {
  it.each([
    ['a mint', () => mint],
    ['a token account', () => tokenAccount],
  ])('%s decompresses to the bytes of its base64 encoding', (_name, account) => {
    const plain = encode(account(), 'base64');
    const zstd = encode(account(), 'base64+zstd');
    expect(zstd.data[1]).toBe('base64+zstd');
    // A zstd frame starts with the magic number 0xFD2FB528 (little-endian).
    expect(Buffer.from(zstd.data[0], 'base64').subarray(0, 4).toString('hex')).toBe('28b52ffd');
    expect(bytesOf(zstd.data)).toEqual(bytesOf(plain.data));
    expect(bytesOf(zstd.data)).toEqual(Buffer.from(account().data));
    const { data: _zstdData, ...zstdFields } = zstd;
    const { data: _plainData, ...plainFields } = plain;
    expect(zstdFields).toEqual(plainFields);
  });

  it.each([
    { offset: 0, length: 32 },
    { offset: 32, length: 32 },
    { offset: 64, length: 8 },
    { offset: 100, length: 1000 },
    { offset: 165, length: 10 },
    { offset: 1000, length: 10 },
    { offset: 10, length: 0 },
  ])('slices before compressing: %o', (slice) => {
    const plain = encode(tokenAccount, 'base64', slice);
    const zstd = encode(tokenAccount, 'base64+zstd', slice);
    expect(zstd.data[1]).toBe('base64+zstd');
    expect(bytesOf(zstd.data)).toEqual(bytesOf(plain.data));
    expect(bytesOf(zstd.data)).toEqual(
      Buffer.from(tokenAccount.data.subarray(slice.offset, slice.offset + slice.length)),
    );
    expect(zstd.space).toBe(BigInt(tokenAccount.data.length));
  });

  it('falls back to plain base64 when compression fails, as validators do', () => {
    compressor.fail = true;
    try {
      const answer = encode(mint, 'base64+zstd', { offset: 4, length: 20 });
      expect(answer.data).toEqual([Buffer.from(mint.data.subarray(4, 24)).toString('base64'), 'base64']);
    } finally {
      compressor.fail = false;
    }
  });

  it('is a known encoding; an unknown one is still refused with the serde message', () => {
    expect(readAccountEncoding({ encoding: 'base64+zstd' })).toBe('base64+zstd');
    let error: unknown;
    try {
      readAccountEncoding({ encoding: 'base64+lz4' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(JSON_RPC_INVALID_PARAMS);
    expect((error as RpcError).message).toBe(
      'Invalid params: unknown variant `base64+lz4`, expected one of `binary`, `base58`, `base64`, ' +
        '`jsonParsed`, `base64+zstd`',
    );
  });
});

describe('base64+zstd through the JSON-RPC handler', () => {
  it('getAccountInfo answers the compressed mint', async () => {
    const result = (await call('getAccountInfo', [USDC_MINT, { encoding: 'base64+zstd' }])) as {
      context: { slot: bigint };
      value: Encoded;
    };
    expect(result.value.data[1]).toBe('base64+zstd');
    expect(bytesOf(result.value.data)).toEqual(Buffer.from(mint.data));
    expect(result.value.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    const sliced = (await call('getAccountInfo', [
      USDC_MINT,
      { encoding: 'base64+zstd', dataSlice: { offset: 36, length: 8 } },
    ])) as { value: Encoded };
    expect(bytesOf(sliced.value.data)).toEqual(Buffer.from(mint.data.subarray(36, 44)));
  });

  it('getMultipleAccounts, getProgramAccounts and getTokenAccountsByOwner answer it too', async () => {
    const multiple = (await call('getMultipleAccounts', [
      [USDC_MINT, tokenAccount.address],
      { encoding: 'base64+zstd' },
    ])) as { value: Encoded[] };
    expect(multiple.value.map((account) => bytesOf(account.data))).toEqual([
      Buffer.from(mint.data),
      Buffer.from(tokenAccount.data),
    ]);
    const program = (await call('getProgramAccounts', [
      TOKEN_PROGRAM_ADDRESS,
      { encoding: 'base64+zstd', dataSlice: { offset: 0, length: 32 } },
    ])) as { pubkey: string; account: Encoded }[];
    expect(program.length).toBeGreaterThan(1);
    for (const { pubkey, account } of program) {
      expect(account.data[1]).toBe('base64+zstd');
      expect(bytesOf(account.data)).toEqual(Buffer.from(requireAccount(pubkey).data.subarray(0, 32)));
    }
    const byOwner = (await call('getTokenAccountsByOwner', [
      cluster.marketMaker.address,
      { mint: USDC_MINT },
      { encoding: 'base64+zstd' },
    ])) as { value: { pubkey: string; account: Encoded }[] };
    expect(byOwner.value.map(({ pubkey }) => pubkey)).toEqual([tokenAccount.address]);
    expect(bytesOf(byOwner.value[0]!.account.data)).toEqual(Buffer.from(tokenAccount.data));
  });

  it('simulateTransaction answers post-state accounts in it', async () => {
    const recipient = await generateKeyPairSigner();
    const transfer = await signTransfer(
      cluster.treasury,
      recipient.address as Address,
      1_000_000n,
      cluster.getLatestBlockhash(),
    );
    const result = (await call('simulateTransaction', [
      transfer.base64,
      {
        encoding: 'base64',
        accounts: { addresses: [recipient.address], encoding: 'base64+zstd' },
      },
    ])) as { value: { err: unknown; accounts: Encoded[] } };
    expect(result.value.err).toBeNull();
    expect(result.value.accounts[0]?.lamports).toBe(1_000_000n);
    expect(result.value.accounts[0]?.data[1]).toBe('base64+zstd');
    expect(bytesOf(result.value.accounts[0]!.data)).toEqual(Buffer.alloc(0));
  });
});
