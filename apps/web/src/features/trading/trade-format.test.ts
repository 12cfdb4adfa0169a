import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  formatSlippageBps,
  formatTokenAmount,
  formatTradeTime,
  lamportsToSol,
  shortenHash,
} from './trade-format';

describe('trade formatting', () => {
  it('formats token amounts by kind', () => {
    expect(formatTokenAmount(1000, 'USDC')).toBe('1,000.00');
    expect(formatTokenAmount(1234.56789, 'SOL')).toBe('1,234.5679');
    expect(formatTokenAmount(0.5, 'SOL')).toBe('0.5000');
    expect(formatTokenAmount(0.000005, 'SOL')).toBe('0.000005');
    expect(formatTokenAmount(0)).toBe('0.0000');
    expect(formatTokenAmount(null)).toBe('—');
  });

  it('converts lamports to SOL exactly', () => {
    expect(lamportsToSol('5000').toString()).toBe('0.000005');
    expect(lamportsToSol('1500000000').toString()).toBe('1.5');
  });

  it('shortens hashes', () => {
    expect(
      shortenHash('5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'),
    ).toBe('5VERv8...SZkQUW');
  });

  it('formats slippage and durations', () => {
    expect(formatSlippageBps(3.25)).toBe('+3.3 bps');
    expect(formatSlippageBps(-1)).toBe('-1.0 bps');
    expect(formatSlippageBps(0.01)).toBe('0.0 bps');
    // One duration rule for every view (the dashboard's had one decimal, the trade page's two).
    expect(formatDuration(420)).toBe('420 ms');
    expect(formatDuration(1850)).toBe('1.85 s');
  });

  it('shows the clock time for today and the date otherwise', () => {
    const now = new Date(2025, 2, 1, 18, 0, 0);
    expect(formatTradeTime(new Date(2025, 2, 1, 14, 5, 9).toISOString(), now)).toBe('14:05:09');
    expect(formatTradeTime(new Date(2025, 1, 27, 9, 30).toISOString(), now)).toBe('Feb 27, 09:30');
    expect(formatTradeTime('nonsense', now)).toBe('—');
  });
});
