import { Check, Crown, Minus, Receipt, Sparkles } from 'lucide-react';
import { PLAN_PRICES_USD } from '@solterm/contracts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { Table, TBody, Td, Th, THead, Tr } from '../../components/ui/table';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';

interface PlanFeature {
  text: string;
  isIncluded: boolean;
}

interface Plan {
  id: keyof typeof PLAN_PRICES_USD;
  name: string;
  tagline: string;
  features: readonly PlanFeature[];
  isCurrent?: boolean;
  isHighlighted?: boolean;
}

const included = (text: string): PlanFeature => ({ text, isIncluded: true });
const excluded = (text: string): PlanFeature => ({ text, isIncluded: false });

/** The plans of spec part 2 §2, with their feature lists. */
const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    tagline: 'Try the terminal and one bot.',
    isCurrent: true,
    features: [
      included('1 bot slot'),
      included('Backtesting limited to 7 days'),
      included('Public marketplace'),
      included('Basic analytics'),
      excluded('No alerts'),
      excluded('No developer earnings dashboard'),
      excluded('No API integrations'),
    ],
  },
  {
    id: 'pro',
    name: 'Pro',
    tagline: 'For active traders and bot developers.',
    isHighlighted: true,
    features: [
      included('5 active bots'),
      included('Full backtesting (30+ days)'),
      included('Real-time data and signals'),
      included('Developer earnings dashboard'),
      included('Advanced analytics'),
      included('Copying marketplace bots'),
      included('Priority email support'),
    ],
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    tagline: 'For desks and teams.',
    features: [
      included('Unlimited bots and backtests'),
      included('Dedicated account manager'),
      included('Team access'),
      included('Custom APIs and webhooks'),
      included('Data export'),
      included('Live chat support'),
    ],
  },
];

const INVOICES = [
  { number: 'INV-2025-0007', date: '2025-01-01', amount: '$0.00', plan: 'Free' },
  { number: 'INV-2024-0142', date: '2024-12-01', amount: '$29.00', plan: 'Pro' },
  { number: 'INV-2024-0118', date: '2024-11-01', amount: '$29.00', plan: 'Pro' },
  { number: 'INV-2024-0093', date: '2024-10-01', amount: '$29.00', plan: 'Pro' },
];

/** /sub: subscription plans and invoice history (static mock, no calls). */
export default function SubPage() {
  return (
    <>
      <PageHeader
        title="Subscription"
        description="Choose the plan that fits how you trade. Change or cancel at any time."
      />

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        {PLANS.map((plan) => (
          <Card
            key={plan.id}
            data-testid={`plan-${plan.id}`}
            className={cn(
              'relative flex flex-col p-5',
              plan.isHighlighted && 'border-accent/60 shadow-[0_0_0_1px_var(--color-accent-soft)]',
            )}
          >
            <div className="flex items-center justify-between">
              <h2 className="flex items-center gap-2 text-base font-semibold">
                {plan.id === 'enterprise' ? (
                  <Crown className="size-4 text-warn" />
                ) : plan.isHighlighted ? (
                  <Sparkles className="size-4 text-accent" />
                ) : null}
                {plan.name}
              </h2>
              {plan.isCurrent && <Badge tone="up">Current plan</Badge>}
              {plan.isHighlighted && <Badge tone="accent">Most popular</Badge>}
            </div>
            <p className="mt-1 text-sm text-muted">{plan.tagline}</p>
            <p className="mt-5 flex items-baseline gap-1">
              <span className="num text-4xl font-semibold tracking-tight">${PLAN_PRICES_USD[plan.id]}</span>
              <span className="text-sm text-muted">/ month</span>
            </p>
            <ul className="mt-5 flex-1 space-y-2.5 text-sm">
              {plan.features.map((feature) => (
                <li
                  key={feature.text}
                  className={cn('flex items-start gap-2', !feature.isIncluded && 'text-faint')}
                >
                  {feature.isIncluded ? (
                    <Check className="mt-0.5 size-4 shrink-0 text-up" aria-label="Included" />
                  ) : (
                    <Minus className="mt-0.5 size-4 shrink-0" aria-label="Not included" />
                  )}
                  {feature.text}
                </li>
              ))}
            </ul>
            <Button
              className="mt-6"
              isBlock
              variant={plan.isHighlighted ? 'primary' : 'secondary'}
              disabled={plan.isCurrent}
              onClick={() => notify.info('Plan changes are not available in this preview.')}
            >
              {plan.isCurrent ? 'Your current plan' : `Upgrade to ${plan.name}`}
            </Button>
          </Card>
        ))}
      </div>

      <Card className="mt-4">
        <CardHeader
          title="Invoice history"
          icon={<Receipt className="size-4" />}
          actions={<Badge tone="warn">Sample data</Badge>}
        />
        <Table>
          <THead>
            <tr>
              <Th>Invoice number</Th>
              <Th>Date</Th>
              <Th isNumeric>Amount</Th>
              <Th>Plan</Th>
            </tr>
          </THead>
          <TBody>
            {INVOICES.map((invoice) => (
              <Tr key={invoice.number}>
                <Td className="font-mono text-xs">{invoice.number}</Td>
                <Td className="num text-muted">{invoice.date}</Td>
                <Td isNumeric>{invoice.amount}</Td>
                <Td>{invoice.plan}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
    </>
  );
}
