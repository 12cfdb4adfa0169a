import { describe, expect, it } from 'vitest';
import { candlesChannel, parseMarketChannel, priceChannel, PRICES_CHANNEL } from './market-channels';

describe('market channels', () => {
  it('names channels the way clients subscribe to them', () => {
    expect(priceChannel(' sol ')).toBe('price:SOL');
    expect(candlesChannel('SOL/USDC', '1M')).toBe('candles:SOL/USDC:1');
    expect(candlesChannel('BTC/SOL', '1H')).toBe('candles:BTC/SOL:60');
    expect(candlesChannel('BTC/SOL', '1S')).toBe('candles:BTC/SOL:1S');
  });

  it('reads every market channel back', () => {
    expect(parseMarketChannel(PRICES_CHANNEL)).toEqual({ kind: 'prices' });
    expect(parseMarketChannel('price:bonk')).toEqual({ kind: 'price', symbol: 'BONK' });
    expect(parseMarketChannel('candles:SOL/USDC:1')).toEqual({
      kind: 'candles',
      pair: 'SOL/USDC',
      interval: '1M',
    });
    expect(parseMarketChannel('candles:SOL/USDC:15M')).toEqual({
      kind: 'candles',
      pair: 'SOL/USDC',
      interval: '15M',
    });
    const mints = 'So11111111111111111111111111111111111111112/EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    expect(parseMarketChannel(`candles:${mints}:240`)).toEqual({
      kind: 'candles',
      pair: mints,
      interval: '4H',
    });
  });

  it('ignores channels that are not market channels or are malformed', () => {
    for (const channel of [
      'bots',
      'price:',
      'candles:SOL/USDC',
      'candles::1',
      'candles:SOL/USDC:2H',
      'prices:x',
    ]) {
      expect(parseMarketChannel(channel), channel).toBeUndefined();
    }
  });
});
