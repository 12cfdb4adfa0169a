import { describe, it, expect } from 'vitest';
import {
  BACKTEST_MESSAGES,
  FUTURES_MESSAGES,
  SEARCH_MESSAGES,
  TRADE_MESSAGES,
  TRANSPORT_MESSAGES,
  VALIDATION_MESSAGES,
  WALLET_MESSAGES,
} from './messages';

describe('message catalogue', () => {
  it('has the transport texts of the spec', () => {
    expect(TRANSPORT_MESSAGES).toEqual({
      timeout: 'Request timed out. Please try again.',
      network: 'Network error. Please check your connection and try again.',
      authExpired: 'Authentication expired. Please login again.',
      notVerified: 'Your account is not verified. Please check your email and verify your account.',
      invalidCredentials: 'Invalid credentials',
    });
  });

  it.each([
    [WALLET_MESSAGES.userRejected('MetaMask'), 'User rejected the MetaMask connection request.'],
    [WALLET_MESSAGES.userRejected(), 'User rejected the connection request.'],
    [WALLET_MESSAGES.connectFailed('Phantom'), 'Failed to connect Phantom. Please try again.'],
    [SEARCH_MESSAGES.failed('timeout'), 'Search failed: timeout'],
    [SEARCH_MESSAGES.switchedTo('Bonk'), 'Switched to Bonk'],
    [VALIDATION_MESSAGES.minimumAmount('0.01', 'SOL'), 'Minimum amount is 0.01 SOL (accounting for fees)'],
    [
      VALIDATION_MESSAGES.insufficientBotBalance('0.5', '1'),
      'Insufficient bot balance. Available: 0.5 SOL, Requested: 1 SOL',
    ],
    [
      TRADE_MESSAGES.insufficientTokenBalance('USDC', '10', '2'),
      'Insufficient USDC balance. Required: 10, Available: 2',
    ],
    [FUTURES_MESSAGES.orderFailed('market closed'), 'Order failed: market closed'],
    [BACKTEST_MESSAGES.failed(), 'Backtest failed'],
    [BACKTEST_MESSAGES.failed('no candles'), 'Backtest failed: no candles'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('has no blank texts', () => {
    const groups = [
      TRANSPORT_MESSAGES,
      WALLET_MESSAGES,
      TRADE_MESSAGES,
      VALIDATION_MESSAGES,
      FUTURES_MESSAGES,
    ];
    for (const group of groups) {
      for (const text of Object.values(group)) {
        if (typeof text === 'string') expect(text.trim()).not.toBe('');
      }
    }
  });
});
