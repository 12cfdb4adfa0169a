import { AccountState, getMintEncoder, getTokenEncoder } from '@solana-program/token';
import { address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import {
  decodeMint,
  decodeTokenAccount,
  formatUiAmountString,
  isMintData,
  isTokenAccountData,
  TOKEN_PROGRAM_ID,
} from './token-layout';

const MINT = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
const OWNER = address('DG2sUPod1vSPZSGUYfreZ93zHVLZ3PEVmW1J3yLKp5oJ');

describe('token layouts', () => {
  it('decodes what @solana-program/token encodes', () => {
    const account = new Uint8Array(
      getTokenEncoder().encode({
        mint: MINT,
        owner: OWNER,
        amount: 18446744073709551615n,
        delegate: OWNER,
        state: AccountState.Frozen,
        isNative: 2039280n,
        delegatedAmount: 7n,
        closeAuthority: null,
      }),
    );
    expect(isTokenAccountData(TOKEN_PROGRAM_ID, account)).toBe(true);
    expect(decodeTokenAccount(account)).toEqual({
      mint: MINT,
      owner: OWNER,
      amount: 18446744073709551615n,
      delegate: OWNER,
      state: 'frozen',
      nativeReserve: 2039280n,
      delegatedAmount: 7n,
      closeAuthority: null,
    });
    const mint = new Uint8Array(
      getMintEncoder().encode({
        mintAuthority: OWNER,
        supply: 5n,
        decimals: 6,
        isInitialized: true,
        freezeAuthority: null,
      }),
    );
    expect(isMintData(TOKEN_PROGRAM_ID, mint)).toBe(true);
    expect(decodeMint(mint)).toEqual({
      mintAuthority: OWNER,
      supply: 5n,
      decimals: 6,
      isInitialized: true,
      freezeAuthority: null,
    });
  });

  it('formats ui amounts exactly', () => {
    expect(formatUiAmountString(1_500_000n, 6)).toBe('1.5');
    expect(formatUiAmountString(0n, 6)).toBe('0');
    expect(formatUiAmountString(1n, 9)).toBe('0.000000001');
    expect(formatUiAmountString(42n, 0)).toBe('42');
    expect(formatUiAmountString(18446744073709551615n, 9)).toBe('18446744073.709551615');
  });
});
