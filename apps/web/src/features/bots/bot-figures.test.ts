import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { failureMessage, quoteOf, toneOf } from './bot-figures';

describe('bot figures', () => {
  it('name the quote and give a neutral tone to what rounds to zero', () => {
    expect(quoteOf('SOL/USDC')).toBe('USDC');
    expect(quoteOf('BONK-SOL')).toBe('SOL');
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
