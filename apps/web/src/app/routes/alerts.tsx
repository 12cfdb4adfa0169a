import { PageHeader } from '../../components/ui/page-header';
import { AlertsPanels } from '../../features/alerts';

/** /alerts (reached from the top bar's bell): alerts, notifications, webhook and delivery log. */
export default function AlertsPage() {
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Price, bot and liquidation alerts: in-app, by email, by webhook."
      />
      <AlertsPanels />
    </>
  );
}
