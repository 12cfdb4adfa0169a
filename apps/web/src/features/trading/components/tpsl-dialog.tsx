import { useId, useState, type FormEvent } from 'react';
import { parseSpecDecimal, type TPosition } from '@solterm/contracts';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Notice } from '../../../components/ui/notice';
import { formatQuote } from '../../../lib/format';
import { usePairBalances } from '../hooks/use-spot-data';
import { checkTpSl, initialTpSlValues, positionPair, type TpSlField, type TpSlValues } from '../tpsl-model';
import { STAGE_LABELS, type OrderFormWallet } from './order-form';
import { tokenLabel } from './spot-cells';
import { useTpSlPlacement } from './use-tpsl-placement';

const FIELDS = [
  { key: 'size', label: 'Size', unit: 'base' },
  { key: 'takeProfit', label: 'Take profit', unit: 'quote' },
  { key: 'stopLoss', label: 'Stop loss', unit: 'quote' },
  { key: 'maxSlippageBps', label: 'Max slippage', unit: 'bps' },
] as const;

const OUTCOME_TITLES = { success: 'Placed', warn: 'Pending', error: 'Not placed' } as const;

function TpSlFields(props: {
  values: TpSlValues;
  units: { base: string; quote: string; bps: string };
  invalid: TpSlField | null;
  locked: TpSlField | null;
  onChange: (patch: Partial<TpSlValues>) => void;
}) {
  const idBase = useId();
  return (
    <div className="grid grid-cols-2 gap-2">
      {FIELDS.map(({ key, label, unit }) => {
        const field: TpSlField = key === 'maxSlippageBps' ? 'slippage' : key;
        return (
          <div key={key} className="min-w-0">
            <label htmlFor={`${idBase}-${key}`} className="mb-1 block text-xs font-medium text-muted">
              {label}
            </label>
            <Input
              id={`${idBase}-${key}`}
              inputMode="decimal"
              autoComplete="off"
              placeholder={key === 'size' || key === 'maxSlippageBps' ? '' : 'Optional'}
              value={props.values[key]}
              readOnly={props.locked === field}
              onChange={(event) => props.onChange({ [key]: event.target.value })}
              trailing={<span className="pr-1 text-[11px]">{props.units[unit]}</span>}
              aria-invalid={
                props.invalid === field || (field === 'size' && props.invalid === 'balance') || undefined
              }
              className="num h-8 pr-12 text-right text-xs"
            />
          </div>
        );
      })}
    </div>
  );
}

/**
 * "TP / SL" on a position: a take-profit and a stop-loss sell of the position (either or both),
 * prefilled from its size and mark, placed one after the other in the wallet and linked so that
 * when one fills the other is cancelled.
 */
export function TpSlDialog({
  position,
  wallet,
  onClose,
}: {
  position: TPosition;
  wallet: OrderFormWallet;
  onClose: () => void;
}) {
  const pair = positionPair(position);
  const [values, setValues] = useState(() => initialTpSlValues(position));
  const [error, setError] = useState<{ message: string; field: TpSlField } | null>(null);
  const { suggestion } = usePairBalances(pair.pairId);
  const placement = useTpSlPlacement((wire) => wallet.signTransaction(wire));
  const isBusy = placement.stage !== null;
  const units = { base: tokenLabel(pair.base), quote: tokenLabel(pair.quote), bps: 'bps' };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    if (placement.isDone) return onClose();
    const check = checkTpSl({
      values,
      pair,
      marketPrice: parseSpecDecimal(position.mark_price),
      balances: placement.firstPlaced ? null : (suggestion.data?.available_balances ?? null),
      hasWallet: wallet.isConnected,
    });
    if (!check.ok) return setError({ message: check.error, field: check.field });
    setError(null);
    void placement.place(check.orders);
  }

  return (
    <Modal
      isOpen
      isLocked={isBusy}
      onClose={onClose}
      title={`TP / SL · ${position.symbol}`}
      description={`Sell orders on your position, mark ${formatQuote(position.mark_price)} ${units.quote}. With both set, one cancels the other.`}
    >
      <form aria-label="Take profit and stop loss" noValidate onSubmit={submit} className="space-y-3">
        <TpSlFields
          values={values}
          units={units}
          invalid={error?.field ?? null}
          locked={placement.firstPlaced}
          onChange={(patch) => {
            setValues((current) => ({ ...current, ...patch }));
            setError(null);
          }}
        />
        <p className="text-[11px] leading-snug text-muted">
          Each order escrows its own {units.base} until it fills or is cancelled: both together lock twice the
          size.
        </p>
        {error && (
          <p role="alert" className="text-xs text-down" data-testid="tpsl-error">
            {error.message}
          </p>
        )}
        {placement.outcome && (
          <Notice tone={placement.outcome.tone} title={OUTCOME_TITLES[placement.outcome.tone]}>
            <span data-testid="tpsl-outcome">{placement.outcome.message}</span>
          </Notice>
        )}
        <Button type="submit" variant={placement.isDone ? 'secondary' : 'sell'} isBlock isLoading={isBusy}>
          {placement.stage ? STAGE_LABELS[placement.stage] : placement.isDone ? 'Done' : 'Place TP / SL'}
        </Button>
      </form>
    </Modal>
  );
}
