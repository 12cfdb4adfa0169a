import { useState } from 'react';
import type { TFuturesPosition } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Notice } from '../../../components/ui/notice';
import { getErrorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { useSetFuturesTpsl } from '../use-futures';

/**
 * What the TP/SL form sends for one leg: a price to set it, null to remove the one attached (an
 * emptied field), or nothing (an untouched empty field).
 */
function legOf(text: string, attached: string | null): string | null | undefined {
  const trimmed = text.trim();
  if (trimmed !== '') return trimmed === attached ? undefined : trimmed;
  return attached === null ? undefined : null;
}

function TpslForm({ position, onDone }: { position: TFuturesPosition; onDone: () => void }) {
  const attachedTp = position.take_profit?.trigger_price ?? null;
  const attachedSl = position.stop_loss?.trigger_price ?? null;
  const [takeProfit, setTakeProfit] = useState(attachedTp ?? '');
  const [stopLoss, setStopLoss] = useState(attachedSl ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useSetFuturesTpsl();

  async function submit() {
    setError(null);
    const take_profit_price = legOf(takeProfit, attachedTp);
    const stop_loss_price = legOf(stopLoss, attachedSl);
    if (take_profit_price === undefined && stop_loss_price === undefined) {
      onDone();
      return;
    }
    try {
      await save.mutateAsync({ symbol: position.symbol, take_profit_price, stop_loss_price });
      notify.success(`${position.symbol} take profit / stop loss saved`);
      onDone();
    } catch (caught) {
      setError(getErrorMessage(caught, 'the venue refused it'));
    }
  }

  return (
    <div className="grid gap-3">
      <Input
        label="Take profit (USDC)"
        inputMode="decimal"
        placeholder={
          position.side === 'Long' ? `above ${position.mark_price}` : `below ${position.mark_price}`
        }
        value={takeProfit}
        onChange={(event) => setTakeProfit(event.target.value)}
      />
      <Input
        label="Stop loss (USDC)"
        inputMode="decimal"
        placeholder={
          position.side === 'Long' ? `below ${position.mark_price}` : `above ${position.mark_price}`
        }
        value={stopLoss}
        onChange={(event) => setStopLoss(event.target.value)}
        hint="An emptied field removes that leg."
      />
      {error && <Notice tone="error">{error}</Notice>}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} isLoading={save.isPending}>
          Save TP/SL
        </Button>
      </div>
    </div>
  );
}

/**
 * A position's take profit and stop loss: reduce-only market orders for the whole position when the
 * oracle price reaches them. They follow the position's size and go when it closes.
 */
export function TpslDialog({
  position,
  onClose,
}: {
  position: TFuturesPosition | null;
  onClose: () => void;
}) {
  return (
    <Modal
      title={position ? `TP/SL · ${position.symbol} ${position.side}` : 'TP/SL'}
      description="Triggered by the oracle price, then closed at the market (no further than 8 % from it). The one that fires cancels the other."
      isOpen={position !== null}
      onClose={onClose}
    >
      {position && <TpslForm key={position.id} position={position} onDone={onClose} />}
    </Modal>
  );
}
