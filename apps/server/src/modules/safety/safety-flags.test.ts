import { describe, expect, it } from 'vitest';
import type { ParsedMint } from '../chain/chain.service';
import { assessTokenSafety } from './safety-flags';

const MAKER = 'Maker11111111111111111111111111111111111111';
const plainMint: ParsedMint = {
  program: 'spl-token-2022',
  decimals: 6,
  supply: 1_000_000n,
  mintAuthority: null,
  freezeAuthority: null,
  extensions: [],
};
const noHolders = { largest: [], knownAccounts: new Map<string, string>() };

const codesOf = (mint: ParsedMint) =>
  assessTokenSafety({ mint, ...noHolders }).flags.map(({ code, severity }) => ({ code, severity }));

describe('assessTokenSafety (Token-2022 extensions without a seeded token)', () => {
  it('flags a transfer hook, a non-transferable mint and frozen default accounts as danger', () => {
    expect(
      codesOf({
        ...plainMint,
        extensions: [
          {
            extension: 'transferHook',
            state: { authority: null, programId: 'Hook1111111111111111111111111111111111111' },
          },
          { extension: 'nonTransferable' },
          { extension: 'defaultAccountState', state: { accountState: 'frozen' } },
        ],
      }),
    ).toEqual([
      { code: 'transfer_hook', severity: 'danger' },
      { code: 'non_transferable', severity: 'danger' },
      { code: 'default_account_frozen', severity: 'danger' },
    ]);
  });

  it('ignores a hook without a program, initialised default accounts and a zero transfer fee', () => {
    const fee = { epoch: 0, maximumFee: 0, transferFeeBasisPoints: 0 };
    const assessed = assessTokenSafety({
      mint: {
        ...plainMint,
        extensions: [
          { extension: 'transferHook', state: { authority: null, programId: null } },
          { extension: 'defaultAccountState', state: { accountState: 'initialized' } },
          { extension: 'transferFeeConfig', state: { olderTransferFee: fee, newerTransferFee: fee } },
        ],
      },
      ...noHolders,
    });
    expect(assessed.flags).toEqual([]);
    expect(assessed.level).toBe('ok');
  });

  it('shows the higher of the older and newer transfer fee, with its cap in whole tokens', () => {
    const assessed = assessTokenSafety({
      mint: {
        ...plainMint,
        extensions: [
          {
            extension: 'transferFeeConfig',
            state: {
              olderTransferFee: { epoch: 0, maximumFee: 5_000_000, transferFeeBasisPoints: 25 },
              newerTransferFee: { epoch: 9, maximumFee: 2_500_000, transferFeeBasisPoints: 150 },
            },
          },
        ],
      },
      ...noHolders,
    });
    expect(assessed.flags[0]?.message).toMatch(/^Transfer fee of 1\.5% \(at most 2\.5 tokens\)/);
    expect(assessed.level).toBe('caution');
  });

  it('counts concentration without known accounts, in exact decimals, and handles a zero supply', () => {
    const holder = (owner: string, amount: bigint) => ({ tokenAccount: `${owner}-ata`, owner, amount });
    const assessed = assessTokenSafety({
      mint: { ...plainMint, program: 'spl-token', supply: 3_000_000n },
      largest: [holder(MAKER, 2_000_000n), holder('Whale', 700_001n), holder('Small', 1n)],
      knownAccounts: new Map([[MAKER, 'Venue market maker']]),
    });
    expect(assessed.topHolders.map((entry) => [entry.share, entry.label])).toEqual([
      [66.67, 'Venue market maker'],
      [23.33, null],
      [0, null],
    ]);
    expect(assessed.top10Share).toBe(23.33);
    expect(assessed.flags.map((flag) => [flag.code, flag.severity])).toEqual([
      ['single_holder_concentration', 'warning'],
    ]);
    const empty = assessTokenSafety({
      mint: { ...plainMint, supply: 0n },
      largest: [holder('Someone', 5n)],
      knownAccounts: new Map(),
    });
    expect(empty.top10Share).toBe(0);
    expect(empty.level).toBe('ok');
  });
});
