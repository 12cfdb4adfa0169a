import type { Ref } from 'react';
import { ArrowLeftRight, Clock } from 'lucide-react';
import { formatPrice } from '@solterm/contracts';
import { Badge } from '../../../components/ui/badge';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { usePairPrice } from '../hooks/use-market-data';
import { useOrderIntent } from '../order-intent';
import type { PairSelection } from '../trading-state';

function Field({ label, value, isMuted = false }: { label: string; value: string; isMuted?: boolean }) {
  return (
    <div className="flex h-9 items-center justify-between rounded-md border border-line bg-canvas px-3 text-[13px]">
      <span className="text-muted">{label}</span>
      <span className={cn('num font-medium', isMuted && 'text-faint')}>{value}</span>
    </div>
  );
}

/**
 * The Place Order panel until on-chain trading arrives: honest about that, and showing the order a
 * Trending Tokens Buy prefilled (side, token, pair) so the form can pick it up.
 */
export function OrderIntentPanel({
  selection,
  ref,
}: {
  selection: PairSelection;
  ref?: Ref<HTMLDivElement>;
}) {
  const intent = useOrderIntent();
  const price = usePairPrice(selection);
  const isForPair = intent !== null && intent.pair === selection.pair;
  const side = isForPair ? intent.side : 'buy';
  return (
    <div ref={ref} className="scroll-mt-20">
      <Card className="flex h-full flex-col" data-testid="order-panel">
        <CardHeader
          title="Place Order"
          icon={<ArrowLeftRight className="size-4" />}
          actions={
            <Badge tone="neutral" icon={<Clock className="size-3" />}>
              Arrives with on-chain trading
            </Badge>
          }
        />
        <div className="space-y-2.5 p-4">
          <div
            className="grid grid-cols-2 gap-1 rounded-lg border border-line bg-canvas p-1"
            aria-hidden="true"
          >
            <span
              className={cn(
                'flex h-8 items-center justify-center rounded-md text-[13px] font-semibold',
                side === 'buy' ? 'bg-up text-[#04150e]' : 'text-faint',
              )}
            >
              Buy
            </span>
            <span
              className={cn(
                'flex h-8 items-center justify-center rounded-md text-[13px] font-semibold',
                side === 'sell' ? 'bg-down text-white' : 'text-faint',
              )}
            >
              Sell
            </span>
          </div>
          <Field label="Pair" value={selection.pair} />
          <Field label="Order type" value="Market" />
          <Field
            label="Price"
            value={price.price ? `${formatPrice(price.price.toString())} ${selection.quote}` : '—'}
            isMuted={!price.price}
          />
          <Field label="Amount" value={`— ${selection.base}`} isMuted />
          {isForPair ? (
            <p
              className="rounded-md border border-up/25 bg-up-soft px-3 py-2 text-xs text-fg/90"
              data-testid="order-intent"
            >
              Prefilled from {intent.origin}:{' '}
              <span className="font-semibold text-up">
                {intent.side === 'buy' ? 'Buy' : 'Sell'} {intent.base}
              </span>{' '}
              ({intent.baseName}) with {intent.quote}.
            </p>
          ) : null}
          <p className="text-xs leading-relaxed text-muted">
            Place Order arrives with on-chain trading: market and limit orders built as Solana transactions
            that your wallet signs. Until then the chart, prices and trending tokens are live.
          </p>
        </div>
      </Card>
    </div>
  );
}
