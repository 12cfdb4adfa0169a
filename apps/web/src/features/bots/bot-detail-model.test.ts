import { describe, expect, it } from 'vitest';
import { formatAmount, formatDuration, formatSigned, pageLabel, runLabel, toneOf } from './bot-detail-model';

describe('bot detail figures', () => {
  it('says how long a run ran in minutes, hours and days', () => {
    expect(formatDuration(0)).toBe('0 min');
    expect(formatDuration(45 * 60 + 59)).toBe('45 min');
    expect(formatDuration(90 * 60)).toBe('1 h 30 min');
    expect(formatDuration(3 * 3600)).toBe('3 h');
    expect(formatDuration(51 * 3600)).toBe('2 d 3 h');
    expect(formatDuration(-5)).toBe('0 min');
  });

  it('signs gains and losses, and never shows -0.00', () => {
    expect(formatSigned(1.234, 'USDC')).toBe('+1.23 USDC');
    expect(formatSigned(-1.235, 'USDC')).toBe('-1.24 USDC');
    expect(formatSigned(-0.00262, 'USDC')).toBe('0.00 USDC');
    expect(formatSigned(0.5, '%')).toBe('+0.50 %');
    expect(toneOf(-0.0000001)).toBe('text-fg');
    expect(toneOf(-0.01)).toBe('text-down');
    expect(toneOf(null)).toBe('text-fg');
  });

  it('labels runs and pages of fills', () => {
    expect(
      runLabel({ started_at: '2026-01-15T12:00:30.000Z', mode: 'mainnet', status: 'stopped' } as never),
    ).toBe('2026-01-15 12:00 UTC · On chain · stopped');
    expect(pageLabel({ items: new Array(25).fill({}), total: 1200, limit: 25, offset: 25 })).toBe(
      '26–50 of 1,200',
    );
    expect(pageLabel({ items: [], total: 0, limit: 25, offset: 0 })).toBe('No fills');
    expect(formatAmount(1234.5678912)).toBe('1,234.567891');
  });
});
