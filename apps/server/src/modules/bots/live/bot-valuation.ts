import { WRAPPED_SOL_MINT } from '@solterm/contracts';
import { AppError } from '../../../lib/app-error';
import type { TradingService } from '../../trading/trading.service';

/**
 * A run's virtual cash: the approval's SOL at the maker's bid in the pair's quote token (lamports
 * as they are for a SOL-quoted pair). @throws TRADING__VENUE_UNAVAILABLE when the maker does not quote.
 */
export function createLamportsValuation(trading: TradingService) {
  return async function valueOfLamports(quoteMint: string, lamports: bigint): Promise<bigint> {
    if (quoteMint === WRAPPED_SOL_MINT) return lamports;
    const value = await trading.makerQuoteAmount(await trading.resolvePair('SOL/USDC'), 'Sell', lamports);
    if (value === null) throw new AppError('TRADING__VENUE_UNAVAILABLE');
    return value;
  };
}
