import { useState } from 'react';
import { shortenAddress, TRADE_MESSAGES } from '@solterm/contracts';
import { notify } from '../../../lib/toast';
import { useOrderRefresh } from '../hooks/use-spot-data';
import { submitTriggerOrder, TradeError, type OrderStage, type SubmittedOrder } from '../submit-order';
import type { TpSlOrder } from '../tpsl-model';

export interface TpSlOutcome {
  readonly tone: 'success' | 'warn' | 'error';
  readonly message: string;
}

const NAMES = { takeProfit: 'Take profit', stopLoss: 'Stop loss' } as const;

function failureOf(caught: unknown): string {
  return caught instanceof TradeError ? caught.message : TRADE_MESSAGES.placeOrderFailed;
}

const tx = (placed: SubmittedOrder) => shortenAddress(placed.transactionHash, 6, 6);

/**
 * Places a position's TP / SL orders one after the other, each signed in the wallet: the first,
 * then the second with `oco_with` naming the first. When the second fails the first stays placed
 * (and is not placed again on retry: the retry links the second to it).
 */
export function useTpSlPlacement(signTransaction: (wire: Uint8Array) => Promise<Uint8Array>) {
  const [stage, setStage] = useState<OrderStage | null>(null);
  const [first, setFirst] = useState<{ kind: TpSlOrder['kind']; placed: SubmittedOrder } | null>(null);
  const [outcome, setOutcome] = useState<TpSlOutcome | null>(null);
  const refresh = useOrderRefresh();
  const deps = { signTransaction, onStage: setStage };

  async function placeFirst(order: TpSlOrder): Promise<SubmittedOrder | null> {
    if (first?.kind === order.kind) return first.placed;
    try {
      const placed = await submitTriggerOrder(order.request, deps);
      setFirst({ kind: order.kind, placed });
      refresh(placed.order);
      return placed;
    } catch (caught) {
      setOutcome({ tone: 'error', message: `${NAMES[order.kind]} not placed: ${failureOf(caught)}` });
      return null;
    }
  }

  async function place(orders: readonly TpSlOrder[]): Promise<void> {
    const [head, second] = orders;
    if (!head || stage !== null) return;
    setOutcome(null);
    setStage('building');
    try {
      const placed = await placeFirst(head);
      if (!placed) return;
      if (!second) {
        setOutcome({ tone: 'success', message: `${NAMES[head.kind]} placed (transaction ${tx(placed)}).` });
        notify.success(`${NAMES[head.kind]} placed`);
        return;
      }
      const firstId = placed.order?.id ?? placed.unsigned.order_id;
      if (placed.pending || !firstId) {
        setOutcome({
          tone: 'warn',
          message: `${NAMES[head.kind]} sent, its outcome is not known yet: add the ${NAMES[second.kind].toLowerCase()} once it shows in Your Spot Orders.`,
        });
        return;
      }
      try {
        const linked = await submitTriggerOrder({ ...second.request, oco_with: firstId }, deps);
        refresh(linked.order);
        setOutcome({
          tone: 'success',
          message: `${NAMES[head.kind]} and ${NAMES[second.kind].toLowerCase()} placed, one cancels the other (transactions ${tx(placed)}, ${tx(linked)}).`,
        });
        notify.success(`${NAMES[head.kind]} and ${NAMES[second.kind].toLowerCase()} placed`);
      } catch (caught) {
        setOutcome({
          tone: 'error',
          message: `${NAMES[head.kind]} placed, but the ${NAMES[second.kind].toLowerCase()} was not (${failureOf(caught)}). Submit again to add it linked to the ${NAMES[head.kind].toLowerCase()}, or cancel the ${NAMES[head.kind].toLowerCase()} in Your Spot Orders.`,
        });
      }
    } finally {
      setStage(null);
    }
  }

  return { stage, outcome, isDone: outcome?.tone === 'success', firstPlaced: first?.kind ?? null, place };
}
