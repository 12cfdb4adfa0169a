import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Ledger,
  LEDGER_FILE,
  serializeTransactionLine,
  type AccountStateTuple,
  type TransactionRecord,
} from './ledger';

const RECORD: TransactionRecord = {
  signature: '5zSVrJBvg3gHdBYMqK3B332CsnvtecjokkYbJCjYa1vRT2aHULwJhfxqH1TzHCxxJYiAZLCqdjMf3xnUkJdocRmQ',
  slot: 12,
  blockTime: 1_700_000_000,
  err: { InstructionError: [1, { Custom: 6001 }] },
  fee: '15000',
  logs: ['Program log: "quoted" \\ back\\slash', 'Program log: ünïcödé \u2028 and \n newline'],
  transaction: 'AfmaCzI6oJ2zm/J//TnEJPvQ1wqI1xm4OKt+zj+X37Fu==',
  loadedAddresses: { writable: ['DG2sUPod1vSPZSGUYfreZ93zHVLZ3PEVmW1J3yLKp5oJ'], readonly: [] },
  preBalances: ['18446744073709551615', '0'],
  postBalances: ['18446744073709536615', '0'],
  preTokenBalances: [{ accountIndex: 1, mint: 'm', owner: 'o', programId: 'p', amount: '5', decimals: 6 }],
  postTokenBalances: [],
  computeUnitsConsumed: 1234,
  innerInstructions: [
    { index: 0, instructions: [{ programIdIndex: 2, accounts: [0, 1], data: '3Bxs', stackHeight: 2 }] },
  ],
  returnData: { programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', data: 'pQAAAAAAAAA=' },
};
const ACCOUNTS: AccountStateTuple[] = [
  [
    'DG2sUPod1vSPZSGUYfreZ93zHVLZ3PEVmW1J3yLKp5oJ',
    '42',
    '11111111111111111111111111111111',
    0,
    '',
    '18446744073709551615',
  ],
  ['So11111111111111111111111111111111111111112', '0', '11111111111111111111111111111111', 1, 'AQID', '0'],
];

describe('ledger', () => {
  it('writes a transaction line that parses back to exactly what JSON.stringify would give', () => {
    const line = serializeTransactionLine(RECORD, ACCOUNTS);
    expect(JSON.parse(line)).toEqual({ t: 'tx', r: RECORD, a: ACCOUNTS });
  });

  it('group-commits appends and replays them in order', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ledger-test-'));
    try {
      const { ledger, replay } = await Ledger.open(directory);
      expect(replay.transactions).toEqual([]);
      expect(replay.lastSlot).toBe(-1);
      ledger.appendSlot(3);
      const seq = ledger.appendTransaction(RECORD, ACCOUNTS);
      ledger.appendAccounts([[ACCOUNTS[0]![0], '7', ACCOUNTS[0]![2], 0, '', '0']]);
      expect(ledger.durableSeq).toBeLessThan(seq);
      await ledger.flush();
      expect(ledger.durableSeq).toBeGreaterThanOrEqual(seq);
      await ledger.close();
      expect((await readFile(join(directory, LEDGER_FILE), 'utf8')).split('\n')).toHaveLength(4);

      const reopened = await Ledger.open(directory);
      expect(reopened.replay.transactions).toEqual([RECORD]);
      expect(reopened.replay.lastSlot).toBe(12);
      expect(reopened.replay.lastMarkerSlot).toBe(3);
      expect(reopened.replay.accounts.get(ACCOUNTS[0]![0])?.[1]).toBe('7');
      expect([...reopened.replay.accounts.keys()]).toEqual([ACCOUNTS[1]![0], ACCOUNTS[0]![0]]);
      await reopened.ledger.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
