import { Dec } from '../money/decimal';
import { allocate, notionalOf } from './perp-math';
import { abs, marketOf, type PerpAccount, type PerpPosition, type PerpVenueState } from './perp-state';

export interface FundingResult {
  market: string;
  rate: Dec;
  /** Signed collateral change per account (they sum to zero). */
  payments: Map<string, bigint>;
  at: number;
}

/**
 * Hourly funding in a market at `rate` (positive: longs pay shorts): each payer pays the rate on its
 * oracle notional, rounded half up, and the receivers share exactly that total by size (largest
 * remainder), so the payments sum to zero.
 */
export function applyFunding(venue: PerpVenueState, symbol: string, rate: Dec, at: number): FundingResult {
  const market = marketOf(venue, symbol);
  market.lastFundingRate = rate;
  const payments = new Map<string, bigint>();
  const result: FundingResult = { market: symbol, rate, payments, at };
  if (rate.isZero() || market.oracle <= 0n) return result;
  const payers: { account: PerpAccount; position: PerpPosition; lots: bigint }[] = [];
  const receivers: typeof payers = [];
  for (const account of venue.accounts.values()) {
    const position = account.positions.get(symbol);
    if (!position || position.size === 0n) continue;
    const longPays = rate.isPositive();
    const entry = { account, position, lots: abs(position.size) };
    if (position.size > 0n === longPays) payers.push(entry);
    else receivers.push(entry);
  }
  const magnitude = rate.abs();
  let total = 0n;
  for (const payer of payers) {
    const notional = notionalOf(payer.lots, market.oracle, market.spec.sizeDecimals);
    const amount = BigInt(
      magnitude.times(notional.toString()).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toFixed(),
    );
    payer.account.collateral -= amount;
    payer.position.funding -= amount;
    payments.set(payer.account.id, (payments.get(payer.account.id) ?? 0n) - amount);
    total += amount;
  }
  const parts = allocate(
    total,
    receivers.map((receiver) => receiver.lots),
  );
  receivers.forEach((receiver, i) => {
    receiver.account.collateral += parts[i]!;
    receiver.position.funding += parts[i]!;
    payments.set(receiver.account.id, (payments.get(receiver.account.id) ?? 0n) + parts[i]!);
  });
  return result;
}
