import { and, asc, count, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { alertDeliveries, alerts, alertWebhooks, notifications } from './alerts.tables';

export type AlertRow = typeof alerts.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type DeliveryRow = typeof alertDeliveries.$inferSelect;
export type WebhookRow = typeof alertWebhooks.$inferSelect;

/** One trigger of an alert: its key within the alert, and what the notification says. */
export interface Trigger {
  key: string;
  title: string;
  body: string;
  /** A one-shot alert (price): firing also flips it to triggered, which claims the firing. */
  oneShot: boolean;
}

export type NewDelivery = Pick<DeliveryRow, 'channel' | 'target' | 'payload'>;

/** Alerts, their notifications, the users' webhooks and the deliveries' log. */
export function createAlertsRepository(db: Db, now: () => Date) {
  return {
    async countOf(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(alerts).where(eq(alerts.userId, userId));
      return Number(row?.n ?? 0);
    },

    /** Inserts unless the user already holds `max` alerts (the user's row is locked for the count). */
    async insert(row: Omit<typeof alerts.$inferInsert, 'id'>, max: number): Promise<AlertRow | undefined> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select id from users where id = ${row.userId} for update`);
        const [held] = await tx.select({ n: count() }).from(alerts).where(eq(alerts.userId, row.userId));
        if (Number(held?.n ?? 0) >= max) return undefined;
        const [inserted] = await tx.insert(alerts).values(row).returning();
        return inserted;
      });
    },

    list(userId: string): Promise<AlertRow[]> {
      return db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(desc(alerts.createdAt));
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(alerts)
        .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
        .returning({ id: alerts.id });
      return deleted.length > 0;
    },

    active(): Promise<AlertRow[]> {
      return db.select().from(alerts).where(eq(alerts.status, 'active')).orderBy(asc(alerts.createdAt));
    },

    /**
     * Records a trigger exactly once: a one-shot alert is claimed active → triggered in the same
     * transaction, and the notification's unique (alert, trigger key) turns a repeat into nothing.
     * Returns the notification, or undefined when this trigger was already recorded.
     */
    async fire(
      alert: AlertRow,
      trigger: Trigger,
      deliveries: (notificationId: string) => NewDelivery[],
    ): Promise<NotificationRow | undefined> {
      const at = now();
      return db.transaction(async (tx) => {
        if (trigger.oneShot) {
          const claimed = await tx
            .update(alerts)
            .set({ status: 'triggered', triggeredAt: at })
            .where(and(eq(alerts.id, alert.id), eq(alerts.status, 'active')))
            .returning({ id: alerts.id });
          if (claimed.length === 0) return undefined;
        } else {
          await tx.update(alerts).set({ triggeredAt: at }).where(eq(alerts.id, alert.id));
        }
        const [notification] = await tx
          .insert(notifications)
          .values({
            userId: alert.userId,
            alertId: alert.id,
            sourceAlertId: alert.id,
            triggerKey: trigger.key,
            kind: alert.kind,
            title: trigger.title,
            body: trigger.body,
            createdAt: at,
          })
          .onConflictDoNothing()
          .returning();
        if (!notification) return undefined;
        const rows = deliveries(notification.id);
        if (rows.length > 0) {
          await tx.insert(alertDeliveries).values(
            rows.map((row) => ({
              ...row,
              id: crypto.randomUUID(),
              notificationId: notification.id,
              userId: alert.userId,
              nextAttemptAt: at,
              createdAt: at,
            })),
          );
        }
        return notification;
      });
    },

    /** Trigger keys already recorded for these alerts (so a pass skips them without a write). */
    async firedKeys(alertIds: readonly string[]): Promise<Set<string>> {
      if (alertIds.length === 0) return new Set();
      const rows = await db
        .select({ alertId: notifications.sourceAlertId, key: notifications.triggerKey })
        .from(notifications)
        .where(inArray(notifications.sourceAlertId, [...alertIds]));
      return new Set(rows.map((row) => `${row.alertId}|${row.key}`));
    },

    async notificationsSince(userId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), gte(notifications.createdAt, since)));
      return Number(row?.n ?? 0);
    },

    notifications(userId: string, limit: number): Promise<NotificationRow[]> {
      return db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(desc(notifications.createdAt))
        .limit(limit);
    },

    async unreadCount(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return Number(row?.n ?? 0);
    },

    async markRead(userId: string, ids: readonly string[] | undefined): Promise<void> {
      await db
        .update(notifications)
        .set({ readAt: now() })
        .where(
          and(
            eq(notifications.userId, userId),
            isNull(notifications.readAt),
            ids ? inArray(notifications.id, [...ids]) : undefined,
          ),
        );
    },

    async webhookOf(userId: string): Promise<WebhookRow | undefined> {
      const [row] = await db.select().from(alertWebhooks).where(eq(alertWebhooks.userId, userId));
      return row;
    },

    /** Sets the URL; the secret is kept, or `secret` when there was none (or on rotation). */
    async setWebhook(userId: string, url: string, secret: string, rotate: boolean): Promise<WebhookRow> {
      const [row] = await db
        .insert(alertWebhooks)
        .values({ userId, url, secret, createdAt: now() })
        .onConflictDoUpdate({
          target: alertWebhooks.userId,
          set: rotate ? { url, secret, createdAt: now() } : { url },
        })
        .returning();
      return row!;
    },

    async removeWebhook(userId: string): Promise<void> {
      await db.delete(alertWebhooks).where(eq(alertWebhooks.userId, userId));
    },

    /** Pending deliveries whose next attempt is due, oldest first. */
    due(limit: number): Promise<DeliveryRow[]> {
      return db
        .select()
        .from(alertDeliveries)
        .where(and(eq(alertDeliveries.status, 'pending'), lte(alertDeliveries.nextAttemptAt, now())))
        .orderBy(asc(alertDeliveries.nextAttemptAt))
        .limit(limit);
    },

    /**
     * Claims the next attempt of a delivery (attempts n → n+1) before it is made, so two processes
     * cannot both make attempt n+1; false when another took it.
     */
    async claimAttempt(row: DeliveryRow, retryAt: Date): Promise<boolean> {
      const claimed = await db
        .update(alertDeliveries)
        .set({ attempts: row.attempts + 1, nextAttemptAt: retryAt })
        .where(
          and(
            eq(alertDeliveries.id, row.id),
            eq(alertDeliveries.status, 'pending'),
            eq(alertDeliveries.attempts, row.attempts),
          ),
        )
        .returning({ id: alertDeliveries.id });
      return claimed.length > 0;
    },

    async recordAttempt(
      id: string,
      result: Pick<DeliveryRow, 'status' | 'lastStatusCode' | 'lastError'> & { nextAttemptAt?: Date | null },
    ): Promise<void> {
      await db
        .update(alertDeliveries)
        .set({ ...result, deliveredAt: result.status === 'delivered' ? now() : null })
        .where(eq(alertDeliveries.id, id));
    },

    deliveries(userId: string, limit: number): Promise<DeliveryRow[]> {
      return db
        .select()
        .from(alertDeliveries)
        .where(eq(alertDeliveries.userId, userId))
        .orderBy(desc(alertDeliveries.createdAt))
        .limit(limit);
    },
  };
}

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
