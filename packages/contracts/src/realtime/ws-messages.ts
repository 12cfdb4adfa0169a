import { z } from 'zod';
import { ZOptimizationProgressSchema } from '../bots/optimize.schemas';
import { ZSpotOrderSchema } from '../trading/trading.schemas';
import { CHANNELS, type TChannelMessage } from './channels';

/** Messages a browser sends on /ws. */
export const ZClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) }),
  z.object({ type: z.literal('ping'), timestamp: z.number().optional() }),
  z.object({ type: z.literal('subscribe'), channel: z.string().min(1).max(128) }),
  z.object({ type: z.literal('unsubscribe'), channel: z.string().min(1).max(128) }),
]);
export type TClientMessage = z.infer<typeof ZClientMessageSchema>;

export const ZBotTimingUpdateSchema = z.object({
  bot_id: z.string(),
  current_task: z.string().nullable(),
  estimated_completion: z.string().nullable(),
  total_trades: z.number(),
  total_pnl: z.string(),
  progress_percentage: z.number(),
  started_at: z.string().nullable(),
});

export const ZBotStatusChangeSchema = z.object({
  bot_id: z.string(),
  status: z.enum(['running', 'stopped', 'failed']),
  message: z.string(),
});

/**
 * Where a backtest of the user is (the answer comes on the request): from the moment it is accepted,
 * queued with the number of backtests that will start before it, then running with its candles done.
 */
export const ZBacktestProgressSchema = z.object({
  /** The bot backtested; null for "Run and Test Bot" on an unsaved bot. */
  bot_id: z.string().nullable(),
  state: z.enum(['queued', 'running']).default('running'),
  /** Backtests (anyone's) that will start before it, the running one included; 0 once it runs. */
  queue_ahead: z.number().int().default(0),
  candles_done: z.number(),
  candles_total: z.number(),
  progress_percentage: z.number(),
});
export type TBacktestProgress = z.infer<typeof ZBacktestProgressSchema>;

/**
 * Messages for one user, sent to every socket authenticated as that user (in every server process),
 * with no subscription. Bot messages also carry `message_type` (spec part 2 §3).
 */
export const ZUserMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('bot_timing_update'),
    message_type: z.literal('bot_timing_update'),
    data: ZBotTimingUpdateSchema,
  }),
  z.object({
    type: z.literal('bot_status_change'),
    message_type: z.literal('bot_status_change'),
    data: ZBotStatusChangeSchema,
  }),
  /** A spot order of the user changed (landed, filled by the keeper, cancelled). */
  z.object({ type: z.literal('order_update'), data: ZSpotOrderSchema }),
  z.object({ type: z.literal('backtest_progress'), data: ZBacktestProgressSchema }),
  /** One of the user's optimisations moved: queued, a trial done, or finished. */
  z.object({ type: z.literal('optimization_progress'), data: ZOptimizationProgressSchema }),
  /** The user's futures account changed (a deposit landed, a fill, funding, a liquidation with its reason). */
  z.object({
    type: z.literal('futures_update'),
    data: z.object({
      reason: z.enum(['deposit', 'withdraw', 'fill', 'funding', 'liquidation', 'cancel']),
      message: z.string(),
    }),
  }),
]);
export type TUserMessage = z.infer<typeof ZUserMessageSchema>;

/** The `type` of a per-user message: `bot_timing_update`, `order_update`, `futures_update`… */
export type UserMessageType = TUserMessage['type'];

/** The per-user message of one type. */
export type TUserMessageOf<T extends UserMessageType> = Extract<TUserMessage, { type: T }>;

/** Every per-user message type, read from {@link ZUserMessageSchema} (a client dispatches on these). */
export const USER_MESSAGE_TYPES: readonly UserMessageType[] = ZUserMessageSchema.options.map(
  (option) => option.shape.type.value,
);

/** Whether a server message's `type` is a per-user message type. */
export function isUserMessageType(type: unknown): type is UserMessageType {
  return USER_MESSAGE_TYPES.some((known) => known === type);
}

/** A message on a subscribed channel: `data` is checked against the channel's schema (see channels.ts). */
export const ZChannelMessageSchema = z
  .object({ type: z.literal('channel'), channel: z.string(), data: z.unknown() })
  .superRefine((message, context) => {
    if (!CHANNELS.isChannel(message.channel)) {
      context.addIssue({ code: 'custom', path: ['channel'], message: 'not a registered channel' });
      return;
    }
    try {
      CHANNELS.parse(message.channel, message.data);
    } catch {
      context.addIssue({ code: 'custom', path: ['data'], message: `not a payload of ${message.channel}` });
    }
  })
  .transform((message) => message as TChannelMessage);

/** Messages the server sends on /ws. */
export const ZServerMessageSchema = z.union([
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('auth_success'), user_id: z.string() }),
    z.object({ type: z.literal('error'), error: z.string() }),
    z.object({ type: z.literal('pong'), timestamp: z.number().optional() }),
    z.object({ type: z.literal('subscribed'), channel: z.string() }),
    z.object({ type: z.literal('unsubscribed'), channel: z.string() }),
  ]),
  ZUserMessageSchema,
  ZChannelMessageSchema,
]);
export type TServerMessage = z.infer<typeof ZServerMessageSchema>;
