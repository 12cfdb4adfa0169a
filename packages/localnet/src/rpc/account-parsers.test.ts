/**
 * Sysvar, nonce and lookup-table parsing on the cluster's own accounts and on hostile bytes.
 */
import { describe, expect, it } from 'vitest';
import { createLocalCluster } from '../local-cluster';
import { ADDRESS_LOOKUP_TABLE_PROGRAM_ID, SYSTEM_PROGRAM_ID } from '../program-ids';
import { parseNonTokenAccount } from './account-parsers';

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
});
