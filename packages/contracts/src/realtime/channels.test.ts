import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CHANNELS, defineChannels } from './channels';
import { ZServerMessageSchema } from './ws-messages';

const tick = { symbol: 'SOL', price: 187.42, change_24h: 1.5, volume_24h: null, timestamp: 't' };

describe('channel registry', () => {
  it('knows the market channels by name and prefix, and no others', () => {
    for (const channel of ['prices', 'price:SOL', 'candles:SOL/USDC:1'])
      expect(CHANNELS.isChannel(channel)).toBe(true);
    for (const channel of ['bots', 'price:', 'prices:x', 'candles:', ''])
      expect(CHANNELS.isChannel(channel)).toBe(false);
  });

  it('checks a payload against its channel, accepting the channel error shape too', () => {
    expect(CHANNELS.parse('price:SOL', tick)).toEqual(tick);
    expect(
      CHANNELS.parse('price:NOPE', { error: 'Token not found: NOPE', code: 'MARKET__TOKEN_NOT_FOUND' }),
    ).toEqual({
      error: 'Token not found: NOPE',
      code: 'MARKET__TOKEN_NOT_FOUND',
    });
    expect(() => CHANNELS.parse('prices', tick)).toThrow();
    expect(() => CHANNELS.parse('bots' as 'prices', tick)).toThrow('not a registered channel');
  });

  it("lets only its user subscribe to a user's futures account, and anyone to a futures market", () => {
    expect(CHANNELS.access('futures-account:alice', 'alice')).toBe('allowed');
    expect(CHANNELS.access('futures-account:alice', 'bob')).toBe('forbidden');
    expect(CHANNELS.access('futures-account:alice', undefined)).toBe('forbidden');
    expect(CHANNELS.access('futures-market:SOL-PERP', undefined)).toBe('allowed');
  });

  it('lets anyone subscribe to a public channel and only its user to a per-user one', () => {
    const registry = defineChannels({
      prices: { name: 'prices', payload: z.object({}), access: 'public' },
      bot: { prefix: 'bot:', payload: z.object({ step: z.number() }), access: 'user' },
    });

    expect(registry.access('prices', undefined)).toBe('allowed');
    expect(registry.access('bot:alice', 'alice')).toBe('allowed');
    expect(registry.access('bot:alice:b-1', 'alice')).toBe('allowed');
    expect(registry.access('bot:alice:b-1', 'bob')).toBe('forbidden');
    expect(registry.access('bot:alice', undefined)).toBe('forbidden');
    expect(registry.access('bot:alicex', 'alice')).toBe('forbidden');
    expect(registry.access('other', 'alice')).toBe('unknown');
  });

  it('types the server messages: channel data by channel, order_update as a spot order', () => {
    expect(
      ZServerMessageSchema.safeParse({ type: 'channel', channel: 'price:SOL', data: tick }).success,
    ).toBe(true);
    expect(ZServerMessageSchema.safeParse({ type: 'channel', channel: 'prices', data: tick }).success).toBe(
      false,
    );
    expect(ZServerMessageSchema.safeParse({ type: 'channel', channel: 'bots', data: {} }).success).toBe(
      false,
    );
    expect(ZServerMessageSchema.safeParse({ type: 'order_update', data: { id: 'o-1' } }).success).toBe(false);
  });
});
