import { z } from 'zod';
import { CANDLES_CHANNEL_PREFIX, PRICE_CHANNEL_PREFIX, PRICES_CHANNEL } from '../market/market-channels';
import { ZCandleTickSchema, ZPriceTickSchema, ZPricesTickSchema } from '../market/market.schemas';
import { ZSpotOrderSchema } from '../trading/trading.schemas';

/**
 * The registry of /ws channels: what a `{type:"channel", channel, data}` message on a channel carries,
 * and who may subscribe. Public channels need no authentication; `user` channels only an
 * authenticated socket (bots and futures add theirs here). The server publishes through these types
 * (a wrong payload does not compile) and the web reads with these schemas.
 */
export const CHANNELS = {
  prices: {
    access: 'public',
    matches: (name: string) => name === PRICES_CHANNEL,
    payload: ZPricesTickSchema,
  },
  price: {
    access: 'public',
    matches: (name: string) => name.startsWith(PRICE_CHANNEL_PREFIX),
    payload: ZPriceTickSchema,
  },
  candles: {
    access: 'public',
    matches: (name: string) => name.startsWith(CANDLES_CHANNEL_PREFIX),
    payload: ZCandleTickSchema,
  },
} as const;

export type ChannelKind = keyof typeof CHANNELS;
export type TChannelPayload<K extends ChannelKind> = z.infer<(typeof CHANNELS)[K]['payload']>;

/** What a channel says once when it cannot be served (an unknown token or pair). */
export const ZChannelErrorSchema = z.object({ error: z.string(), code: z.string() });
export type TChannelError = z.infer<typeof ZChannelErrorSchema>;

/** Any channel message's data: one of the registered payloads, or the channel's error. */
export const ZChannelDataSchema = z.union([
  ZPricesTickSchema,
  ZPriceTickSchema,
  ZCandleTickSchema,
  ZChannelErrorSchema,
]);
export type TChannelData = z.infer<typeof ZChannelDataSchema>;

/** The registered channel a name belongs to, or undefined (nothing is ever published on it). */
export function channelKindOf(name: string): ChannelKind | undefined {
  return (Object.keys(CHANNELS) as ChannelKind[]).find((kind) => CHANNELS[kind].matches(name));
}

/** Whether a socket may subscribe to a channel: public ones always, user channels once authenticated. */
export function maySubscribe(name: string, authenticated: boolean): boolean {
  const kind = channelKindOf(name);
  return !kind || CHANNELS[kind].access === 'public' || authenticated;
}

/**
 * Messages the server pushes to one user's sockets (every process), by type, with their payloads:
 * `order_update` after every change of one of the user's spot orders.
 */
export const USER_MESSAGES = {
  order_update: ZSpotOrderSchema,
} as const;
export type UserMessageType = keyof typeof USER_MESSAGES;
