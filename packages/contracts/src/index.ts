// Public face of @solterm/contracts: schemas and types for every /api call and WS message, error
// codes, and the spec's pure rules. No I/O.
export * from './api/envelope';
export * from './errors/error-codes';
export * from './auth/auth.schemas';
export * from './health/health.schemas';
export * from './dev/dev.schemas';
export * from './realtime/ws-messages';
