import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import type { TWebhookSecret } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { getErrorMessage } from '../../../lib/api-client';
import { formatTradeTime } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import { alertsApi } from '../alerts-api';
import {
  useAlerts,
  useDeleteAlert,
  useDeliveries,
  useMarkRead,
  useNotifications,
  useWebhook,
} from '../use-alerts';
import { AlertForm } from './alert-me-button';

function AlertsList() {
  const { data: alerts = [], isLoading } = useAlerts();
  const remove = useDeleteAlert();
  const [pair, setPair] = useState('SOL/USDC');
  return (
    <Card>
      <CardHeader
        title="Your alerts"
        description="Price alerts fire once; bot and futures alerts on every event."
      />
      <CardBody className="space-y-4">
        <details className="rounded-md border border-line p-3">
          <summary className="cursor-pointer text-sm font-medium">New price alert</summary>
          <div className="mt-3 space-y-3">
            <Input
              label="Pair"
              value={pair}
              onChange={(event) => setPair(event.target.value.toUpperCase())}
            />
            <AlertForm key={pair} target={{ kind: 'price', pair }} onDone={() => undefined} />
          </div>
        </details>
        {isLoading ? null : alerts.length === 0 ? (
          <p className="text-sm text-muted">No alerts yet. Use "Alert me" on a chart, a bot or a position.</p>
        ) : (
          <ul className="divide-y divide-line" aria-label="Alerts">
            {alerts.map((alert) => (
              <li key={alert.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                <span className="min-w-0 flex-1 break-words">{alert.label}</span>
                <Badge tone={alert.status === 'active' ? 'accent' : 'neutral'}>{alert.status}</Badge>
                <span className="text-xs text-faint">{alert.channels.join(', ')}</span>
                <Button
                  variant="ghost"
                  size="xs"
                  aria-label={`Delete alert ${alert.label}`}
                  onClick={() => remove.mutate(alert.id)}
                >
                  <Trash2 className="size-3.5" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function NotificationsList() {
  const { data } = useNotifications();
  const markRead = useMarkRead();
  const items = data?.items ?? [];
  return (
    <Card>
      <CardHeader
        title="Notifications"
        description={`${data?.unread_count ?? 0} unread`}
        actions={
          <Button
            size="xs"
            variant="secondary"
            onClick={() => markRead.mutate(undefined)}
            disabled={!data?.unread_count}
          >
            Mark all read
          </Button>
        }
      />
      <CardBody>
        {items.length === 0 ? (
          <p className="text-sm text-muted">Nothing yet.</p>
        ) : (
          <ul className="divide-y divide-line" aria-label="Notifications">
            {items.map((item) => (
              <li
                key={item.id}
                className="py-2 text-sm"
                data-unread={item.read_at === null ? 'true' : undefined}
              >
                <div className="flex items-start gap-2">
                  {item.read_at === null && (
                    <span className="mt-1.5 size-2 shrink-0 rounded-full bg-accent" />
                  )}
                  <div className="min-w-0 flex-1">
                    <p className="font-medium break-words">{item.title}</p>
                    <p className="text-muted break-words">{item.body}</p>
                  </div>
                  <span className="shrink-0 text-xs text-faint">{formatTradeTime(item.created_at)}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

function WebhookSettings() {
  const queryClient = useQueryClient();
  const { data } = useWebhook();
  const [url, setUrl] = useState('');
  const [shown, setShown] = useState<TWebhookSecret | null>(null);
  const save = useMutation({
    mutationFn: ({ rotate }: { rotate: boolean }) =>
      rotate ? alertsApi.rotateWebhook(url || data?.url || '') : alertsApi.setWebhook(url),
    onSuccess: (result) => {
      if (result.secret) setShown(result);
      notify.success('Webhook saved');
      void queryClient.invalidateQueries({ queryKey: queryKeys.alerts.webhook });
    },
    onError: (error) => notify.error(getErrorMessage(error, 'Could not save the webhook')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ rotate: false });
  };
  return (
    <Card>
      <CardHeader
        title="Webhook"
        description="We POST each notification as JSON, signed: X-Solterm-Signature: sha256=HMAC-SHA256(body, secret)."
      />
      <CardBody className="space-y-3">
        {data?.url && <p className="text-sm break-all text-muted">Current: {data.url}</p>}
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <Input
            label="Webhook URL"
            type="url"
            placeholder="https://example.com/solterm-hook"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            containerClassName="min-w-0 flex-1"
            required
          />
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save
          </Button>
        </form>
        {data?.has_secret && (
          <Button
            size="xs"
            variant="secondary"
            onClick={() => save.mutate({ rotate: true })}
            disabled={save.isPending}
          >
            Rotate secret
          </Button>
        )}
        {shown?.secret && (
          <Notice tone="warn" title="Your signing secret (shown once)">
            <div className="flex flex-wrap items-center gap-2">
              <code className="break-all" data-testid="webhook-secret">
                {shown.secret}
              </code>
              <CopyButton value={shown.secret} label="Copy secret" />
            </div>
          </Notice>
        )}
      </CardBody>
    </Card>
  );
}

function DeliveryLog() {
  const { data: deliveries = [] } = useDeliveries();
  return (
    <Card>
      <CardHeader title="Delivery log" description="Email and webhook deliveries, retried with backoff." />
      <CardBody>
        {deliveries.length === 0 ? (
          <p className="text-sm text-muted">No deliveries yet.</p>
        ) : (
          <ul className="divide-y divide-line" aria-label="Delivery log">
            {deliveries.map((delivery) => (
              <li key={delivery.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                <Badge
                  tone={
                    delivery.status === 'delivered' ? 'up' : delivery.status === 'failed' ? 'down' : 'warn'
                  }
                >
                  {delivery.status}
                </Badge>
                <span className="font-medium">{delivery.channel}</span>
                <span className="order-last w-full min-w-0 break-all text-muted sm:order-none sm:w-auto sm:flex-1">
                  {delivery.target}
                </span>
                <span className="text-xs text-faint">
                  {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
                  {delivery.last_status_code ? ` · HTTP ${delivery.last_status_code}` : ''}
                  {delivery.last_error && delivery.status !== 'delivered' ? ` · ${delivery.last_error}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

/** The Alerts page's content: alerts, notifications, the webhook and the delivery log. */
export function AlertsPanels() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="min-w-0 space-y-4">
        <NotificationsList />
        <AlertsList />
      </div>
      <div className="min-w-0 space-y-4">
        <WebhookSettings />
        <DeliveryLog />
      </div>
    </div>
  );
}
