import { describe, expect, it } from 'vitest';
import type { TBot } from '@solterm/contracts';
import {
  botWithdrawFailureText,
  delegationAmountError,
  pushMovesFunds,
  tokenWithdrawError,
  withdrawError,
} from './bot-funds-model';

describe('delegationAmountError', () => {
  it('accepts 0.1 to 100 SOL and refuses the rest', () => {
    expect(delegationAmountError('1')).toBeNull();
    expect(delegationAmountError('0.1')).toBeNull();
    expect(delegationAmountError('100')).toBeNull();
    expect(delegationAmountError('0')).toBe('Enter an amount of SOL');
    expect(delegationAmountError('abc')).toBe('Enter an amount of SOL');
    expect(delegationAmountError('0.09')).toBe('Delegation amount must be between 0.1 and 100 SOL');
    expect(delegationAmountError('100.1')).toBe('Delegation amount must be between 0.1 and 100 SOL');
  });

  it('takes amounts in steps of 0.1 SOL only (decimal arithmetic)', () => {
    expect(delegationAmountError('0.15')).toBe('Delegation amount must be a multiple of 0.1 SOL');
    expect(delegationAmountError('1.01')).toBe('Delegation amount must be a multiple of 0.1 SOL');
    expect(delegationAmountError('0.3')).toBeNull();
    expect(delegationAmountError('99.9')).toBeNull();
  });
});

describe('pushMovesFunds', () => {
  const bot = (id: string, mode: string) => ({ bot_id: id, network_mode: mode }) as TBot;
  it('refreshes the funds for an on-chain bot’s push or an unknown bot’s, not a paper bot’s', () => {
    const bots = [bot('a', 'mainnet'), bot('b', 'test')];
    expect(pushMovesFunds(bots, 'a')).toBe(true);
    expect(pushMovesFunds(bots, 'b')).toBe(false);
    expect(pushMovesFunds(bots, 'c')).toBe(true);
    expect(pushMovesFunds(undefined, 'a')).toBe(true);
  });
});

describe('withdrawError', () => {
  it('answers the spec’s messages in order', () => {
    expect(withdrawError('', 1)).toBe('Please enter a valid withdrawal amount');
    expect(withdrawError('-1', 1)).toBe('Please enter a valid withdrawal amount');
    expect(withdrawError('2', 0.5)).toBe('Insufficient bot balance. Available: 0.5 SOL, Requested: 2 SOL');
    expect(withdrawError('0.00005', 1)).toBe(
      'Minimum withdrawal amount is 0.0001 SOL to cover transaction fees',
    );
    expect(withdrawError('0.4995', 0.5)).toBe(
      'The bot must keep at least 0.00089 SOL (rent-exempt reserve); withdraw less',
    );
    expect(withdrawError('0.4991', 0.5)).toBeNull();
    expect(withdrawError('0.1', 0.5)).toBeNull();
  });
});

describe('tokenWithdrawError', () => {
  it('refuses nothing, a negative amount and more than the bot holds', () => {
    expect(tokenWithdrawError('', 10, 'USDC')).toBe('Please enter a valid withdrawal amount');
    expect(tokenWithdrawError('11', 10, 'USDC')).toBe(
      'Insufficient bot balance. Available: 10 USDC, Requested: 11 USDC',
    );
    expect(tokenWithdrawError('10', 10, 'USDC')).toBeNull();
  });
});

describe('botWithdrawFailureText', () => {
  it('shows the server’s refusals as written and maps chain failures', () => {
    const locked =
      'This wallet was linked to your account recently: withdrawals to it unlock at 2026-01-16 12:00:30 UTC. Until then they can go only to a wallet you linked earlier.';
    expect(botWithdrawFailureText('WALLET__CHANGE_LOCKED', locked)).toBe(locked);
    expect(botWithdrawFailureText('WALLET__WATCH_ONLY', 'This is a watch-only wallet.')).toBe(
      'This is a watch-only wallet.',
    );
    expect(botWithdrawFailureText('BOT__INSUFFICIENT', 'Insufficient bot balance')).toBe(
      'Insufficient bot balance',
    );
    expect(botWithdrawFailureText('CHAIN__TRANSACTION_FAILED', 'custom program error: 0x1')).toBe(
      'Insufficient funds for transaction fees. Try a smaller amount.',
    );
    expect(botWithdrawFailureText(undefined, 'something odd')).toBe('Failed to withdraw from bot');
  });
});
