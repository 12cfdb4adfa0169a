import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ALERT_LIMITS,
  DEFAULT_BOT_CONFIG,
  notificationsChannel,
  type TAlert,
  type TAlertDelivery,
  type TBot,
  type TNotificationList,
  type TWebhookSecret,
} from '@solterm/contracts';
import { alertWebhooks, alerts as alertsTable } from '../src/modules/alerts/alerts.tables';
import { postWebhook } from '../src/modules/alerts/webhook-sender';
import {
  bearer,
  call,
  createClock,
  createTestApp,
  databaseTargets,
  openTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
} from './helpers/test-app';
import { listen, TestSocket } from './helpers/ws-client';

// Alerts end to end: the API, the evaluation pass (each trigger once, also with two processes
// evaluating at the same time), every channel (a /ws push, the email outbox, a signed webhook POST to
// a local receiver, retried with backoff), the per-user limits, and the webhook address rules —
// private and loopback targets refused as literals, through DNS, through redirects and when DNS
// changes its answer between the check and the connection (rebinding).

const NOW = new Date('2026-01-15T12:00:30Z');

/** A local webhook receiver: records each request's headers and raw body; answers `statuses` in turn. */
async function receiver(statuses: number[] = [200], headers: Record<string, string> = {}) {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(statuses.shift() ?? 200, headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The README's recipe: HMAC-SHA256 of the raw body under the secret, hex, after "sha256=". */
function verify(secret: string, body: string, header: string | undefined): boolean {
  return header === `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

describe.each(databaseTargets())('alerts on %s', (target) => {
  let database: TestDatabase;
  /** Webhooks may reach loopback here (ALERT_WEBHOOK_ALLOW_PRIVATE=on), for the local receivers. */
  let app: TestApp;
  /** A second process on the same database, with the default rule: private targets refused. */
  let strict: TestApp;
  const clock = createClock(NOW);

  beforeAll(async () => {
    database = await openTestDatabase(target);
    const env = { MARKET_SEED: 'alerts', MARKET_TICK_MS: '3600000', JOBS: 'off' };
    [app, strict] = await Promise.all([
      createTestApp({ database, clock, env: { ...env, ALERT_WEBHOOK_ALLOW_PRIVATE: 'on' } }),
      createTestApp({ database, clock, env }),
    ]);
    // Two embedded clusters boot here: on a busy machine that can take longer than the default hook limit.
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await strict?.close();
    await database?.cleanup();
  });

  afterEach(() => vi.restoreAllMocks());

  const as = (token: string, on: TestApp = app) => ({
    post: <T>(url: string, payload: object = {}) =>
      call<T>(on, { method: 'POST', url, payload, headers: bearer(token) }),
    get: <T>(url: string) => call<T>(on, { method: 'GET', url, headers: bearer(token) }),
    del: <T>(url: string) => call<T>(on, { method: 'DELETE', url, headers: bearer(token) }),
  });
  /** The pair's price now, as the evaluation reads it. */
  const priceOf = async (pair: string) =>
    Number(
      (await call<{ price: number }>(app, { method: 'GET', url: `/api/trading/pair/${pair}` })).body.data
        .price,
    );

  it('refuses anonymous callers, bad rules and other users’ alerts and bots', async () => {
    const alice = await registerUser(app);
    const bob = await registerUser(app);
    expect((await call(app, { method: 'GET', url: '/api/alerts' })).status).toBe(401);
    const docs = (await app.server.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: object;
    }>();
    expect(Object.keys(docs.paths)).toEqual(expect.arrayContaining(['/api/alerts', '/api/alerts/webhook']));
    expect(
      (
        await call(app, {
          method: 'POST',
          url: '/api/alerts',
          payload: { kind: 'liquidation_risk', distance_percent: 5 },
        })
      ).status,
    ).toBe(401);
    const bad = [
      { kind: 'price', pair: 'SOL/USDC', condition: 'above', value: -1 },
      { kind: 'price', pair: 'SOL/USDC', condition: 'sideways', value: 1 },
      { kind: 'price', pair: 'SOL/USDC', condition: 'above', value: 1, window_minutes: 5 },
      { kind: 'price', pair: 'SOL/USDC', condition: 'change_percent', value: 0 },
      { kind: 'bot', bot_id: 'not-a-uuid', events: ['fill'] },
      { kind: 'bot', bot_id: crypto.randomUUID(), events: [] },
      { kind: 'liquidation_risk', distance_percent: 0 },
      { kind: 'price', pair: 'SOL/USDC', condition: 'above', value: 1, channels: ['sms'] },
      { kind: 'weather' },
    ];
    for (const payload of bad)
      expect((await as(alice.token).post('/api/alerts', payload)).status, JSON.stringify(payload)).toBe(400);
    expect(
      (
        await as(alice.token).post('/api/alerts', {
          kind: 'price',
          pair: 'NOPE/USDC',
          condition: 'above',
          value: 1,
        })
      ).body.code,
    ).toBe('ALERTS__PAIR_UNKNOWN');
    // Webhook channel before a webhook is set.
    expect(
      (
        await as(alice.token).post('/api/alerts', {
          kind: 'price',
          pair: 'SOL/USDC',
          condition: 'above',
          value: 1,
          channels: ['webhook'],
        })
      ).body.code,
    ).toBe('ALERTS__WEBHOOK_REQUIRED');

    const bot = (
      await as(bob.token).post<TBot>('/api/bots', {
        name: 'Bob bot',
        strategy_type: 'sma_crossover',
        config: DEFAULT_BOT_CONFIG,
      })
    ).body.data;
    expect(
      (await as(alice.token).post('/api/alerts', { kind: 'bot', bot_id: bot.bot_id, events: ['fill'] }))
        .status,
    ).toBe(404);

    const mine = await as(alice.token).post<TAlert>('/api/alerts', {
      kind: 'price',
      pair: 'SOL/USDC',
      condition: 'below',
      value: '0.0001',
    });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      kind: 'price',
      status: 'active',
      channels: ['in_app'],
      label: 'SOL/USDC below 0.0001',
    });
    expect((await as(bob.token).get<TAlert[]>('/api/alerts')).body.data).toEqual([]);
    expect((await as(bob.token).del(`/api/alerts/${mine.body.data.id}`)).status).toBe(404);
    expect((await as(alice.token).get<TAlert[]>('/api/alerts')).body.data.map((a) => a.id)).toEqual([
      mine.body.data.id,
    ]);
    expect((await as(alice.token).del(`/api/alerts/${mine.body.data.id}`)).status).toBe(200);
    expect((await as(alice.token).get<TAlert[]>('/api/alerts')).body.data).toEqual([]);
  });

  it('fires a price alert once, on every channel, also when two processes evaluate at once', async () => {
    const alice = await registerUser(app);
    const hook = await receiver();
    try {
      const set = await as(alice.token).post<TWebhookSecret>('/api/alerts/webhook', { url: hook.url });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const secret = set.body.data.secret!;
      expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
      // Stored sealed under the operator's key: the database alone cannot sign a body.
      const [stored] = await database.database.db
        .select({ secret: alertWebhooks.secret })
        .from(alertWebhooks)
        .where(eq(alertWebhooks.userId, alice.user.id));
      expect(stored!.secret).not.toContain(secret.slice('whsec_'.length));
      expect(stored!.secret).not.toMatch(/^whsec_/);
      // The secret is shown once: never again on reads or on a URL change.
      expect((await as(alice.token).get('/api/alerts/webhook')).body.data).toEqual({
        url: hook.url,
        has_secret: true,
        created_at: expect.any(String),
      });
      expect(
        (await as(alice.token).post<TWebhookSecret>('/api/alerts/webhook', { url: hook.url })).body.data
          .secret,
      ).toBeNull();

      const socket = await TestSocket.authenticated(await listen(app), alice.token);
      socket.send({ type: 'subscribe', channel: notificationsChannel(alice.user.id) });
      expect(await socket.next()).toMatchObject({ type: 'subscribed' });

      const price = await priceOf('SOL/USDC');
      // Already true at creation: below the price, "above" holds.
      const created = await as(alice.token).post<TAlert>('/api/alerts', {
        kind: 'price',
        pair: 'SOL/USDC',
        condition: 'above',
        value: String(price / 2),
        channels: ['in_app', 'email', 'webhook'],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const fired = await Promise.all([
        app.alerts.evaluate(),
        strict.alerts.evaluate(),
        app.alerts.evaluate(),
      ]);
      expect(fired.reduce((a, b) => a + b, 0)).toBe(1);
      expect(await app.alerts.evaluate()).toBe(0);

      const pushed = await socket.next();
      expect(pushed).toMatchObject({
        type: 'channel',
        channel: notificationsChannel(alice.user.id),
        data: {
          unread_count: 1,
          notification: {
            alert_id: created.body.data.id,
            kind: 'price',
            title: `SOL/USDC is above ${price / 2}`,
          },
        },
      });
      await socket.close();

      const list = (await as(alice.token).get<TNotificationList>('/api/alerts/notifications')).body.data;
      expect(list.unread_count).toBe(1);
      expect(list.items).toHaveLength(1);
      expect((await as(alice.token).get<TAlert[]>('/api/alerts')).body.data[0]).toMatchObject({
        status: 'triggered',
        triggered_at: expect.any(String),
      });

      // Email and webhook: delivered by the deliveries pass, each once (two passes at once).
      await Promise.all([app.alerts.deliverDue(), app.alerts.deliverDue()]);
      const outbox = (
        await call<{ subject: string }[]>(app, {
          method: 'GET',
          url: `/api/dev/outbox?to=${encodeURIComponent(alice.email)}&limit=5`,
        })
      ).body.data;
      expect(outbox.map((mail) => mail.subject)).toEqual([`Alert: SOL/USDC is above ${price / 2}`]);
      expect(hook.received).toHaveLength(1);
      const [post] = hook.received;
      expect(verify(secret, post!.body, post!.headers['x-solterm-signature'] as string)).toBe(true);
      expect(verify('whsec_other', post!.body, post!.headers['x-solterm-signature'] as string)).toBe(false);
      const payload = JSON.parse(post!.body) as { delivery_id: string; notification: { id: string } };
      expect(payload.notification.id).toBe(list.items[0]!.id);
      expect(post!.headers['x-solterm-delivery']).toBe(payload.delivery_id);
      const log = (await as(alice.token).get<TAlertDelivery[]>('/api/alerts/deliveries')).body.data;
      expect(log.map((d) => [d.channel, d.status, d.attempts]).sort()).toEqual([
        ['email', 'delivered', 1],
        ['webhook', 'delivered', 1],
      ]);

      expect((await as(alice.token).post('/api/alerts/notifications/read', {})).body.data).toEqual({
        unread_count: 0,
      });
    } finally {
      await hook.close();
    }
  });

  it('retries a failing webhook with backoff, the same signed bytes each time, then gives up', async () => {
    const alice = await registerUser(app);
    const hook = await receiver([500, 503, 200]);
    try {
      await as(alice.token).post('/api/alerts/webhook', { url: hook.url });
      await as(alice.token).post('/api/alerts', {
        kind: 'price',
        pair: 'SOL/USDC',
        condition: 'above',
        value: '0.0001',
        channels: ['webhook'],
      });
      expect(await app.alerts.evaluate()).toBe(1);
      await app.alerts.deliverDue();
      let [entry] = (await as(alice.token).get<TAlertDelivery[]>('/api/alerts/deliveries')).body.data;
      expect(entry).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
      // Not due yet: the first retry waits 5 s, the second 10 s.
      await app.alerts.deliverDue();
      expect(hook.received).toHaveLength(1);
      clock.advance(5_000);
      await app.alerts.deliverDue();
      clock.advance(10_000);
      await app.alerts.deliverDue();
      [entry] = (await as(alice.token).get<TAlertDelivery[]>('/api/alerts/deliveries')).body.data;
      expect(entry).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200 });
      expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);

      // A receiver that always fails: failed after the last attempt.
      const down = await receiver(Array(10).fill(500));
      await as(alice.token).post('/api/alerts/webhook', { url: down.url });
      await as(alice.token).post('/api/alerts', {
        kind: 'price',
        pair: 'SOL/USDC',
        condition: 'above',
        value: '0.0001',
        channels: ['webhook'],
      });
      await app.alerts.evaluate();
      for (let i = 0; i < ALERT_LIMITS.maxDeliveryAttempts + 1; i++) {
        await app.alerts.deliverDue();
        clock.advance(5_000 * 2 ** i);
      }
      [entry] = (await as(alice.token).get<TAlertDelivery[]>('/api/alerts/deliveries')).body.data;
      expect(entry).toMatchObject({
        status: 'failed',
        attempts: ALERT_LIMITS.maxDeliveryAttempts,
        next_attempt_at: null,
      });
      expect(down.received).toHaveLength(ALERT_LIMITS.maxDeliveryAttempts);
      await down.close();
    } finally {
      await hook.close();
    }
  });

  it('refuses private and loopback webhook targets: literals, DNS names, redirects and rebinding', async () => {
    const alice = await registerUser(strict);
    const setHook = (url: string) => as(alice.token, strict).post('/api/alerts/webhook', { url });
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:7f00:1]/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/',
      'http://2130706433/',
      'ftp://example.com/hook',
      'file:///etc/passwd',
      'http://user:pass@example.com/hook',
    ]) {
      const { status, body } = await setHook(url);
      expect([status, body.code], url).toEqual([400, 'ALERTS__WEBHOOK_URL_INVALID']);
    }
    // A public-looking name that resolves to a private address.
    const lookup = vi
      .spyOn(dns.promises, 'lookup')
      .mockResolvedValue([{ address: '10.0.0.7', family: 4 }] as never);
    expect((await setHook('https://internal.example.test/hook')).body.code).toBe(
      'ALERTS__WEBHOOK_URL_INVALID',
    );

    // Rebinding: public when saved, loopback at connect time: the connection is refused.
    const hook = await receiver();
    try {
      lookup.mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as never);
      expect((await setHook(`http://rebind.example.test:${hook.port}/hook`)).status).toBe(200);
      vi.spyOn(dns, 'lookup').mockImplementation(((
        _host: string,
        _options: unknown,
        callback: (e: null, a: dns.LookupAddress[]) => void,
      ) => callback(null, [{ address: '127.0.0.1', family: 4 }])) as never);
      await as(alice.token, strict).post('/api/alerts', {
        kind: 'price',
        pair: 'SOL/USDC',
        condition: 'above',
        value: '0.0001',
        channels: ['webhook'],
      });
      expect(await strict.alerts.evaluate()).toBe(1);
      await strict.alerts.deliverDue();
      const [entry] = (await as(alice.token, strict).get<TAlertDelivery[]>('/api/alerts/deliveries')).body
        .data;
      expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
      expect(entry!.last_error).toContain('private address');
      expect(hook.received).toHaveLength(0);
    } finally {
      await hook.close();
    }

    // Redirects are never followed (here even to a target the operator allows).
    vi.restoreAllMocks();
    const inner = await receiver();
    const redirecting = await receiver([302], { location: inner.url });
    try {
      const outcome = await postWebhook(
        redirecting.url,
        '{}',
        { signature: 'sha256=x', deliveryId: 'd' },
        true,
      );
      expect(outcome).toMatchObject({ ok: false, status: 302, retry: false });
      expect(inner.received).toHaveLength(0);
      expect(
        await postWebhook(inner.url, '{}', { signature: 'sha256=x', deliveryId: 'd' }, false),
      ).toMatchObject({ ok: false, retry: false });
      expect(inner.received).toHaveLength(0);
    } finally {
      await inner.close();
      await redirecting.close();
    }
  });

  it('fires bot alerts once per event of the runs, and holds a user to the alert and hourly limits', async () => {
    const alice = await registerUser(app);
    const bot = (
      await as(alice.token).post<TBot>('/api/bots', {
        name: 'Watched',
        strategy_type: 'sma_crossover',
        config: { ...DEFAULT_BOT_CONFIG, interval: '1M' },
      })
    ).body.data;
    const created = await as(alice.token).post<TAlert>('/api/alerts', {
      kind: 'bot',
      bot_id: bot.bot_id,
      events: ['started', 'stopped', 'completed', 'error'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const liquidation = await as(alice.token).post<TAlert>('/api/alerts', {
      kind: 'liquidation_risk',
      distance_percent: 5,
    });
    expect(liquidation.body.data).toMatchObject({
      kind: 'liquidation_risk',
      symbol: null,
      distance_percent: 5,
    });
    clock.advance(1_000);
    expect((await as(alice.token).post(`/api/bots/${bot.bot_id}/start`)).status).toBe(200);
    expect(await app.alerts.evaluate()).toBe(1);
    expect(await app.alerts.evaluate()).toBe(0);
    clock.advance(1_000);
    expect((await as(alice.token).post(`/api/bots/${bot.bot_id}/stop`)).status).toBe(200);
    expect(await app.alerts.evaluate()).toBe(1);
    const titles = (
      await as(alice.token).get<TNotificationList>('/api/alerts/notifications')
    ).body.data.items.map((n) => n.title);
    expect(titles).toEqual(['Bot "Watched" stopped', 'Bot "Watched" started']);
    // The bot alert stays active for its next events.
    expect(
      (await as(alice.token).get<TAlert[]>('/api/alerts')).body.data.find((a) => a.kind === 'bot')?.status,
    ).toBe('active');

    // At most maxAlertsPerUser alerts (two held already).
    const carol = await registerUser(app);
    const rows = Array.from({ length: ALERT_LIMITS.maxAlertsPerUser }, () => ({
      userId: carol.user.id,
      kind: 'price',
      rule: { pair: 'SOL/USDC', condition: 'above', value: '0.0001' },
      channels: ['in_app'],
      createdAt: clock.now(),
    }));
    await database.database.db.insert(alertsTable).values(rows);
    const over = await as(carol.token).post('/api/alerts', {
      kind: 'price',
      pair: 'SOL/USDC',
      condition: 'above',
      value: '1',
    });
    expect([over.status, over.body.code]).toEqual([409, 'ALERTS__LIMIT_REACHED']);
    // All fifty are true: the hour's budget delivers maxNotificationsPerHour, the rest wait.
    await app.alerts.evaluate();
    const carolList = (await as(carol.token).get<TNotificationList>('/api/alerts/notifications?limit=100'))
      .body.data;
    expect(carolList.items).toHaveLength(ALERT_LIMITS.maxNotificationsPerHour);
    clock.advance(3_600_001);
    await app.alerts.evaluate();
    expect(
      (await as(carol.token).get<TNotificationList>('/api/alerts/notifications?limit=100')).body.data.items,
    ).toHaveLength(ALERT_LIMITS.maxAlertsPerUser);
  });
});
