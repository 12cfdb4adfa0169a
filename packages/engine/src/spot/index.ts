// The spot-trading kernel: RFQ pricing of the local market maker, its ladder, limit-order escrow,
// positions from fills and execution receipts. Pure and exact on base units.
export * from './rfq-pricing';
export * from './order-book-ladder';
export * from './limit-orders';
export * from './positions';
export * from './receipts';
export * from './quote-firmness';
export * from './affordability';
export * from './trigger-orders';
