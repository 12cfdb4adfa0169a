/**
 * Sysvar, nonce, lookup-table, upgradeable-loader and multisig parsing on the cluster's own
 * accounts, on kit's live-test fixtures and on hostile bytes.
 */
import { describe, expect, it } from 'vitest';
import { parseAccountFixture } from '../account-fixtures';
import { encodeBase58 } from '../base58';
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

  it('parses vote and stake accounts in Agave 2.3’s shapes (kit’s simulateTransaction test reads a vote fixture)', async () => {
    const key = (fill: number) => Buffer.alloc(32, fill);
    const u64 = (value: bigint) => {
      const bytes = Buffer.alloc(8);
      bytes.writeBigUInt64LE(value);
      return bytes;
    };
    const u32 = (value: number) => {
      const bytes = Buffer.alloc(4);
      bytes.writeUInt32LE(value);
      return bytes;
    };
    const f64 = (value: number) => {
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleLE(value);
      return bytes;
    };
    const priorVoters = [Buffer.concat([key(7), u64(3n), u64(4n)]), Buffer.alloc(48 * 31)];
    const vote = Buffer.alloc(3762);
    Buffer.concat([
      u32(2), // VoteStateVersions::Current
      key(1),
      key(2),
      Buffer.from([50]),
      u64(2n),
      Buffer.from([1]),
      u64(100n),
      u32(31),
      Buffer.from([0]),
      u64(101n),
      u32(30),
      Buffer.from([1]),
      u64(68n),
      u64(1n),
      u64(656n),
      key(3),
      ...priorVoters,
      u64(0n),
      Buffer.from([0]),
      u64(1n),
      u64(593n),
      u64(117_764_802n),
      u64(117_762_806n),
      u64(101n),
      u64(1_700_000_000n),
    ]).copy(vote);
    const stake = Buffer.alloc(200);
    Buffer.concat([
      u32(2), // StakeStateV2::Stake
      u64(2_282_880n),
      key(4),
      key(4),
      u64(0n),
      u64(0n),
      key(0),
      key(5),
      u64(8_007_935n),
      u64(386n),
      u64(471n),
      f64(0.25),
      u64(169_965_713n),
    ]).copy(stake);
    const fixture = (pubkey: string, owner: string, data: Buffer) =>
      parseAccountFixture(
        JSON.stringify({
          pubkey,
          account: {
            data: [data.toString('base64'), 'base64'],
            executable: false,
            lamports: 10290815,
            owner,
            rentEpoch: 0,
          },
        }),
        pubkey,
      );
    const voteAddress = encodeBase58(key(8));
    const stakeAddress = encodeBase58(key(9));
    const cluster = await createLocalCluster({
      slotClock: 'manual',
      tokens: [],
      accounts: [
        fixture(voteAddress, 'Vote111111111111111111111111111111111111111', vote),
        fixture(stakeAddress, 'Stake11111111111111111111111111111111111111', stake),
      ],
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
      expect(await parsedData(voteAddress)).toEqual({
        parsed: {
          type: 'vote',
          info: {
            nodePubkey: encodeBase58(key(1)),
            authorizedWithdrawer: encodeBase58(key(2)),
            commission: 50,
            votes: [
              { slot: 100, confirmationCount: 31 },
              { slot: 101, confirmationCount: 30 },
            ],
            rootSlot: 68,
            authorizedVoters: [{ epoch: 656, authorizedVoter: encodeBase58(key(3)) }],
            priorVoters: [
              { authorizedPubkey: encodeBase58(key(7)), epochOfLastAuthorizedSwitch: 3, targetEpoch: 4 },
            ],
            epochCredits: [{ epoch: 593, credits: '117764802', previousCredits: '117762806' }],
            lastTimestamp: { slot: 101, timestamp: 1_700_000_000 },
          },
        },
        program: 'vote',
        space: 3762,
      });
      expect(await parsedData(stakeAddress)).toEqual({
        parsed: {
          type: 'delegated',
          info: {
            meta: {
              rentExemptReserve: '2282880',
              authorized: { staker: encodeBase58(key(4)), withdrawer: encodeBase58(key(4)) },
              lockup: { unixTimestamp: 0, epoch: 0, custodian: '11111111111111111111111111111111' },
            },
            stake: {
              delegation: {
                voter: encodeBase58(key(5)),
                stake: '8007935',
                activationEpoch: '386',
                deactivationEpoch: '471',
                warmupCooldownRate: 0.25,
              },
              creditsObserved: 169965713,
            },
          },
        },
        program: 'stake',
        space: 200,
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
