import { z } from 'zod';

/** Where an alert is delivered: the in-app list (and a toast over /ws), email, the user's webhook. */
export const ALERT_CHANNELS = ['in_app', 'email', 'webhook'] as const;
export type TAlertChannel = (typeof ALERT_CHANNELS)[number];

export const PRICE_ALERT_CONDITIONS = ['above', 'below', 'change_percent'] as const;
export const BOT_ALERT_EVENTS = ['started', 'stopped', 'fill', 'error', 'completed'] as const;
export type TBotAlertEvent = (typeof BOT_ALERT_EVENTS)[number];

/** Limits of alerts (the README's Alerts section states them). */
export const ALERT_LIMITS = {
  /** Alerts one user may hold (active or triggered; delete some to make room). */
  maxAlertsPerUser: 50,
  /** Notifications one user may receive in any rolling hour; further triggers wait for room. */
  maxNotificationsPerHour: 30,
  /** Attempts at one webhook or email delivery before it is marked failed. */
  maxDeliveryAttempts: 6,
} as const;

/** A positive decimal written as a string or a number, kept as the string the user gave. */
const ZPositiveDecimal = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .refine((value) => /^\d{1,18}(\.\d{1,18})?$/.test(value) && Number(value) > 0, {
    message: 'value must be a positive decimal number',
  });

/** A signed percentage (change_percent: +5 is a rise of 5 %, −5 a fall of 5 %), never 0. */
const ZSignedPercent = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .refine((value) => /^-?\d{1,6}(\.\d{1,6})?$/.test(value) && Number(value) !== 0, {
    message: 'value must be a non-zero percentage',
  });

const ZChannels = z
  .array(z.enum(ALERT_CHANNELS))
  .min(1, { message: 'choose at least one channel' })
  .max(ALERT_CHANNELS.length)
  .default(['in_app'])
  .transform((channels) => [...new Set(channels)]);

export const ZPriceAlertCreateSchema = z
  .object({
    kind: z.literal('price'),
    pair: z.string({ message: 'pair is required' }).trim().min(1).max(40),
    condition: z.enum(PRICE_ALERT_CONDITIONS),
    value: z.union([z.string(), z.number()]),
    /** change_percent only: the change over the last N minutes (else since the alert was created). */
    window_minutes: z.number().int().min(1).max(1440).optional(),
    channels: ZChannels,
  })
  .transform((alert, context) => {
    const parsed = (alert.condition === 'change_percent' ? ZSignedPercent : ZPositiveDecimal).safeParse(
      alert.value,
    );
    if (!parsed.success) {
      context.addIssue({ code: 'custom', path: ['value'], message: parsed.error.issues[0]!.message });
      return z.NEVER;
    }
    if (alert.window_minutes !== undefined && alert.condition !== 'change_percent') {
      context.addIssue({
        code: 'custom',
        path: ['window_minutes'],
        message: 'window_minutes applies to change_percent only',
      });
      return z.NEVER;
    }
    return { ...alert, value: parsed.data };
  });

export const ZBotAlertCreateSchema = z.object({
  kind: z.literal('bot'),
  bot_id: z.uuid({ message: 'bot_id must be a bot id' }),
  events: z
    .array(z.enum(BOT_ALERT_EVENTS))
    .min(1, { message: 'choose at least one event' })
    .max(BOT_ALERT_EVENTS.length)
    .transform((events) => [...new Set(events)]),
  channels: ZChannels,
});

export const ZLiquidationAlertCreateSchema = z.object({
  kind: z.literal('liquidation_risk'),
  /** A perp market (SOL-PERP); absent: every position. */
  symbol: z.string().trim().min(1).max(32).optional(),
  /** Fires when the mark is within this percent of a position's liquidation price. */
  distance_percent: z.number().gt(0).max(100),
  channels: ZChannels,
});

/** POST /api/alerts. */
export const ZAlertCreateSchema = z.discriminatedUnion('kind', [
  ZPriceAlertCreateSchema,
  ZBotAlertCreateSchema,
  ZLiquidationAlertCreateSchema,
]);
export type TAlertCreate = z.output<typeof ZAlertCreateSchema>;
export type TAlertCreateInput = z.input<typeof ZAlertCreateSchema>;

const ZAlertCommon = {
  id: z.string(),
  channels: z.array(z.enum(ALERT_CHANNELS)),
  /** active: watching; triggered: a one-shot price alert that fired (bot and futures alerts stay active). */
  status: z.enum(['active', 'triggered']),
  created_at: z.string(),
  triggered_at: z.string().nullable(),
  /** A short human description ("SOL/USDC above 150"). */
  label: z.string(),
};

export const ZAlertSchema = z.discriminatedUnion('kind', [
  z.object({
    ...ZAlertCommon,
    kind: z.literal('price'),
    pair: z.string(),
    condition: z.enum(PRICE_ALERT_CONDITIONS),
    value: z.string(),
    window_minutes: z.number().nullable(),
    /** change_percent without a window: the price when the alert was created. */
    reference_price: z.string().nullable(),
  }),
  z.object({
    ...ZAlertCommon,
    kind: z.literal('bot'),
    bot_id: z.string(),
    events: z.array(z.enum(BOT_ALERT_EVENTS)),
  }),
  z.object({
    ...ZAlertCommon,
    kind: z.literal('liquidation_risk'),
    symbol: z.string().nullable(),
    distance_percent: z.number(),
  }),
]);
export type TAlert = z.infer<typeof ZAlertSchema>;

export const ZAlertIdParamsSchema = z.object({ id: z.uuid({ message: 'Alert not found' }) });

/** One notification: what an alert's trigger said, once. */
export const ZNotificationSchema = z.object({
  id: z.string(),
  alert_id: z.string().nullable(),
  kind: z.enum(['price', 'bot', 'liquidation_risk']),
  title: z.string(),
  body: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type TNotification = z.infer<typeof ZNotificationSchema>;

export const ZNotificationListSchema = z.object({
  items: z.array(ZNotificationSchema),
  unread_count: z.number().int(),
});
export type TNotificationList = z.infer<typeof ZNotificationListSchema>;

export const ZNotificationsReadSchema = z.object({
  /** The notifications to mark read; absent: all of them. */
  ids: z.array(z.uuid()).max(200).optional(),
});

/** What `notifications:<userId>` carries: a new notification and the unread count after it. */
export const ZNotificationTickSchema = z.object({
  notification: ZNotificationSchema.nullable(),
  unread_count: z.number().int(),
});
export type TNotificationTick = z.infer<typeof ZNotificationTickSchema>;

export const ZWebhookSettingsSchema = z.object({
  url: z.string().nullable(),
  /** Whether a signing secret exists (it is shown once, when created or rotated). */
  has_secret: z.boolean(),
  created_at: z.string().nullable(),
});
export type TWebhookSettings = z.infer<typeof ZWebhookSettingsSchema>;

export const ZWebhookSetSchema = z.object({
  url: z.string().trim().min(1).max(2000),
});

/** The answer that shows the signing secret: once, when it is created or rotated. */
export const ZWebhookSecretSchema = ZWebhookSettingsSchema.extend({ secret: z.string().nullable() });
export type TWebhookSecret = z.infer<typeof ZWebhookSecretSchema>;

export const ZAlertDeliverySchema = z.object({
  id: z.string(),
  notification_id: z.string(),
  channel: z.enum(['email', 'webhook']),
  /** The webhook URL or the email address at the time of the trigger. */
  target: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type TAlertDelivery = z.infer<typeof ZAlertDeliverySchema>;

/** The JSON body POSTed to a webhook (signed: X-Solterm-Signature: sha256=<hex HMAC of the body>). */
export interface TWebhookPayload {
  delivery_id: string;
  notification: TNotification;
}
