import { describe, expect, it } from 'vitest';
import { CHART_INTERVALS, CHART_INTERVAL_VALUES } from '../rules/constants';
import {
  alignToInterval,
  CHART_INTERVAL_SECONDS,
  CHART_INTERVAL_SPELLINGS,
  parseChartInterval,
} from './chart-interval';

describe('parseChartInterval', () => {
  it.each(CHART_INTERVALS)('reads the label %s and its chart-service value', (label) => {
    expect(parseChartInterval(label)).toBe(label);
    expect(parseChartInterval(CHART_INTERVAL_VALUES[label])).toBe(label);
    expect(parseChartInterval(` ${label.toLowerCase()} `)).toBe(label);
  });

  it('reads 1M as one minute and 60 as one hour', () => {
    expect(parseChartInterval('1M')).toBe('1M');
    expect(CHART_INTERVAL_SECONDS['1M']).toBe(60);
    expect(parseChartInterval('60')).toBe('1H');
  });

  it.each(['', '2H', '1W', '30', 'abc', '1s1'])('refuses %j', (text) => {
    expect(parseChartInterval(text)).toBeUndefined();
  });

  it('lists every accepted spelling once, labels first', () => {
    expect(CHART_INTERVAL_SPELLINGS.slice(0, 8)).toEqual([...CHART_INTERVALS]);
    expect(new Set(CHART_INTERVAL_SPELLINGS).size).toBe(CHART_INTERVAL_SPELLINGS.length);
    for (const spelling of CHART_INTERVAL_SPELLINGS) expect(parseChartInterval(spelling)).toBeDefined();
  });
});

describe('alignToInterval', () => {
  it('aligns open times to UTC multiples of the interval', () => {
    const t = Date.parse('2026-01-15T13:47:29Z') / 1000;
    expect(alignToInterval(t, '1S')).toBe(t);
    expect(alignToInterval(t, '15M')).toBe(Date.parse('2026-01-15T13:45:00Z') / 1000);
    expect(alignToInterval(t, '4H')).toBe(Date.parse('2026-01-15T12:00:00Z') / 1000);
    expect(alignToInterval(t, '1D')).toBe(Date.parse('2026-01-15T00:00:00Z') / 1000);
  });
});
