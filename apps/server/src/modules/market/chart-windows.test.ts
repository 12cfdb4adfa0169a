import { describe, expect, it } from 'vitest';
import type { TCandle } from '@solterm/contracts';
import { CLOSED_WINDOW_TTL_MS, createClosedWindows, MAX_CLOSED_WINDOWS } from './chart-windows';

const candle = (time: number): TCandle => ({ time, open: 1, high: 1, low: 1, close: 1, volume: 0 });

describe('closed chart windows', () => {
  it('loads a window once, hands out the same array, and loads it again after the TTL', async () => {
    let now = 0;
    const windows = createClosedWindows(() => now);
    let loads = 0;
    const load = async () => [candle(++loads)];
    const first = await windows.get('SOL|1H', load);
    now += CLOSED_WINDOW_TTL_MS - 1;
    expect(await windows.get('SOL|1H', load)).toBe(first);
    expect(loads).toBe(1);
    now += 1;
    expect(await windows.get('SOL|1H', load)).toEqual([candle(2)]);
  });

  it('forgets a failed load and drops the least recently used window past its bound', async () => {
    const windows = createClosedWindows(() => 0);
    await expect(windows.get('bad', () => Promise.reject(new Error('no data')))).rejects.toThrow('no data');
    expect(await windows.get('bad', async () => [candle(1)])).toEqual([candle(1)]);

    let loads = 0;
    const load = async () => [candle(++loads)];
    const kept = await windows.get('w0', load);
    for (let index = 1; index <= MAX_CLOSED_WINDOWS; index += 1) {
      await windows.get(`w${index}`, load);
      await windows.get('w0', load); // used again: stays
    }
    expect(await windows.get('w0', load)).toBe(kept);
    const before = loads;
    await windows.get('w1', load); // the least recently used, dropped
    expect(loads).toBe(before + 1);
  });
});
