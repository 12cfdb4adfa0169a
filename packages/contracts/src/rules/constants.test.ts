import { describe, it, expect } from 'vitest';
import {
  CHART_INTERVAL_VALUES,
  CHART_INTERVALS,
  DEFAULT_CHART_INTERVAL,
  EVM_CHAINS,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  LEVERAGE_PRESETS,
  REQUEST_MAX_ATTEMPTS,
  REQUEST_RETRY_DELAYS_MS,
  TOAST_DURATION_MS,
  TOAST_ERROR_DURATION_MS,
  TOAST_SUCCESS_DURATION_MS,
} from './constants';

describe('business constants', () => {
  it('maps every chart interval label to its underlying value', () => {
    expect(CHART_INTERVALS.map((label) => CHART_INTERVAL_VALUES[label])).toEqual([
      '1S',
      '1',
      '5',
      '15',
      '60',
      '240',
      '720',
      '1D',
    ]);
    expect(CHART_INTERVALS).toContain(DEFAULT_CHART_INTERVAL);
    expect(DEFAULT_CHART_INTERVAL).toBe('15M');
  });

  it('lists the manual EVM chains in the spec order', () => {
    expect(EVM_CHAINS).toEqual([
      { id: '0x1', name: 'Ethereum Mainnet' },
      { id: '0x89', name: 'Polygon' },
      { id: '0xa4b1', name: 'Arbitrum One' },
      { id: '0x38', name: 'BNB Smart Chain' },
      { id: '0x2105', name: 'Base' },
    ]);
  });

  it('has one retry wait per retry', () => {
    expect(REQUEST_RETRY_DELAYS_MS).toHaveLength(REQUEST_MAX_ATTEMPTS - 1);
  });

  it('keeps leverage presets inside the leverage range, ascending', () => {
    expect(LEVERAGE_PRESETS[0]).toBe(LEVERAGE_MIN);
    expect(LEVERAGE_PRESETS.at(-1)).toBe(LEVERAGE_MAX);
    expect([...LEVERAGE_PRESETS].sort((a, b) => a - b)).toEqual([...LEVERAGE_PRESETS]);
  });

  it('has the spec toast durations', () => {
    expect([TOAST_DURATION_MS, TOAST_SUCCESS_DURATION_MS, TOAST_ERROR_DURATION_MS]).toEqual([
      4000, 3000, 5000,
    ]);
  });
});
