import type { TSpotOrder } from '@solterm/contracts';

const ORDER_TYPE_WORDS: Record<TSpotOrder['order_type'], string> = {
  Market: 'Market',
  Limit: 'Limit',
  TakeProfit: 'Take profit',
  StopLoss: 'Stop loss',
  TrailingStop: 'Trailing stop',
};

/** An order type as words ('StopLoss' → 'Stop loss'). */
export const orderTypeLabel = (type: TSpotOrder['order_type']): string => ORDER_TYPE_WORDS[type] ?? type;
