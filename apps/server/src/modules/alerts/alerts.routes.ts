import type { preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  success,
  ZAlertCreateSchema,
  ZAlertDeliverySchema,
  ZAlertIdParamsSchema,
  ZAlertSchema,
  ZNotificationListSchema,
  ZNotificationsReadSchema,
  ZWebhookSecretSchema,
  ZWebhookSetSchema,
  ZWebhookSettingsSchema,
} from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import { authOf } from '../../plugins/authenticate';
import type { AlertsService } from './alerts.service';

/** Creating, deleting and webhook changes (a webhook change resolves DNS): bounded per client. */
export const ALERT_WRITE_RATE_LIMIT = { max: 30, timeWindow: 60_000 };

const ZLimitQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(100, { message: 'limit must be at most 100' })
    .default(50),
});

interface AlertsRoutesDeps {
  alerts: AlertsService;
  requireAuth: preHandlerAsyncHookHandler;
}

const security = [{ bearerAuth: [] }];
const tags = ['alerts'];

/** Price, bot and futures alerts; the notifications they sent; the user's webhook and its deliveries. */
export function registerAlertsRoutes(app: ZodApp, deps: AlertsRoutesDeps): void {
  const { alerts, requireAuth } = deps;
  const write = { rateLimit: ALERT_WRITE_RATE_LIMIT };
  registerNotificationRoutes(app, deps);
  registerWebhookRoutes(app, deps);

  app.post('/api/alerts', {
    preHandler: requireAuth,
    config: write,
    schema: {
      tags,
      security,
      summary: 'Create a price, bot or liquidation-risk alert',
      description:
        'kind price: pair, condition above|below|change_percent, value (a price, or a signed percent), window_minutes (change_percent only). kind bot: bot_id, events. kind liquidation_risk: symbol?, distance_percent. channels: in_app, email, webhook (default in_app).',
      body: ZAlertCreateSchema,
      response: { 200: success(ZAlertSchema) },
    },
    handler: async (request) => ok(await alerts.create(authOf(request).user.id, request.body)),
  });

  app.get('/api/alerts', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "The caller's alerts, newest first",
      response: { 200: success(z.array(ZAlertSchema)) },
    },
    handler: async (request) => ok(await alerts.list(authOf(request).user.id)),
  });

  app.delete('/api/alerts/:id', {
    preHandler: requireAuth,
    config: write,
    schema: {
      tags,
      security,
      summary: 'Delete an alert (its notifications stay)',
      params: ZAlertIdParamsSchema,
      response: { 200: success(z.object({ id: z.string() })) },
    },
    handler: async (request) => {
      await alerts.remove(authOf(request).user.id, request.params.id);
      return ok({ id: request.params.id });
    },
  });
}

/** The notifications list, its unread count, marking read. */
function registerNotificationRoutes(app: ZodApp, deps: AlertsRoutesDeps): void {
  const { alerts, requireAuth } = deps;
  app.get('/api/alerts/notifications', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Notifications, newest first, and the unread count',
      querystring: ZLimitQuerySchema,
      response: { 200: success(ZNotificationListSchema) },
    },
    handler: async (request) => ok(await alerts.notifications(authOf(request).user.id, request.query.limit)),
  });

  app.post('/api/alerts/notifications/read', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'Mark notifications read (all without ids)',
      body: ZNotificationsReadSchema,
      response: { 200: success(z.object({ unread_count: z.number().int() })) },
    },
    handler: async (request) =>
      ok({ unread_count: await alerts.markRead(authOf(request).user.id, request.body.ids) }),
  });
}

/** The user's webhook (its secret answered once) and the delivery log. */
function registerWebhookRoutes(app: ZodApp, deps: AlertsRoutesDeps): void {
  const { alerts, requireAuth } = deps;
  const write = { rateLimit: ALERT_WRITE_RATE_LIMIT };
  app.get('/api/alerts/webhook', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: "The caller's webhook URL (never its secret)",
      response: { 200: success(ZWebhookSettingsSchema) },
    },
    handler: async (request) => ok(await alerts.webhook(authOf(request).user.id)),
  });

  app.post('/api/alerts/webhook', {
    preHandler: requireAuth,
    config: write,
    schema: {
      tags,
      security,
      summary: 'Set the webhook URL; the signing secret is answered once, when first created',
      description:
        'http(s) only; private, loopback and link-local addresses are refused (also when a name resolves to one, checked again at each connection) unless the operator sets ALERT_WEBHOOK_ALLOW_PRIVATE=on.',
      body: ZWebhookSetSchema,
      response: { 200: success(ZWebhookSecretSchema) },
    },
    handler: async (request) => ok(await alerts.setWebhook(authOf(request).user.id, request.body.url, false)),
  });

  app.post('/api/alerts/webhook/rotate', {
    preHandler: requireAuth,
    config: write,
    schema: {
      tags,
      security,
      summary: 'A new signing secret, answered once',
      body: ZWebhookSetSchema,
      response: { 200: success(ZWebhookSecretSchema) },
    },
    handler: async (request) => ok(await alerts.setWebhook(authOf(request).user.id, request.body.url, true)),
  });

  app.delete('/api/alerts/webhook', {
    preHandler: requireAuth,
    config: write,
    schema: {
      tags,
      security,
      summary: 'Remove the webhook (its pending deliveries fail)',
      response: { 200: success(z.object({ removed: z.literal(true) })) },
    },
    handler: async (request) => {
      await alerts.removeWebhook(authOf(request).user.id);
      return ok({ removed: true as const });
    },
  });

  app.get('/api/alerts/deliveries', {
    preHandler: requireAuth,
    schema: {
      tags,
      security,
      summary: 'The delivery log of email and webhook notifications, newest first',
      querystring: ZLimitQuerySchema,
      response: { 200: success(z.array(ZAlertDeliverySchema)) },
    },
    handler: async (request) => ok(await alerts.deliveries(authOf(request).user.id, request.query.limit)),
  });
}
