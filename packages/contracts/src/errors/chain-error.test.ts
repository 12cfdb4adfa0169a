import { describe, it, expect } from 'vitest';
import { isDelegationApprovalError, mapBotWithdrawError, mapChainError } from './chain-error';

const DETAILED =
  'Insufficient balance: Your wallet does not have enough funds for this transaction. Please check your wallet balance and try again.';
const SIMULATION =
  'Transaction failed: Your wallet may not have sufficient balance or the transaction is invalid. Please check your wallet balance.';
const SHORT = 'Insufficient balance: Please check your wallet balance.';
const EXPIRED = 'Transaction expired: Please try the trade again.';

describe('mapChainError', () => {
  it.each([
    ['Blockhash not found', 'transaction_expired', EXPIRED, true],
    ['Transaction simulation failed: Blockhash not found', 'transaction_expired', EXPIRED, true],
    ['Transaction expired', 'transaction_expired', EXPIRED, true],
    ['transaction expired: block height exceeded', 'transaction_expired', EXPIRED, true],
    [
      'Attempt to debit an account but found no record of a prior credit.',
      'insufficient_balance',
      DETAILED,
      false,
    ],
    [
      'Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.',
      'insufficient_balance',
      DETAILED,
      false,
    ],
    [
      'Transaction simulation failed: Error processing Instruction 2: custom program error: 0x1',
      'insufficient_balance',
      SIMULATION,
      false,
    ],
    ['failed to send transaction: RPC error -32002', 'insufficient_balance', SIMULATION, false],
    ['{"code":-32002,"message":"x"}', 'insufficient_balance', SIMULATION, false],
    ['Insufficient lamports', 'insufficient_balance', SHORT, false],
    ['insufficient funds', 'insufficient_balance', SHORT, false],
  ] as const)('%j', (message, kind, text, isRetryable) => {
    expect(mapChainError(message)).toEqual({ kind, message: text, isRetryable });
  });

  it.each([[''], ['Failed to place order'], ['-32003'], ['User rejected the request']])(
    'returns null for %j',
    (message) => {
      expect(mapChainError(message)).toBeNull();
    },
  );
});

describe('mapBotWithdrawError', () => {
  it.each([
    [
      'Insufficient bot balance. Available: 0.5 SOL, Requested: 1 SOL',
      'Insufficient bot balance. Available: 0.5 SOL, Requested: 1 SOL',
    ],
    [
      'Error processing Instruction 0: custom program error: 0x1',
      'Insufficient funds for transaction fees. Try a smaller amount.',
    ],
    ['custom program error: 0x10', 'Failed to withdraw from bot'],
    ['Transaction simulation failed', 'Transaction failed. Please check balance and try again.'],
    ['boom', 'Failed to withdraw from bot'],
  ] as const)('%j → %j', (message, expected) => {
    expect(mapBotWithdrawError(message)).toBe(expected);
  });
});

describe('isDelegationApprovalError', () => {
  it.each([
    ['Mainnet bot requires delegation approval', true],
    ['DELEGATION APPROVAL needed', true],
    ['Failed to start bot', false],
  ] as const)('%j → %s', (message, expected) => {
    expect(isDelegationApprovalError(message)).toBe(expected);
  });
});
