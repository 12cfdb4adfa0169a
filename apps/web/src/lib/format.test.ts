import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatAmountWithUnit,
  formatBps,
  formatCompact,
  formatCompactUsd,
  formatCount,
  formatDuration,
  formatFixed,
  formatPercent,
  formatPercentChange,
  formatPlainPercent,
  formatQuote,
  formatRatePercent,
  formatSignedAmount,
  formatSignedPercent,
  formatSignedQuote,
  formatSignedUsd,
  formatSlippageBps,
  formatTokenAmount,
  formatTradeTime,
  getPnlTone,
  getToneClass,
  lamportsToSol,
  shortenHash,
} from './format';

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

describe('spot formatting', () => {
  it('amounts: trimmed decimals, separators, tiny amounts kept', () => {
    expect(formatAmount(1234.5678912)).toBe('1,234.567891');
    expect(formatAmount(0.5)).toBe('0.5');
    expect(formatAmount(0.000000042)).toBe('0.000000042');
    expect(formatAmount(0)).toBe('0');
    expect(formatAmount(null)).toBe('—');
  });

  it('quote prices and values follow the spec precision table', () => {
    expect(formatQuote(12345.678)).toBe('12,345.68');
    expect(formatQuote(0.5)).toBe('0.5000');
    expect(formatQuote(0.0000512)).toBe('0.000051');
  });

  it('PnL carries its sign and tone', () => {
    expect(formatSignedQuote(12.5)).toBe('+12.50');
    expect(formatSignedQuote(-0.0312)).toBe('-0.0312');
    expect(formatSignedQuote(0)).toBe('0.00');
    expect(formatSignedPercent(4.1234)).toBe('+4.12%');
    expect(formatSignedPercent(-0.004)).toBe('0.00%');
    expect([getPnlTone(1), getPnlTone(-1), getPnlTone(0)]).toEqual(['up', 'down', 'flat']);
  });

  it('receipt figures', () => {
    expect(formatBps(3.25)).toBe('3.3 bps');
    expect(formatBps(-0.04)).toBe('0.0 bps');
    expect(formatDuration(812)).toBe('812 ms');
    expect(formatDuration(1240)).toBe('1.24 s');
  });

  it('times: clock time today, date and minute before', () => {
    const now = new Date(2025, 0, 2, 12, 0, 0);
    expect(formatTradeTime(new Date(2025, 0, 2, 9, 3, 4).toISOString(), now)).toBe('09:03:04');
    expect(formatTradeTime(new Date(2025, 0, 1, 9, 3, 4).toISOString(), now)).toBe('Jan 1, 09:03');
    expect(formatTradeTime('not a date', now)).toBe('—');
  });
});

describe('bot figures', () => {
  it('write units, separators, and a neutral zero for what rounds to zero', () => {
    expect(formatCount(256335)).toBe('256,335');
    expect(formatSignedAmount(1234.567, 'USDC')).toBe('+1,234.57 USDC');
    expect(formatSignedAmount(-0.5, 'USDC')).toBe('-0.50 USDC');
    expect(formatSignedAmount(-0.001, 'USDC')).toBe('0.00 USDC');
    expect(formatAmountWithUnit(1000, 'USDC')).toBe('1,000.00 USDC');
    expect(formatPercent(-0.00262)).toBe('0.00 %');
    expect(formatPercent(12.345)).toBe('12.35 %');
  });
});

describe('market figures and futures figures', () => {
  it('write changes with a sign, large figures compactly', () => {
    expect(formatPercentChange(6.5)).toBe('+6.50%');
    expect(formatPercentChange(-0.001)).toBe('0.00%');
    expect(formatCompact(78901)).toBe('78.9K');
    expect(formatCompactUsd(-1500)).toBe('-$1.5K');
  });

  it('write fixed places, signed USD with a typographic minus, and rates as percents', () => {
    expect(formatFixed('1234.5', 2)).toBe('1,234.50');
    expect(formatFixed(null, 2)).toBe('—');
    expect(formatSignedUsd('12.3')).toBe('+12.30');
    expect(formatSignedUsd('-4.005')).toBe('−4.01');
    expect(formatSignedUsd('-0.001')).toBe('+0.00');
    expect(formatRatePercent('0.0005')).toBe('0.0500%');
    expect(formatRatePercent(0.0005, 2)).toBe('0.05%');
    expect(formatPlainPercent(0.5)).toBe('0.50%');
    expect(formatPlainPercent(12.345, 1)).toBe('12.3%');
    expect(getToneClass('-1.5')).toBe('text-down');
    expect(getToneClass('0')).toBe('text-muted');
  });
});
