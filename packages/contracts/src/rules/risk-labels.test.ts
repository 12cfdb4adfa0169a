import { describe, it, expect } from 'vitest';
import { getLeverageRisk, getMarketplaceRisk } from './risk-labels';

describe('getLeverageRisk', () => {
  it.each([
    [1, 'Low'],
    [5, 'Low'],
    [5.5, 'Medium'],
    [6, 'Medium'],
    [20, 'Medium'],
    [21, 'High'],
    [50, 'High'],
    [51, 'Extreme'],
    [100, 'Extreme'],
  ] as const)('%sx → %s', (leverage, risk) => {
    expect(getLeverageRisk(leverage)).toBe(risk);
  });
});

describe('getMarketplaceRisk', () => {
  it.each([
    ['Sniper', 'High'],
    ['scalper', 'High'],
    ['rsi_scalper', 'High'],
    ['Arbitrage', 'Low'],
    ['DCA', 'Low'],
    ['dca', 'Low'],
    ['grid', 'Medium'],
    ['sma_crossover', 'Medium'],
    ['', 'Medium'],
    ['dcastyle', 'Medium'], // whole words only
  ] as const)('%j → %s', (strategy, risk) => {
    expect(getMarketplaceRisk(strategy)).toBe(risk);
  });
});
