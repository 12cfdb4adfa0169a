import { z } from 'zod';
import { USER_MESSAGES, ZChannelDataSchema } from './channels';

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

/** Messages the server sends on /ws. Bot messages also carry `message_type` (spec part 2 §3). */
export const ZServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth_success'), user_id: z.string() }),
  z.object({ type: z.literal('error'), error: z.string() }),
  z.object({ type: z.literal('pong'), timestamp: z.number().optional() }),
  z.object({ type: z.literal('subscribed'), channel: z.string() }),
  z.object({ type: z.literal('unsubscribed'), channel: z.string() }),
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
  z.object({ type: z.literal('channel'), channel: z.string(), data: ZChannelDataSchema }),
  /** A spot order of the user changed (landed, filled by the keeper, cancelled). */
  z.object({ type: z.literal('order_update'), data: USER_MESSAGES.order_update }),
]);
export type TServerMessage = z.infer<typeof ZServerMessageSchema>;
