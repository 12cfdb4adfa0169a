// The market feature's public face: what other features may import.
export { CHART_FONT_SIZE, CHART_THEME_COLORS, axisTickOptions } from './chart-options';
export { marketApi, marketKeys } from './api/market-api';
export { ChangeText, CopyAddress, TokenAvatar } from './components/market-bits';
export { useDashboardCoins, usePairPrice } from './hooks/use-market-data';
export { useTokenSearch } from './hooks/use-token-search';
export type { SearchSources } from './hooks/use-token-search';
export { usePairSwitchCount, useSwitchPair } from './hooks/use-trading-selection';
export { getPairId, selectionFromToken } from './trading-state';
export type { PairSelection } from './trading-state';
export { SafetyBadge, SafetyBadgeView } from './components/safety-badge';
export { DangerConfirmModal, useDangerConfirmation } from './components/danger-confirm';
export { mintOfToken, useTokenSafety } from './hooks/use-token-safety';
export { PriceChart } from './components/price-chart';
export type { ChartWindow } from './components/price-chart';
export type { ChartLineStyle, ChartMarker, ChartMarkerTone, ChartPriceLine } from './chart-overlays';
export { CandleChart } from './components/candle-chart';
export { readCandle } from './market-ticks';
export type { CandlePoint } from './market-ticks';
