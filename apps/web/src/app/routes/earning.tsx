import { ArrowUpRight, Banknote, Clock, CreditCard, Info, Users, Wallet } from 'lucide-react';
import { EARNING_MIN_WITHDRAWAL_USD } from '@solterm/contracts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { Table, TBody, Td, Th, THead, Tr } from '../../components/ui/table';
import { notify } from '../../lib/toast';

const TOTALS = [
  { label: 'Total earnings', value: '$12,480.00', footnote: '+$1,126.40 this month', icon: Banknote },
  { label: 'Active subscriptions', value: '148', footnote: '12 new this month', icon: Users },
  { label: 'Pending withdrawals', value: '$640.00', footnote: '1 request processing', icon: Clock },
  { label: 'Available balance', value: '$1,284.50', footnote: 'Ready to withdraw', icon: Wallet },
];

interface Subscriber {
  name: string;
  email: string;
  plan: 'Pro' | 'Enterprise' | 'Free';
  startDate: string;
  license: 'Monthly' | 'Annual' | 'Lifetime';
  isActive: boolean;
}

const SUBSCRIBERS: readonly Subscriber[] = [
  {
    name: 'Amelia Hart',
    email: 'amelia.hart@example.com',
    plan: 'Pro',
    startDate: '2025-01-04',
    license: 'Monthly',
    isActive: true,
  },
  {
    name: 'Daniel Okafor',
    email: 'd.okafor@example.com',
    plan: 'Enterprise',
    startDate: '2024-12-18',
    license: 'Annual',
    isActive: true,
  },
  {
    name: 'Sofia Marques',
    email: 'sofia.m@example.com',
    plan: 'Pro',
    startDate: '2024-12-02',
    license: 'Monthly',
    isActive: true,
  },
  {
    name: 'Kenji Watanabe',
    email: 'kenji.w@example.com',
    plan: 'Pro',
    startDate: '2024-11-21',
    license: 'Annual',
    isActive: false,
  },
  {
    name: 'Hannah Schmidt',
    email: 'hannah.s@example.com',
    plan: 'Enterprise',
    startDate: '2024-11-09',
    license: 'Lifetime',
    isActive: true,
  },
  {
    name: 'Omar Haddad',
    email: 'omar.haddad@example.com',
    plan: 'Pro',
    startDate: '2024-10-30',
    license: 'Monthly',
    isActive: false,
  },
  {
    name: 'Priya Raman',
    email: 'priya.r@example.com',
    plan: 'Pro',
    startDate: '2024-10-12',
    license: 'Monthly',
    isActive: true,
  },
];

/** /earning: developer earnings (static mock with sample figures, no calls). */
export default function EarningPage() {
  return (
    <>
      <PageHeader
        title="Earnings"
        description="Revenue from traders subscribed to the bots you publish."
        eyebrow={<Badge tone="warn">Sample data</Badge>}
        actions={
          <Button onClick={() => notify.info('Withdrawals are not available in this preview.')}>
            <CreditCard className="size-4" />
            Withdraw via Stripe
            <ArrowUpRight className="size-4" />
          </Button>
        }
      />

      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {TOTALS.map(({ label, value, footnote, icon: Icon }) => (
          <Card key={label} className="p-4">
            <div className="flex items-center justify-between text-xs text-muted">
              {label}
              <Icon className="size-4 text-faint" />
            </div>
            <p className="num mt-2 text-2xl font-semibold tracking-tight">{value}</p>
            <p className="mt-1 text-xs text-faint">{footnote}</p>
          </Card>
        ))}
      </div>

      <p className="mt-3 flex items-center gap-1.5 text-xs text-muted">
        <Info className="size-3.5 text-info" />
        Minimum withdrawal ${EARNING_MIN_WITHDRAWAL_USD}. Payouts are sent to your connected payment account.
      </p>

      <Card className="mt-4">
        <CardHeader
          title="Subscribers"
          description={`${SUBSCRIBERS.length} most recent`}
          icon={<Users className="size-4" />}
        />
        <Table>
          <THead>
            <tr>
              <Th>Name</Th>
              <Th>User email</Th>
              <Th>Plan</Th>
              <Th>Start date</Th>
              <Th>License type</Th>
              <Th>Status</Th>
            </tr>
          </THead>
          <TBody>
            {SUBSCRIBERS.map((subscriber) => (
              <Tr key={subscriber.email}>
                <Td className="font-medium">{subscriber.name}</Td>
                <Td className="text-muted">{subscriber.email}</Td>
                <Td>
                  <Badge tone={subscriber.plan === 'Enterprise' ? 'accent' : 'info'}>{subscriber.plan}</Badge>
                </Td>
                <Td className="num text-muted">{subscriber.startDate}</Td>
                <Td className="text-muted">{subscriber.license}</Td>
                <Td>
                  <Badge tone={subscriber.isActive ? 'up' : 'neutral'}>
                    {subscriber.isActive ? 'Active' : 'Inactive'}
                  </Badge>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
    </>
  );
}
