import { useState } from 'react';
import type { TTokenSafety } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { useTokenSafety } from '../hooks/use-token-safety';

/** Asks before buying a token whose safety level is danger, listing why. */
export function DangerConfirmModal({
  symbol,
  safety,
  isOpen,
  onCancel,
  onConfirm,
}: {
  symbol: string;
  safety: TTokenSafety | undefined;
  isOpen: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const dangers = safety?.flags.filter((flag) => flag.severity !== 'info') ?? [];
  return (
    <Modal
      title={`${symbol} reads danger`}
      description="The chain shows risks that can cost you the tokens you buy."
      isOpen={isOpen}
      onClose={onCancel}
    >
      <div className="space-y-3 px-4 py-3" data-testid="danger-confirm">
        <ul className="space-y-1 text-xs">
          {dangers.map((flag) => (
            <li key={flag.code} className={flag.severity === 'danger' ? 'text-down' : 'text-warn'}>
              {flag.message}
            </li>
          ))}
        </ul>
        <div className="flex justify-end gap-2">
          <Button size="sm" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button size="sm" variant="danger" onClick={onConfirm} data-testid="danger-confirm-buy">
            {`Buy ${symbol} anyway`}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/**
 * Gates a buy of a `danger` token behind an explicit confirmation: `guard(side, run)` runs `run` at
 * once unless it is a buy of such a token, which opens the modal first. Sells are never held back.
 */
export function useDangerConfirmation(mint: string | null, symbol: string) {
  const safety = useTokenSafety(mint);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const guard = (side: 'Buy' | 'Sell', run: () => void) => {
    if (side === 'Buy' && safety.data?.level === 'danger') setPending(() => run);
    else run();
  };
  const modal = (
    <DangerConfirmModal
      symbol={symbol}
      safety={safety.data}
      isOpen={pending !== null}
      onCancel={() => setPending(null)}
      onConfirm={() => {
        const run = pending;
        setPending(null);
        run?.();
      }}
    />
  );
  return { guard, modal };
}
