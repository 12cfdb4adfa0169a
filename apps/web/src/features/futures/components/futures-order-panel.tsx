import { useState } from 'react';
import { Link } from 'react-router';
import { SlidersHorizontal } from 'lucide-react';
import {
  FUTURES_MAKER_FEE_RATE,
  FUTURES_MAX_SLIPPAGE_PERCENT,
  FUTURES_MESSAGES,
  FUTURES_TAKER_FEE_RATE,
  type TFuturesAccount,
  type TFuturesPair,
  type TFuturesPosition,
} from '@solterm/contracts';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Notice } from '../../../components/ui/notice';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { getErrorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { notify } from '../../../lib/toast';
import {
  decimalsOf,
  leverageSettingOf,
  orderAction,
  previewFuturesOrder,
  triggerTypeOf,
  validateFuturesOrder,
  type FuturesOrderType,
  type FuturesPreview,
  type FuturesSide,
} from '../futures-order-model';
import { formatFixed, formatPlainPercent, formatRatePercent } from '../../../lib/format';
import { usePlaceFuturesOrder } from '../use-futures';
import { LeverageControl } from './leverage-control';
import { NO_LIQUIDATION_EXPLANATION } from './futures-tables';

const RISK_TONES: Record<string, BadgeTone> = { Low: 'up', Medium: 'info', High: 'warn', Extreme: 'down' };

function Row({
  label,
  value,
  className,
  hint,
}: {
  label: string;
  value: string;
  className?: string;
  /** Why the value is what it is (a tooltip). */
  hint?: string;
}) {
  return (
    <div className="flex items-center justify-between gap-3 text-xs" title={hint}>
      <span className="text-faint">{label}</span>
      <span className={cn('num text-fg', className)}>{value}</span>
    </div>
  );
}

/** What the order comes to before it is placed: notional, margin, liquidation price, fees. */
function OrderPreview({
  preview,
  leverage,
  account,
  priceDecimals,
}: {
  preview: FuturesPreview | null;
  leverage: number;
  account: TFuturesAccount | undefined;
  priceDecimals: number;
}) {
  const initialized = account?.initialized ?? false;
  return (
    <div className="grid gap-1.5 rounded-md border border-line bg-raised/40 p-3" aria-label="Order preview">
      <Row label="Notional" value={preview ? `${formatFixed(preview.notional, 2)} USDC` : '—'} />
      <Row
        label={`Margin required (${leverage}x)`}
        value={preview ? `${formatFixed(preview.margin, 2)} USDC` : '—'}
      />
      <Row
        label="Liquidation price"
        value={
          preview?.liquidationPrice
            ? formatFixed(preview.liquidationPrice, priceDecimals)
            : !initialized
              ? 'after deposit'
              : preview
                ? 'None (covered at any price)'
                : '—'
        }
        hint={initialized && preview && !preview.liquidationPrice ? NO_LIQUIDATION_EXPLANATION : undefined}
        className={preview?.liquidationPrice ? 'text-warn' : undefined}
      />
      <Row
        label="Fees (taker / maker)"
        value={`${formatRatePercent(FUTURES_TAKER_FEE_RATE)} / ${formatRatePercent(FUTURES_MAKER_FEE_RATE)}`}
      />
      <Row label="Max slippage" value={formatPlainPercent(FUTURES_MAX_SLIPPAGE_PERCENT)} />
      {account?.initialized && (
        <Row label="Free collateral" value={`${formatFixed(account.free_collateral, 2)} USDC`} />
      )}
    </div>
  );
}

/** Connect a wallet, initialize the account, or place the order. */
function FuturesOrderAction({
  isWalletConnected,
  isInitialized,
  label,
  side,
  isPending,
  isDisabled,
  onSubmit,
}: {
  isWalletConnected: boolean;
  isInitialized: boolean;
  label: string;
  side: FuturesSide;
  isPending: boolean;
  isDisabled: boolean;
  onSubmit: () => void;
}) {
  return !isWalletConnected ? (
    <Link to="/wallet-connect" className={buttonClasses({ variant: 'secondary', size: 'md', isBlock: true })}>
      {FUTURES_MESSAGES.connectWallet}
    </Link>
  ) : !isInitialized ? (
    <Notice tone="info">Initialize your futures account with a USDC deposit to trade.</Notice>
  ) : (
    <Button
      isBlock
      onClick={onSubmit}
      isLoading={isPending}
      disabled={isDisabled}
      className={side === 'Long' ? 'bg-up hover:bg-up/90' : 'bg-down hover:bg-down/90'}
    >
      {label}
    </Button>
  );
}

function OrderTypeControl({
  value,
  onChange,
}: {
  value: FuturesOrderType;
  onChange: (value: FuturesOrderType) => void;
}) {
  return (
    <SegmentedControl
      ariaLabel="Order type"
      size="sm"
      isBlock
      value={value}
      onChange={onChange}
      options={[
        { value: 'Market', label: 'Market' },
        { value: 'Limit', label: 'Limit' },
        { value: 'StopMarket', label: 'Stop Market' },
        { value: 'TakeProfitMarket', label: 'Take Profit' },
      ]}
    />
  );
}

/** A stop or take profit market order's trigger price and reduce-only switch. */
function TriggerFields(props: {
  triggerPrice: string;
  onTriggerPriceChange: (value: string) => void;
  reduceOnly: boolean;
  onReduceOnlyChange: (value: boolean) => void;
  placeholder: string;
}) {
  return (
    <>
      <Input
        label="Trigger price (USDC)"
        inputMode="decimal"
        placeholder={props.placeholder}
        value={props.triggerPrice}
        onChange={(event) => props.onTriggerPriceChange(event.target.value)}
        hint="Against the oracle price; it then trades as a market order, once."
      />
      <Checkbox
        label="Reduce only (never grows or flips your position)"
        checked={props.reduceOnly}
        onChange={(event) => props.onReduceOnlyChange(event.target.checked)}
      />
    </>
  );
}

interface FuturesOrderPanelProps {
  pair: TFuturesPair | undefined;
  account: TFuturesAccount | undefined;
  position: TFuturesPosition | undefined;
  isWalletConnected: boolean;
  /** The limit price (the book's levels fill it in). */
  price: string;
  onPriceChange: (price: string) => void;
}

/**
 * The futures order panel (part 2 §2, §5): long or short, market or limit, amount in the base
 * token, leverage 1 to the market's maximum with the spec's presets and risk label, and the
 * liquidation price shown before the order is placed.
 */
export function FuturesOrderPanel(props: FuturesOrderPanelProps) {
  const { pair, account, position, isWalletConnected, price, onPriceChange } = props;
  const [side, setSide] = useState<FuturesSide>('Long');
  const [orderType, setOrderType] = useState<FuturesOrderType>('Market');
  const [amount, setAmount] = useState('');
  const [triggerPrice, setTriggerPrice] = useState('');
  const [reduceOnly, setReduceOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const triggerType = triggerTypeOf(orderType);
  // A trigger order's price field is its trigger price; a limit's, the price the book fills in.
  const orderPrice = triggerType ? triggerPrice : price;
  const place = usePlaceFuturesOrder();
  const maxLeverage = pair?.max_leverage ?? 100;
  // Orders are placed at the account's setting for the market; only the leverage control changes it.
  const effectiveLeverage = pair ? leverageSettingOf(account, pair).leverage : 10;
  const preview = pair
    ? previewFuturesOrder({
        side,
        orderType,
        amount,
        price: orderPrice,
        leverage: effectiveLeverage,
        pair,
        account,
        position,
      })
    : null;
  const initialized = account?.initialized ?? false;
  const priceDecimals = pair ? decimalsOf(pair.tick_size) : 2;

  async function submit() {
    setError(null);
    if (!pair) return;
    if (!pair.oracle_price) {
      setError(FUTURES_MESSAGES.marketPriceUnavailable);
      return;
    }
    // Which side of the oracle a trigger must be on is the venue's check: the oracle this page
    // last read may be seconds old.
    const problem = validateFuturesOrder({ amount, price: orderPrice, orderType, pair });
    if (problem) {
      setError(problem);
      return;
    }
    try {
      if (triggerType) {
        const placed = await place.mutateAsync({
          symbol: pair.symbol,
          side,
          order_type: 'Market',
          amount: amount.trim(),
          type: triggerType,
          trigger_price: triggerPrice.trim(),
          reduce_only: reduceOnly,
        });
        notify.success(
          `${side} ${orderType === 'StopMarket' ? 'stop market' : 'take profit market'} order placed: triggers at ${formatFixed(placed.order.trigger_price, priceDecimals)}`,
        );
        setAmount('');
        return;
      }
      const result = await place.mutateAsync({
        symbol: pair.symbol,
        side,
        order_type: orderType === 'Limit' ? 'Limit' : 'Market',
        amount: amount.trim(),
        price: orderType === 'Limit' ? price.trim() : undefined,
        // The setting the preview was computed at: the venue refuses the order if it changed since.
        leverage: effectiveLeverage,
      });
      const filled = result.fills.length > 0;
      notify.success(
        filled
          ? `${side} ${result.order.filled_size} ${pair.base_symbol} filled at ${formatFixed(result.order.average_fill_price, priceDecimals)}`
          : `${side} limit order placed at ${formatFixed(result.order.price, priceDecimals)}`,
      );
      setAmount('');
    } catch (caught) {
      const message = getErrorMessage(caught, 'the venue refused the order');
      setError(
        message.startsWith('Order failed') || message === FUTURES_MESSAGES.marketPriceUnavailable
          ? message
          : FUTURES_MESSAGES.orderFailed(message),
      );
    }
  }

  return (
    <Card className="min-w-0 md:[grid-area:form]" aria-label="Futures order">
      <CardHeader
        title="Place Order"
        icon={<SlidersHorizontal className="size-4" />}
        description={pair ? `${pair.symbol} · up to ${maxLeverage}x` : 'Perpetual'}
        actions={preview && <Badge tone={RISK_TONES[preview.risk]}>{preview.risk} risk</Badge>}
      />
      <div className="grid gap-3 p-4">
        <SegmentedControl
          ariaLabel="Side"
          isBlock
          value={side}
          onChange={setSide}
          options={[
            { value: 'Long', label: 'Long', activeClassName: 'bg-up text-white' },
            { value: 'Short', label: 'Short', activeClassName: 'bg-down text-white' },
          ]}
        />
        <OrderTypeControl value={orderType} onChange={setOrderType} />
        <Input
          label={`Amount (${pair?.base_symbol ?? 'base'})`}
          inputMode="decimal"
          placeholder={pair ? `min ${pair.min_order_size}` : ''}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        {orderType === 'Limit' && (
          <Input
            label="Price (USDC)"
            inputMode="decimal"
            placeholder={pair?.oracle_price ?? ''}
            value={price}
            onChange={(event) => onPriceChange(event.target.value)}
          />
        )}
        {triggerType && (
          <TriggerFields
            triggerPrice={triggerPrice}
            onTriggerPriceChange={setTriggerPrice}
            reduceOnly={reduceOnly}
            onReduceOnlyChange={setReduceOnly}
            placeholder={pair?.oracle_price ?? ''}
          />
        )}
        <LeverageControl pair={pair} account={account} canSet={isWalletConnected && initialized} />
        <OrderPreview
          preview={preview}
          leverage={effectiveLeverage}
          account={account}
          priceDecimals={priceDecimals}
        />
        {error && <Notice tone="error">{error}</Notice>}
        <FuturesOrderAction
          isWalletConnected={isWalletConnected}
          isInitialized={initialized}
          label={orderAction(side, position)}
          side={side}
          isPending={place.isPending}
          isDisabled={!pair}
          onSubmit={() => void submit()}
        />
      </div>
    </Card>
  );
}
