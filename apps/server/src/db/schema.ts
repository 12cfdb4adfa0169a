// Every module's tables, gathered for drizzle-kit and the typed database handle. Modules own their
// tables; only the module's repository queries them.
export * from '../modules/alerts/alerts.tables';
export * from '../modules/auth/auth.tables';
export * from '../modules/bots/bots.tables';
export * from '../modules/bots/backtest/backtest-exports.tables';
export * from '../modules/bots/optimize/optimize.tables';
export * from '../modules/email/email.tables';
export * from '../modules/futures/futures.tables';
export * from '../modules/relay/relay.tables';
export * from '../modules/trading/trading.tables';
export * from '../modules/wallet/wallet.tables';
