import { parseSpecDecimal, type TBuiltOrderType, type TOrderSide, type TPosition } from '@solterm/contracts';
import { createStore, useStore } from '../../lib/create-store';

/**
 * An order the Place Order form should take over (part 2 §2): a position's Close (a market sell of
 * the position size), a Trending Tokens Buy, or a price picked in the order book. Each one has a
 * new `id`; the form applies a prefill once, and only one made while it is on screen.
 */
export interface OrderPrefill {
  readonly id: number;
  /** The pair it is for, as displayed (`BONK/SOL`): the form applies it only on that pair. */
  readonly pair: string;
  readonly side?: TOrderSide;
  readonly orderType?: TBuiltOrderType;
  /** Base tokens, as decimal text. */
  readonly quantity?: string;
  /** Limit price, as decimal text. */
  readonly limitPrice?: string;
  /** Shown above the form while the prefill stands ('Closing position', 'Trending Tokens'). */
  readonly origin: string;
}

const store = createStore<OrderPrefill | null>(null);
let nextId = 1;

export const orderPrefillStore = {
  get: store.get,
  /** Records a prefill (a new id each time), or clears it with null. */
  set(prefill: Omit<OrderPrefill, 'id'> | null): void {
    store.set(prefill ? { ...prefill, id: nextId++ } : null);
  },
  subscribe: store.subscribe,
};

const whole = (prefill: OrderPrefill | null) => prefill;

/** The latest prefill, or null. */
export function useOrderPrefill(): OrderPrefill | null {
  return useStore(store, whole);
}

/**
 * What a position's Close hands to the form (part 2 §2): a market sell of the whole size on the
 * position's pair, or null when there is nothing to sell.
 *
 * @example getClosingPrefill({ size: 1.5, … }, 'SOL/USDC'); // { pair: 'SOL/USDC', side: 'Sell', orderType: 'Market', quantity: '1.5', … }
 */
export function getClosingPrefill(
  position: Pick<TPosition, 'size'>,
  pair: string,
): Omit<OrderPrefill, 'id'> | null {
  const size = parseSpecDecimal(position.size);
  if (!size || size.lte(0)) return null;
  return {
    pair,
    side: 'Sell',
    orderType: 'Market',
    quantity: size.toFixed(),
    origin: `your ${pair} position`,
  };
}
