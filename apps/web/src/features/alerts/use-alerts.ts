import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationsChannel, type TAlertCreateInput } from '@solterm/contracts';
import { getErrorMessage } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { notify } from '../../lib/toast';
import { useChannel, useRealtimeUserId } from '../../lib/ws-client';
import { alertsApi } from './alerts-api';

export function useAlerts() {
  return useQuery({ queryKey: queryKeys.alerts.list, queryFn: ({ signal }) => alertsApi.list(signal) });
}

/**
 * The notifications list and unread count; while mounted (the top bar's bell), new ones pushed on
 * `notifications:<userId>` show as a toast and refresh the list. Polls slowly as a fallback.
 */
export function useNotifications({ live = false }: { live?: boolean } = {}) {
  const queryClient = useQueryClient();
  const userId = useRealtimeUserId();
  useChannel(live && userId ? notificationsChannel(userId) : null, (tick) => {
    if ('error' in tick) return;
    if (tick.notification) {
      notify.info(tick.notification.title, { description: tick.notification.body });
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts.all });
    } else {
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts.notifications });
    }
  });
  return useQuery({
    queryKey: queryKeys.alerts.notifications,
    queryFn: ({ signal }) => alertsApi.notifications(signal),
    refetchInterval: 60_000,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => alertsApi.markRead(ids),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.alerts.notifications }),
  });
}

export function useCreateAlert(onCreated?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (alert: TAlertCreateInput) => alertsApi.create(alert),
    onSuccess: (alert) => {
      notify.success(`Alert set: ${alert.label}`);
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts.list });
      onCreated?.();
    },
    onError: (error) => notify.error(getErrorMessage(error, 'Could not create the alert')),
  });
}

export function useDeleteAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => alertsApi.remove(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.alerts.list }),
    onError: (error) => notify.error(getErrorMessage(error, 'Could not delete the alert')),
  });
}

export function useWebhook() {
  return useQuery({ queryKey: queryKeys.alerts.webhook, queryFn: ({ signal }) => alertsApi.webhook(signal) });
}

export function useDeliveries() {
  return useQuery({
    queryKey: queryKeys.alerts.deliveries,
    queryFn: ({ signal }) => alertsApi.deliveries(signal),
    refetchInterval: 10_000,
  });
}
