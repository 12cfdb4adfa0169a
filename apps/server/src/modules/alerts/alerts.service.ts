import { randomBytes } from 'node:crypto';
import {
  ALERT_LIMITS,
  notificationsChannel,
  type TAlert,
  type TAlertCreate,
  type TAlertDelivery,
  type TFuturesPosition,
  type TNotification,
  type TNotificationList,
  type TWebhookPayload,
  type TWebhookSecret,
  type TWebhookSettings,
} from '@solterm/contracts';
import { Dec } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import { decryptSecret, encryptSecret } from '../../lib/server-keys';
import type { EmailService } from '../email/email.service';
import type { RealtimeHub } from '../realtime/realtime.service';
import {
  alertToWire,
  botTriggers,
  liquidationTriggers,
  priceTrigger,
  type BotRunActivity,
  type StoredRule,
} from './alert-rules';
import type {
  AlertRow,
  AlertsRepository,
  DeliveryRow,
  NewDelivery,
  NotificationRow,
  Trigger,
} from './alerts.repository';
import { postWebhook, signBody } from './webhook-sender';
import { checkWebhookUrl, WebhookTargetError } from './webhook-target';

const HOUR_MS = 3_600_000;
/** The first retry's delay; each next one doubles it. */
const RETRY_BASE_MS = 5_000;

/** What alerts read from the modules below them (wired by the composition root). */
export interface AlertSources {
  /** The pair's price now (quote per base). @throws for an unknown pair. */
  pairPrice(pair: string): Promise<{ pair: string; price: Dec }>;
  /** The pair's price `minutes` ago (the open of that minute's candle), null when unknown. */
  pairPriceAgo(pair: string, minutes: number): Promise<Dec | null>;
  /** Whether the user owns the bot. */
  ownsBot(userId: string, botId: string): Promise<boolean>;
  /** Runs of these bots active or ended since `since`, with their fills since then. */
  botActivity(botIds: readonly string[], since: Date): Promise<BotRunActivity[]>;
  /** The user's open futures positions; absent where the venue has no trading. */
  positions?: (userId: string) => Promise<TFuturesPosition[]>;
  /** The user's email address, null when the account has none (a wallet sign-in). */
  emailOf(userId: string): Promise<string | null>;
}

export interface AlertsServiceDeps {
  repo: AlertsRepository;
  sources: AlertSources;
  email: EmailService;
  hub: RealtimeHub;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The operator's ALERT_WEBHOOK_ALLOW_PRIVATE: webhooks may reach private and loopback addresses. */
  allowPrivateWebhooks: boolean;
  /**
   * The key webhook secrets are stored under (AES-256-GCM, bound to the user): the server must keep a
   * secret it can sign with, so it cannot be hashed, but a copy of the database alone does not let
   * anyone sign bodies a user's receiver would trust.
   */
  secretKey: Uint8Array;
}

export function notificationToWire(row: NotificationRow): TNotification {
  return {
    id: row.id,
    alert_id: row.alertId,
    kind: row.kind as TNotification['kind'],
    title: row.title,
    body: row.body,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt?.toISOString() ?? null,
  };
}

function deliveryToWire(row: DeliveryRow): TAlertDelivery {
  return {
    id: row.id,
    notification_id: row.notificationId,
    channel: row.channel as TAlertDelivery['channel'],
    target: row.target,
    status: row.status === 'delivered' || row.status === 'failed' ? row.status : 'pending',
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Price, bot and futures alerts: their CRUD, the evaluation pass (a singleton job) that records each
 * trigger once and pushes it to the user's sockets, and the deliveries pass that emails and POSTs it.
 */
export function createAlertsService(deps: AlertsServiceDeps) {
  const { repo, sources, now } = deps;
  const sealSecret = (userId: string, secret: string) =>
    encryptSecret(deps.secretKey, Buffer.from(secret, 'utf8'), `webhook:${userId}`);
  const openSecret = (userId: string, sealed: string) =>
    Buffer.from(decryptSecret(deps.secretKey, sealed, `webhook:${userId}`)).toString('utf8');

  async function checkChannels(userId: string, channels: readonly string[]): Promise<void> {
    if (channels.includes('email') && !(await sources.emailOf(userId)))
      throw new AppError('ALERTS__EMAIL_REQUIRED');
    if (channels.includes('webhook') && !(await repo.webhookOf(userId)))
      throw new AppError('ALERTS__WEBHOOK_REQUIRED');
  }

  /** The rule as stored, and the reference price of a change_percent alert without a window. */
  async function storedRule(
    userId: string,
    request: TAlertCreate,
  ): Promise<{ rule: StoredRule; reference: string | null }> {
    if (request.kind === 'price') {
      const priced = await sources.pairPrice(request.pair).catch(() => {
        throw new AppError('ALERTS__PAIR_UNKNOWN');
      });
      const { kind: _kind, channels: _channels, ...rule } = { ...request, pair: priced.pair };
      const reference =
        request.condition === 'change_percent' && !request.window_minutes ? priced.price.toFixed() : null;
      return { rule, reference };
    }
    if (request.kind === 'bot') {
      if (!(await sources.ownsBot(userId, request.bot_id))) throw new AppError('BOTS__NOT_FOUND');
      return { rule: { bot_id: request.bot_id, events: request.events }, reference: null };
    }
    if (!sources.positions) throw new AppError('ALERTS__FUTURES_UNAVAILABLE');
    return { rule: { symbol: request.symbol, distance_percent: request.distance_percent }, reference: null };
  }

  async function publish(userId: string, notification: TNotification | null): Promise<void> {
    const unread = await repo.unreadCount(userId);
    await deps.hub
      .publishChannel(notificationsChannel(userId), { notification, unread_count: unread })
      .catch(() => undefined);
  }

  /** Email and webhook deliveries of a trigger, their bodies fixed now. */
  async function deliveriesOf(alert: AlertRow, trigger: Trigger) {
    const channels = alert.channels as string[];
    const email = channels.includes('email') ? await sources.emailOf(alert.userId) : null;
    const webhook = channels.includes('webhook') ? await repo.webhookOf(alert.userId) : undefined;
    return (notificationId: string): NewDelivery[] => {
      const rows: NewDelivery[] = [];
      if (email) {
        const text = `${trigger.body}\n\nManage your alerts in solterm under Alerts.`;
        rows.push({
          channel: 'email',
          target: email,
          payload: JSON.stringify({ subject: `Alert: ${trigger.title}`, text }),
        });
      }
      if (webhook) {
        const notification: TNotification = {
          id: notificationId,
          alert_id: alert.id,
          kind: alert.kind as TNotification['kind'],
          title: trigger.title,
          body: trigger.body,
          created_at: now().toISOString(),
          read_at: null,
        };
        rows.push({ channel: 'webhook', target: webhook.url, payload: JSON.stringify({ notification }) });
      }
      return rows;
    };
  }

  /** The triggers of one alert now. */
  async function triggersOf(
    alert: AlertRow,
    activity: Map<string, BotRunActivity[]>,
    positions: Map<string, Promise<TFuturesPosition[]>>,
  ): Promise<Trigger[]> {
    const rule = alert.rule as StoredRule;
    if (alert.kind === 'price' && 'pair' in rule) {
      const { price } = await sources.pairPrice(rule.pair);
      const reference =
        rule.condition !== 'change_percent'
          ? null
          : rule.window_minutes
            ? await sources.pairPriceAgo(rule.pair, rule.window_minutes)
            : alert.referencePrice
              ? new Dec(alert.referencePrice)
              : null;
      const trigger = priceTrigger(rule, price, reference);
      return trigger ? [trigger] : [];
    }
    if (alert.kind === 'bot' && 'bot_id' in rule) {
      return botTriggers(rule.events, activity.get(rule.bot_id) ?? [], alert.createdAt);
    }
    if (alert.kind === 'liquidation_risk' && 'distance_percent' in rule && sources.positions) {
      let held = positions.get(alert.userId);
      if (!held) positions.set(alert.userId, (held = sources.positions(alert.userId)));
      return liquidationTriggers(rule, await held);
    }
    return [];
  }

  return {
    async create(userId: string, request: TAlertCreate): Promise<TAlert> {
      await checkChannels(userId, request.channels);
      const { rule, reference } = await storedRule(userId, request);
      const row = await repo.insert(
        {
          userId,
          kind: request.kind,
          rule,
          channels: request.channels,
          referencePrice: reference,
          createdAt: now(),
        },
        ALERT_LIMITS.maxAlertsPerUser,
      );
      if (!row) throw new AppError('ALERTS__LIMIT_REACHED');
      return alertToWire(row);
    },

    async list(userId: string): Promise<TAlert[]> {
      return (await repo.list(userId)).map(alertToWire);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.remove(userId, id))) throw new AppError('ALERTS__NOT_FOUND');
    },

    async notifications(userId: string, limit: number): Promise<TNotificationList> {
      const [rows, unread] = await Promise.all([repo.notifications(userId, limit), repo.unreadCount(userId)]);
      return { items: rows.map(notificationToWire), unread_count: unread };
    },

    async markRead(userId: string, ids: readonly string[] | undefined): Promise<number> {
      await repo.markRead(userId, ids);
      void publish(userId, null);
      return repo.unreadCount(userId);
    },

    async webhook(userId: string): Promise<TWebhookSettings> {
      const row = await repo.webhookOf(userId);
      return {
        url: row?.url ?? null,
        has_secret: row !== undefined,
        created_at: row?.createdAt.toISOString() ?? null,
      };
    },

    /** Sets the URL (checked now, and again at every connection); the secret is shown when new. */
    async setWebhook(userId: string, url: string, rotate: boolean): Promise<TWebhookSecret> {
      const checked = await checkWebhookUrl(url, deps.allowPrivateWebhooks).catch((error: unknown) => {
        if (error instanceof WebhookTargetError)
          throw new AppError('ALERTS__WEBHOOK_URL_INVALID', `Webhook URL refused: ${error.message}`);
        throw error;
      });
      const existing = await repo.webhookOf(userId);
      const fresh = !existing || rotate;
      const secret = `whsec_${randomBytes(24).toString('hex')}`;
      const row = await repo.setWebhook(userId, checked.toString(), sealSecret(userId, secret), fresh);
      return {
        url: row.url,
        has_secret: true,
        created_at: row.createdAt.toISOString(),
        // The stored one: a concurrent first save may have created the webhook with its own.
        secret: fresh ? openSecret(userId, row.secret) : null,
      };
    },

    async removeWebhook(userId: string): Promise<void> {
      await repo.removeWebhook(userId);
    },

    async deliveries(userId: string, limit: number): Promise<TAlertDelivery[]> {
      return (await repo.deliveries(userId, limit)).map(deliveryToWire);
    },

    /**
     * One evaluation pass: every active alert's triggers, each recorded once (repo.fire) while the
     * user has room in the hour's notification budget; a trigger over it waits for a later pass.
     */
    async evaluate(): Promise<number> {
      const active = await repo.active();
      if (active.length === 0) return 0;
      const fired = await repo.firedKeys(
        active.filter((alert) => alert.kind !== 'price').map((alert) => alert.id),
      );
      const botIds = [
        ...new Set(active.filter((a) => a.kind === 'bot').map((a) => (a.rule as { bot_id: string }).bot_id)),
      ];
      const earliest = active.reduce((min, alert) => (alert.createdAt < min ? alert.createdAt : min), now());
      const activity = new Map<string, BotRunActivity[]>();
      if (botIds.length > 0) {
        for (const run of await sources.botActivity(botIds, earliest)) {
          activity.set(run.botId, [...(activity.get(run.botId) ?? []), run]);
        }
      }
      const positions = new Map<string, Promise<TFuturesPosition[]>>();
      const budget = new Map<string, number>();
      let count = 0;
      for (const alert of active) {
        try {
          const triggers = (await triggersOf(alert, activity, positions)).filter(
            (trigger) => !fired.has(`${alert.id}|${trigger.key}`),
          );
          for (const trigger of triggers) {
            let left = budget.get(alert.userId);
            if (left === undefined) {
              left =
                ALERT_LIMITS.maxNotificationsPerHour -
                (await repo.notificationsSince(alert.userId, new Date(now().getTime() - HOUR_MS)));
            }
            if (left <= 0) break;
            const notification = await repo.fire(alert, trigger, await deliveriesOf(alert, trigger));
            budget.set(alert.userId, notification ? left - 1 : left);
            if (!notification) continue;
            count++;
            await publish(alert.userId, notificationToWire(notification));
          }
        } catch (error) {
          deps.log.warn({ err: error, alertId: alert.id }, 'alert evaluation failed');
        }
      }
      return count;
    },

    /** One deliveries pass: due email and webhook deliveries, each attempt claimed once. */
    async deliverDue(): Promise<number> {
      let done = 0;
      for (const row of await repo.due(50)) {
        const attempt = row.attempts + 1;
        const retryAt = new Date(now().getTime() + RETRY_BASE_MS * 2 ** (attempt - 1));
        if (!(await repo.claimAttempt(row, retryAt))) continue;
        const outcome = await attemptDelivery(row);
        if (outcome.ok) {
          await repo.recordAttempt(row.id, {
            status: 'delivered',
            lastStatusCode: outcome.status,
            lastError: null,
          });
          done++;
          continue;
        }
        const final = !outcome.retry || attempt >= ALERT_LIMITS.maxDeliveryAttempts;
        await repo.recordAttempt(row.id, {
          status: final ? 'failed' : 'pending',
          lastStatusCode: outcome.status,
          lastError: outcome.error,
          nextAttemptAt: final ? null : retryAt,
        });
      }
      return done;
    },
  };

  async function attemptDelivery(row: DeliveryRow) {
    if (row.channel === 'email') {
      try {
        const { subject, text } = JSON.parse(row.payload) as { subject: string; text: string };
        await deps.email.send({ to: row.target, subject, text });
        return { ok: true as const, status: null };
      } catch (error) {
        return {
          ok: false as const,
          status: null,
          error: (error as Error).message.slice(0, 200),
          retry: true,
        };
      }
    }
    const webhook = await repo.webhookOf(row.userId);
    if (!webhook) return { ok: false as const, status: null, error: 'the webhook was removed', retry: false };
    const body = JSON.stringify({
      delivery_id: row.id,
      ...(JSON.parse(row.payload) as Omit<TWebhookPayload, 'delivery_id'>),
    });
    return postWebhook(
      row.target,
      body,
      { signature: signBody(openSecret(row.userId, webhook.secret), body), deliveryId: row.id },
      deps.allowPrivateWebhooks,
    );
  }
}

export type AlertsService = ReturnType<typeof createAlertsService>;
