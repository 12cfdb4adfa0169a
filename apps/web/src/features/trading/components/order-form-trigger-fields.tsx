import {
  formatCalculatorValue,
  MAX_TRAIL_PERCENT,
  MIN_TRAIL_PERCENT,
  type SpecDecimal,
} from '@solterm/contracts';
import { triggerDirection } from '@solterm/engine';
import { Input } from '../../../components/ui/input';
import type { OrderFormValues } from '../order-form-model';
import { isTriggerType, type TriggerOrderType } from '../trigger-order-model';
import { LimitPriceField } from './order-form-fields';
import type { FormError } from './order-form-state';

// The trigger of a take-profit / stop-loss (a price) or a trailing stop (a percentage), and the
// slippage bound it executes within once triggered.

/** When the order fires, in words ('Sells when the price rises to the trigger'). */
function describeTrigger(type: TriggerOrderType, side: OrderFormValues['side']): string {
  const verb = side === 'Sell' ? 'Sells' : 'Buys';
  if (type === 'TrailingStop') {
    return side === 'Sell'
      ? `${verb} when the price falls this far below its highest since placement`
      : `${verb} when the price rises this far above its lowest since placement`;
  }
  const rises = triggerDirection(type, side) === 'above';
  return `${verb} at market when the price ${rises ? 'rises to' : 'falls to'} the trigger`;
}

/**
 * "Use market" for a trigger: the market price moved 1 % to the side the trigger must be on (a
 * trigger at the market has already been reached and is refused), so the filled price is valid.
 */
function nudged(market: SpecDecimal, type: TriggerOrderType, side: OrderFormValues['side']): SpecDecimal {
  return market.times(triggerDirection(type, side) === 'above' ? '1.01' : '0.99');
}

export function TriggerFields({
  idBase,
  type,
  values,
  marketPrice,
  quoteLabel,
  error,
  change,
}: {
  idBase: string;
  type: TriggerOrderType;
  values: OrderFormValues;
  marketPrice: SpecDecimal | null;
  quoteLabel: string;
  error: FormError | null;
  change: (patch: Partial<OrderFormValues>) => void;
}) {
  const isTrailing = type === 'TrailingStop';
  const triggerInvalid = error?.field === 'trigger' && error.tone === 'error' ? true : undefined;
  return (
    <div className="space-y-2">
      <div>
        <div className="mb-1.5 flex items-center justify-between gap-2">
          <label htmlFor={`${idBase}-trigger`} className="text-xs font-medium text-muted">
            {isTrailing ? 'Trail' : 'Trigger price'}
          </label>
          {!isTrailing && marketPrice && (
            <button
              type="button"
              className="text-[11px] font-medium text-accent hover:underline"
              onClick={() =>
                change({ triggerPrice: formatCalculatorValue(nudged(marketPrice, type, values.side)) })
              }
            >
              Use market
            </button>
          )}
        </div>
        <Input
          id={`${idBase}-trigger`}
          inputMode="decimal"
          autoComplete="off"
          placeholder={isTrailing ? `${MIN_TRAIL_PERCENT}–${MAX_TRAIL_PERCENT}` : '0.00'}
          value={isTrailing ? values.trailPercent : values.triggerPrice}
          onChange={(event) =>
            change(isTrailing ? { trailPercent: event.target.value } : { triggerPrice: event.target.value })
          }
          trailing={<span className="pr-1 text-xs">{isTrailing ? '%' : quoteLabel}</span>}
          aria-invalid={triggerInvalid}
          aria-describedby={`${idBase}-trigger-hint`}
          className="num pr-14 text-right"
        />
        <p id={`${idBase}-trigger-hint`} className="mt-1 text-[11px] leading-snug text-faint">
          {describeTrigger(type, values.side)}
        </p>
      </div>
      <div className="flex items-center justify-between gap-2 text-[11px]">
        <label htmlFor={`${idBase}-max-slippage`} className="text-faint">
          Max slippage
        </label>
        <Input
          id={`${idBase}-max-slippage`}
          inputMode="numeric"
          autoComplete="off"
          value={values.maxSlippageBps}
          onChange={(event) => change({ maxSlippageBps: event.target.value })}
          trailing={<span className="pr-1 text-[11px]">bps</span>}
          aria-invalid={error?.field === 'slippage' ? true : undefined}
          containerClassName="w-28"
          className="num h-7 pr-10 text-right text-xs"
        />
      </div>
    </div>
  );
}

/** The price part of the form: a limit price, a trigger (price or trail), or nothing for a market order. */
export function OrderPriceFields(props: {
  idBase: string;
  values: OrderFormValues;
  marketPrice: SpecDecimal | null;
  quoteLabel: string;
  error: FormError | null;
  change: (patch: Partial<OrderFormValues>) => void;
}) {
  const { values } = props;
  if (values.orderType === 'Limit') return <LimitPriceField {...props} value={values.limitPrice} />;
  if (!isTriggerType(values.orderType)) return null;
  return <TriggerFields {...props} type={values.orderType} />;
}
