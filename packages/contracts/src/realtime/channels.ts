import { z } from 'zod';
import { CANDLES_CHANNEL_PREFIX, PRICE_CHANNEL_PREFIX, PRICES_CHANNEL } from '../market/market-channels';
import { ZCandleTickSchema, ZPriceTickSchema, ZPricesTickSchema } from '../market/market.schemas';
import {
  FUTURES_ACCOUNT_CHANNEL_PREFIX,
  FUTURES_BOOK_CHANNEL_PREFIX,
  FUTURES_MARKET_CHANNEL_PREFIX,
  FUTURES_TRADES_CHANNEL_PREFIX,
  ZFuturesAccountTickSchema,
  ZFuturesMarketStatsSchema,
  ZFuturesOrderBookSchema,
  ZFuturesTradesTickSchema,
} from '../futures/futures.schemas';
import { ZOrderBookSchema, ZPositionSchema } from '../trading/trading.schemas';
import { ZNotificationTickSchema } from '../alerts/alerts.schemas';

/** Prefix of a spot pair's order book channel: `spot-book:SOL/USDC` carries the maker's ladder. */
export const SPOT_BOOK_CHANNEL_PREFIX = 'spot-book:';
/** Prefix of a user's spot positions channel: `spot-positions:<userId>`, marked to the market. */
export const SPOT_POSITIONS_CHANNEL_PREFIX = 'spot-positions:';

/**
 * The order book channel of a spot pair, as the pair is written in GET /trading/orderbook.
 *
 * @example
 * spotBookChannel('SOL/USDC'); // 'spot-book:SOL/USDC'
 */
export function spotBookChannel(pair: string): `${typeof SPOT_BOOK_CHANNEL_PREFIX}${string}` {
  return `${SPOT_BOOK_CHANNEL_PREFIX}${pair.trim()}`;
}

/**
 * The spot positions channel of a user (only that user's socket may subscribe).
 *
 * @example
 * spotPositionsChannel('u-1'); // 'spot-positions:u-1'
 */
export function spotPositionsChannel(userId: string): `${typeof SPOT_POSITIONS_CHANNEL_PREFIX}${string}` {
  return `${SPOT_POSITIONS_CHANNEL_PREFIX}${userId}`;
}

/**
 * The prices and statistics channel of a perpetual market (its book is `futures-book:<SYMBOL>`).
 *
 * @example
 * futuresMarketChannel('SOL-PERP'); // 'futures-market:SOL-PERP'
 */
export function futuresMarketChannel(symbol: string): `${typeof FUTURES_MARKET_CHANNEL_PREFIX}${string}` {
  return `${FUTURES_MARKET_CHANNEL_PREFIX}${symbol}`;
}

/**
 * The futures account channel of a user: account and positions (only that user's socket may subscribe).
 *
 * @example
 * futuresAccountChannel('u-1'); // 'futures-account:u-1'
 */
export function futuresAccountChannel(userId: string): `${typeof FUTURES_ACCOUNT_CHANNEL_PREFIX}${string}` {
  return `${FUTURES_ACCOUNT_CHANNEL_PREFIX}${userId}`;
}

/** Prefix of a user's notifications channel: `notifications:<userId>` (alerts that fired, unread count). */
export const NOTIFICATIONS_CHANNEL_PREFIX = 'notifications:';

/**
 * The notifications channel of a user (only that user's socket may subscribe).
 *
 * @example
 * notificationsChannel('u-1'); // 'notifications:u-1'
 */
export function notificationsChannel(userId: string): `${typeof NOTIFICATIONS_CHANNEL_PREFIX}${string}` {
  return `${NOTIFICATIONS_CHANNEL_PREFIX}${userId}`;
}

/**
 * What a channel sends once when it cannot be served (an unknown token or pair), instead of its
 * payload; the server then stops computing it.
 */
export const ZChannelErrorSchema = z.object({ error: z.string(), code: z.string() });
export type TChannelError = z.infer<typeof ZChannelErrorSchema>;

/**
 * One channel, or a family of channels sharing a prefix, and who may subscribe to it:
 * - `public`: any socket, authenticated or not;
 * - `user`: only a socket authenticated as the user the name carries right after the prefix
 *   (`<prefix><userId>` or `<prefix><userId>:<more>`).
 */
export type ChannelSpec =
  | { readonly name: string; readonly payload: z.ZodType; readonly access: 'public' | 'user' }
  | { readonly prefix: string; readonly payload: z.ZodType; readonly access: 'public' | 'user' };

type NameOf<S> = S extends { name: infer N extends string }
  ? N
  : S extends { prefix: infer P extends string }
    ? `${P}${string}`
    : never;

/** Every channel name a set of specs admits, as a type: literals and template literals. */
export type ChannelNameOf<Specs extends Record<string, ChannelSpec>> = {
  [K in keyof Specs]: NameOf<Specs[K]>;
}[keyof Specs];

/** The payload a channel named `C` carries, as a type. */
export type ChannelPayloadOf<Specs extends Record<string, ChannelSpec>, C extends string> = {
  [K in keyof Specs]: C extends NameOf<Specs[K]> ? z.infer<Specs[K]['payload']> : never;
}[keyof Specs];

/** Whether a socket (of `userId`, or unauthenticated) may subscribe to a channel. */
export type ChannelAccess = 'allowed' | 'forbidden' | 'unknown';

/**
 * A typed channel registry: the specs, plus the runtime checks that match the types (which spec a
 * name belongs to, whether a socket may subscribe, whether a payload is valid for a name).
 */
export function defineChannels<const Specs extends Record<string, ChannelSpec>>(specs: Specs) {
  const list: ChannelSpec[] = Object.values(specs);
  type Name = ChannelNameOf<Specs>;

  function specOf(channel: string): ChannelSpec | undefined {
    return list.find((spec) =>
      'name' in spec
        ? spec.name === channel
        : channel.startsWith(spec.prefix) && channel.length > spec.prefix.length,
    );
  }

  return {
    specs,

    /** Whether `channel` is a registered channel name. */
    isChannel(channel: string): channel is Name {
      return specOf(channel) !== undefined;
    },

    /** Whether a socket authenticated as `userId` (undefined: not authenticated) may subscribe. */
    access(channel: string, userId: string | undefined): ChannelAccess {
      const spec = specOf(channel);
      if (!spec) return 'unknown';
      if (spec.access === 'public') return 'allowed';
      if (userId === undefined || !('prefix' in spec)) return 'forbidden';
      const owner = channel.slice(spec.prefix.length).split(':', 1)[0];
      return owner === userId ? 'allowed' : 'forbidden';
    },

    /**
     * Checks a payload against the channel's schema (or the channel error shape).
     *
     * @throws Error for an unregistered channel; a ZodError for a payload the channel does not carry.
     */
    parse<C extends Name>(channel: C, data: unknown): ChannelPayloadOf<Specs, C> | TChannelError {
      const spec = specOf(channel);
      if (!spec) throw new Error(`not a registered channel: ${channel}`);
      const error = ZChannelErrorSchema.safeParse(data);
      if (error.success) return error.data;
      return spec.payload.parse(data) as ChannelPayloadOf<Specs, C>;
    },
  };
}

/**
 * The channels of /ws: a client sends `{type:"subscribe", channel}` and then receives
 * `{type:"channel", channel, data}` with `data` of the channel's schema (or a {@link TChannelError}).
 * Add a channel here, with its payload schema and access, before anything publishes on it: the
 * server's hub only publishes registered channels, type-checked against these schemas.
 */
export const CHANNELS = defineChannels({
  prices: { name: PRICES_CHANNEL, payload: ZPricesTickSchema, access: 'public' },
  price: { prefix: PRICE_CHANNEL_PREFIX, payload: ZPriceTickSchema, access: 'public' },
  candles: { prefix: CANDLES_CHANNEL_PREFIX, payload: ZCandleTickSchema, access: 'public' },
  futuresBook: { prefix: FUTURES_BOOK_CHANNEL_PREFIX, payload: ZFuturesOrderBookSchema, access: 'public' },
  futuresTrades: {
    prefix: FUTURES_TRADES_CHANNEL_PREFIX,
    payload: ZFuturesTradesTickSchema,
    access: 'public',
  },
  futuresMarket: {
    prefix: FUTURES_MARKET_CHANNEL_PREFIX,
    payload: ZFuturesMarketStatsSchema,
    access: 'public',
  },
  futuresAccount: {
    prefix: FUTURES_ACCOUNT_CHANNEL_PREFIX,
    payload: ZFuturesAccountTickSchema,
    access: 'user',
  },
  spotBook: { prefix: SPOT_BOOK_CHANNEL_PREFIX, payload: ZOrderBookSchema, access: 'public' },
  spotPositions: { prefix: SPOT_POSITIONS_CHANNEL_PREFIX, payload: z.array(ZPositionSchema), access: 'user' },
  notifications: { prefix: NOTIFICATIONS_CHANNEL_PREFIX, payload: ZNotificationTickSchema, access: 'user' },
});

type RegisteredSpecs = typeof CHANNELS.specs;

/** A registered channel name: `prices`, `price:${string}`, `candles:${string}`, `futures-book:${string}`… */
export type ChannelName = ChannelNameOf<RegisteredSpecs>;

/** What a channel sends: its payload, or once a {@link TChannelError}. */
export type ChannelPayload<C extends ChannelName> = ChannelPayloadOf<RegisteredSpecs, C> | TChannelError;

/** A channel message of a channel `C`, typed. */
export interface TChannelMessage<C extends ChannelName = ChannelName> {
  type: 'channel';
  channel: C;
  data: ChannelPayload<C>;
}
