import type {
  TAlert,
  TAlertCreateInput,
  TAlertDelivery,
  TNotificationList,
  TWebhookSecret,
  TWebhookSettings,
} from '@solterm/contracts';
import { api } from '../../lib/api-client';

/** Alerts, notifications, the webhook and its delivery log (paths after /api). */
export const alertsApi = {
  list: (signal?: AbortSignal) => api.get<TAlert[]>('/alerts', { signal }),
  create: (alert: TAlertCreateInput) => api.post<TAlert>('/alerts', alert),
  remove: (id: string) => api.delete<{ id: string }>(`/alerts/${encodeURIComponent(id)}`),
  notifications: (signal?: AbortSignal) =>
    api.get<TNotificationList>('/alerts/notifications?limit=50', { signal }),
  markRead: (ids?: string[]) =>
    api.post<{ unread_count: number }>('/alerts/notifications/read', ids ? { ids } : {}),
  webhook: (signal?: AbortSignal) => api.get<TWebhookSettings>('/alerts/webhook', { signal }),
  setWebhook: (url: string) => api.post<TWebhookSecret>('/alerts/webhook', { url }),
  rotateWebhook: (url: string) => api.post<TWebhookSecret>('/alerts/webhook/rotate', { url }),
  removeWebhook: () => api.delete<{ removed: true }>('/alerts/webhook'),
  deliveries: (signal?: AbortSignal) => api.get<TAlertDelivery[]>('/alerts/deliveries?limit=50', { signal }),
};
