import { describe, expect, it } from 'vitest';
import { getExplorerTxUrl } from './explorer';
import {
  formatAmount,
  formatBps,
  formatDuration,
  formatQuote,
  formatSignedPercent,
  formatSignedQuote,
  formatTradeTime,
  getPnlTone,
} from './trade-format';

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

describe('explorer links', () => {
  it('point at the network the server runs on', () => {
    expect(getExplorerTxUrl('sig', 'mainnet', 'https://app')).toBe('https://explorer.solana.com/tx/sig');
    expect(getExplorerTxUrl('sig', 'devnet', 'https://app')).toBe(
      'https://explorer.solana.com/tx/sig?cluster=devnet',
    );
    expect(getExplorerTxUrl('sig', 'localnet', 'http://localhost:8080')).toBe(
      'https://explorer.solana.com/tx/sig?cluster=custom&customUrl=http%3A%2F%2Flocalhost%3A8080%2Frpc',
    );
  });
});
