// The trading feature's public face: what other features may import.
export { tokenLabel } from './components/spot-cells';
export { ExplorerNetworkContext, TxLink } from './components/tx-link';
export { usePairBalances, useSpotOrders } from './hooks/use-spot-data';
export type { SpotPair } from './order-form-model';
export { getBalance } from './spend-check';
export { tradingApi, walletApi } from './trading-api';
export { getWalletAccess } from './wallet-access';
export type { WalletAccess } from './wallet-access';
export { getWalletValue } from './wallet-value';
export { decodeBase64, encodeBase64 } from './wire-transaction';
export { MyTradesChart } from './components/my-trades-chart';
