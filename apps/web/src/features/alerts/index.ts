// Alerts: the notifications bell, the "Alert me" shortcut, the Alerts page's parts.
export { alertsApi } from './alerts-api';
export { AlertForm, AlertMeButton, type AlertTarget } from './components/alert-me-button';
export { NotificationsBell } from './components/notifications-bell';
export { AlertsPanels } from './components/alerts-panels';
export { useAlerts, useNotifications } from './use-alerts';
