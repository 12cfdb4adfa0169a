import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import {
  failureMessage,
  formatAmountWithUnit,
  formatCount,
  formatPercent,
  formatSignedAmount,
  quoteOf,
  toneOf,
} from './bot-figures';

describe('bot figures', () => {
  it('write units, separators, and a neutral zero for what rounds to zero', () => {
    expect(quoteOf('SOL/USDC')).toBe('USDC');
    expect(quoteOf('BONK-SOL')).toBe('SOL');
    expect(formatCount(256335)).toBe('256,335');
    expect(formatSignedAmount(1234.567, 'USDC')).toBe('+1,234.57 USDC');
    expect(formatSignedAmount(-0.5, 'USDC')).toBe('-0.50 USDC');
    expect(formatSignedAmount(-0.001, 'USDC')).toBe('0.00 USDC');
    expect(formatAmountWithUnit(1000, 'USDC')).toBe('1,000.00 USDC');
    expect(formatPercent(-0.00262)).toBe('0.00 %');
    expect(formatPercent(12.345)).toBe('12.35 %');
    expect(toneOf(-0.001)).toBe('');
    expect(toneOf(-0.01)).toBe('text-down');
  });

  it('toasts the spec’s message, then the server’s reason', () => {
    const refused = new ApiError('You can run at most 5 bots at once.', {
      status: 409,
      serverMessage: 'You can run at most 5 bots at once.',
      kind: 'http',
    });
    expect(failureMessage('Failed to start bot', refused)).toBe(
      'Failed to start bot: You can run at most 5 bots at once.',
    );
    expect(failureMessage('Failed to start bot', new Error('x'))).toBe('Failed to start bot');
  });
});
