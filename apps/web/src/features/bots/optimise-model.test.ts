import { describe, expect, it } from 'vitest';
import type { TOptimizeTrial } from '@solterm/contracts';
import { gridSize, rangesOf, scatterOf, sortTrials } from './optimise-model';

const trial = (index: number, inSample: number | null, outOfSample: number | null): TOptimizeTrial => ({
  index,
  parameters: { x: index },
  folds: [],
  in_sample_objective: inSample,
  out_of_sample_objective: outOfSample,
  error: inSample === null ? 'failed' : null,
});

describe('the Optimise tab model', () => {
  it('sends only filled ranges and counts the grid', () => {
    const ranges = rangesOf([
      { name: 'a', label: 'a', min: '1', max: '3', step: '1', integer: true },
      { name: 'b', label: 'b', min: '0.1', max: '0.3', step: '0.1', integer: false },
      { name: 'c', label: 'c', min: '', max: '3', step: '1', integer: true },
    ]);
    expect(Object.keys(ranges)).toEqual(['a', 'b']);
    expect(gridSize(ranges)).toBe(9);
  });

  it('sorts trials by a column with failed ones last', () => {
    const trials = [trial(0, 1, 0.5), trial(1, null, null), trial(2, 3, 2)];
    expect(sortTrials(trials, 'out_of_sample_objective', true).map((t) => t.index)).toEqual([2, 0, 1]);
    expect(sortTrials(trials, 'out_of_sample_objective', false).map((t) => t.index)).toEqual([0, 2, 1]);
  });

  it('plots successful trials only, with zero inside the axes', () => {
    const scatter = scatterOf([trial(0, 1, 0.5), trial(1, null, null), trial(2, 3, 2)]);
    expect(scatter.points).toHaveLength(2);
    expect(scatter.low).toBeLessThan(0);
    expect(scatter.high).toBeGreaterThan(3);
  });
});
