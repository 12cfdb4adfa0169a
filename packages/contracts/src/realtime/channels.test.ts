import { describe, expect, it } from 'vitest';
import { channelKindOf, CHANNELS, maySubscribe, ZChannelDataSchema } from './channels';
import { ZServerMessageSchema } from './ws-messages';

describe('the channel registry', () => {
  it('names the channel of a name, and nothing for an unregistered one', () => {
    expect(channelKindOf('prices')).toBe('prices');
    expect(channelKindOf('price:SOL')).toBe('price');
    expect(channelKindOf('candles:SOL/USDC:1')).toBe('candles');
    expect(channelKindOf('orders:someone')).toBeUndefined();
    expect(maySubscribe('prices', false)).toBe(true);
  });

  it('accepts only registered payloads on a channel message', () => {
    const tick = {
      symbol: 'SOL',
      price: 150,
      change_24h: 1,
      volume_24h: null,
      timestamp: '2026-01-01T00:00:00Z',
    };
    expect(CHANNELS.price.payload.safeParse(tick).success).toBe(true);
    expect(ZChannelDataSchema.safeParse({ price: '142.50' }).success).toBe(false);
    expect(ZServerMessageSchema.safeParse({ type: 'order_update', data: { id: 'x' } }).success).toBe(false);
  });
});
