// Public face of @solterm/contracts: schemas and types for every /api call and WS message, error
// codes, and the spec's pure rules. No I/O.
export * from './api/envelope';
export * from './errors/error-codes';
export * from './auth/auth.schemas';
export * from './health/health.schemas';
export * from './dev/dev.schemas';
export * from './realtime/ws-messages';
export * from './errors/messages';
export * from './errors/http-error';
export * from './errors/chain-error';
export * from './errors/wallet-error';
export * from './rules/constants';
export * from './rules/decimal';
export * from './rules/display-name';
export * from './rules/form-linkage';
export * from './rules/listed-tokens';
export * from './rules/pair';
export * from './rules/price-format';
export * from './rules/risk-labels';
export * from './rules/token-identity';
export * from './rules/trade-amount';
export * from './market/chart-interval';
export * from './market/market-channels';
export * from './market/market.schemas';
export * from './market/symbol-lookup';
export * from './wallet/wallet.schemas';
export * from './trading/trading.schemas';
