/**
 * Sysvar, nonce, lookup-table, upgradeable-loader and multisig parsing on the cluster's own
 * accounts, on kit's live-test fixtures and on hostile bytes.
 */
import { describe, expect, it } from 'vitest';
import { parseAccountFixture } from '../account-fixtures';
import { createLocalCluster } from '../local-cluster';
import { ADDRESS_LOOKUP_TABLE_PROGRAM_ID, SYSTEM_PROGRAM_ID } from '../program-ids';
import { parseNonTokenAccount } from './account-parsers';
import { createJsonRpcHandler } from './json-rpc-handler';

const SYSVAR_OWNER = 'Sysvar1111111111111111111111111111111111111';

describe('parseNonTokenAccount', () => {
  it('parses every sysvar the runtime keeps', async () => {
    const cluster = await createLocalCluster({ slotClock: 'manual', tokens: [] });
    try {
      cluster.advanceSlots(5);
      const parse = (address: string) => {
        const account = cluster.getAccount(address)!;
        return parseNonTokenAccount(address, account.owner, account.data);
      };
      expect(parse('SysvarEpochSchedu1e111111111111111111111111')?.parsed).toEqual({
        type: 'epochSchedule',
        info: {
          slotsPerEpoch: 432_000n,
          leaderScheduleSlotOffset: 432_000n,
          warmup: true,
          firstNormalEpoch: 14n,
          firstNormalSlot: 524_256n,
        },
      });
      expect(parse('SysvarStakeHistory1111111111111111111111111')?.parsed).toEqual({
        type: 'stakeHistory',
        info: [],
      });
      expect(parse('SysvarLastRestartS1ot1111111111111111111111')?.parsed).toEqual({
        type: 'lastRestartSlot',
        info: { lastRestartSlot: 0n },
      });
      expect(parse('SysvarEpochRewards1111111111111111111111111')?.parsed).toMatchObject({
        type: 'epochRewards',
        info: { totalRewards: '0', active: false },
      });
      const history = parse('SysvarS1otHistory11111111111111111111111111')?.parsed as {
        type: string;
        info: { bits: string; nextSlot: bigint };
      };
      expect(history.type).toBe('slotHistory');
      expect(history.info.bits).toHaveLength(1024 * 1024);
      expect(history.info.bits[0]).toBe('1');
      expect(parse('SysvarRecentB1ockHashes11111111111111111111')?.parsed.type).toBe('recentBlockhashes');
    } finally {
      await cluster.close();
    }
  });

  it('leaves what does not parse to base64: short data, bad vector lengths, uninitialised nonces, strangers', () => {
    expect(
      parseNonTokenAccount('SysvarC1ock11111111111111111111111111111111', SYSVAR_OWNER, new Uint8Array(12)),
    ).toBeUndefined();
    const hugeVector = new Uint8Array(16);
    new DataView(hugeVector.buffer).setBigUint64(0, 2n ** 60n, true);
    expect(
      parseNonTokenAccount('SysvarS1otHashes111111111111111111111111111', SYSVAR_OWNER, hugeVector),
    ).toBeUndefined();
    expect(parseNonTokenAccount(SYSTEM_PROGRAM_ID, SYSTEM_PROGRAM_ID, new Uint8Array(80))).toBeUndefined();
    expect(parseNonTokenAccount(SYSTEM_PROGRAM_ID, SYSTEM_PROGRAM_ID, new Uint8Array(0))).toBeUndefined();
    expect(
      parseNonTokenAccount(SYSTEM_PROGRAM_ID, ADDRESS_LOOKUP_TABLE_PROGRAM_ID, new Uint8Array(4))?.parsed,
    ).toEqual({ type: 'uninitialized' });
    expect(
      parseNonTokenAccount(SYSTEM_PROGRAM_ID, ADDRESS_LOOKUP_TABLE_PROGRAM_ID, new Uint8Array(57).fill(1)),
    ).toBeUndefined();
    // A sysvar address owned by someone else is not a sysvar.
    expect(
      parseNonTokenAccount(
        'SysvarC1ock11111111111111111111111111111111',
        SYSTEM_PROGRAM_ID,
        new Uint8Array(40),
      ),
    ).toBeUndefined();
  });

  it('parses an upgradeable program and a token multisig as kit’s live tests expect (their fixtures)', async () => {
    // scripts/fixtures/bpf-upgradeable-loader-program-account.json and spl-token-multisig-account.json of anza-xyz/kit.
    const program = JSON.stringify({
      pubkey: 'AfFRmCFz8yUWzug2jiRc13xEEzBwyxxYSRGVE5uQMpHk',
      account: {
        data: ['AgAAACt+ktmovAPSjvOk0jD6edVhyWXMcbWPzaLOt45/0mJA', 'base64'],
        executable: true,
        lamports: 10290815,
        owner: 'BPFLoaderUpgradeab1e11111111111111111111111',
        rentEpoch: 0,
      },
    });
    const multisigData = Buffer.alloc(355);
    multisigData.set([2, 2, 1]);
    multisigData.set(
      Buffer.from(
        '2y86zXzeWGYwGouJt6FEbb8nLg5UPMEz6t2CJWVD0PRIZd2RCPr4a64lOvhn/t943Vd4CBFnGfFwB41NC1idFw==',
        'base64',
      ),
      3,
    );
    const multisig = JSON.stringify({
      pubkey: '4Uh9vK5nnxfskc73asy7AeRYDfZocrv1th9DEjtdCn88',
      account: {
        data: [multisigData.toString('base64'), 'base64'],
        executable: false,
        lamports: 10290815,
        owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        rentEpoch: 0,
      },
    });
    const cluster = await createLocalCluster({
      slotClock: 'manual',
      tokens: [],
      accounts: [parseAccountFixture(program, 'program'), parseAccountFixture(multisig, 'multisig')],
    });
    try {
      const handler = createJsonRpcHandler(cluster);
      const parsedData = async (address: string) => {
        const text = await handler.handleJsonRpcText(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'getAccountInfo',
            params: [address, { encoding: 'jsonParsed' }],
          }),
        );
        return (JSON.parse(text) as { result: { value: { data: unknown } } }).result.value.data;
      };
      expect(await parsedData('AfFRmCFz8yUWzug2jiRc13xEEzBwyxxYSRGVE5uQMpHk')).toEqual({
        parsed: { info: { programData: '3vnUTQbDuCgfVn7yQcigUwMQNGkLBZ7GfKWb3gYbAY23' }, type: 'program' },
        program: 'bpf-upgradeable-loader',
        space: 36,
      });
      expect(await parsedData('4Uh9vK5nnxfskc73asy7AeRYDfZocrv1th9DEjtdCn88')).toEqual({
        parsed: {
          info: {
            isInitialized: true,
            numRequiredSigners: 2,
            numValidSigners: 2,
            signers: [
              'Fkc4FN7PPhyGsAcHPW3dBBJ4BvtYkDr2rBFBgFpvy3nB',
              '5scSndUhfZJ8j8wZz5UNHhvuPBhvN1RboTdkKSvFHLtW',
            ],
          },
          type: 'multisig',
        },
        program: 'spl-token',
        space: 355,
      });
    } finally {
      await cluster.close();
    }
  });

  it('parses program data and buffers with their bytes after the metadata, and null authorities', () => {
    const loader = 'BPFLoaderUpgradeab1e11111111111111111111111';
    const programData = new Uint8Array(45 + 3);
    programData.set([3, 0, 0, 0, 7]); // ProgramData, slot 7, no authority
    programData.set([1, 2, 3], 45);
    expect(parseNonTokenAccount(SYSTEM_PROGRAM_ID, loader, programData)?.parsed).toEqual({
      type: 'programData',
      info: { slot: 7n, authority: null, data: ['AQID', 'base64'] },
    });
    const buffer = new Uint8Array(37 + 1);
    buffer.set([1, 0, 0, 0, 1]); // Buffer with an authority
    buffer.fill(9, 5, 37);
    buffer[37] = 255;
    expect(parseNonTokenAccount(SYSTEM_PROGRAM_ID, loader, buffer)?.parsed).toMatchObject({
      type: 'buffer',
      info: { data: ['/w==', 'base64'] },
    });
    expect(parseNonTokenAccount(SYSTEM_PROGRAM_ID, loader, new Uint8Array(4))?.parsed).toEqual({
      type: 'uninitialized',
    });
    // An uninitialised multisig is not parsed (base64, as a validator falls back).
    expect(
      parseNonTokenAccount(
        SYSTEM_PROGRAM_ID,
        'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        new Uint8Array(355),
      ),
    ).toBeUndefined();
  });
});
