import type { TFuturesLeverageResult, TFuturesLeverageSetting } from '@solterm/contracts';
import { PERP_DEFAULT_LEVERAGE, type PerpAccount, type PerpExchange } from '@solterm/engine';
import { PERP_MARKETS, type PerpMarket } from './perp-markets';
import type { PerpCommand } from './perp-commands';
import type { PerpWire } from './perp-wire';

/** Every market's leverage setting of an account (the default where it has none, or no account). */
export function leverageSettingsOf(
  exchange: PerpExchange,
  account: PerpAccount | undefined,
): TFuturesLeverageSetting[] {
  return PERP_MARKETS.map((market) => ({
    symbol: market.symbol,
    leverage: account
      ? exchange.leverageOf(account, market.symbol)
      : Math.min(PERP_DEFAULT_LEVERAGE, market.maxLeverage),
    max_leverage: market.maxLeverage,
    in_use: account ? exchange.hasExposureIn(account, market.symbol) : false,
  }));
}

/**
 * POST /futures/leverage, as Hyperliquid's updateLeverage: its own command in the venue's log (so a
 * restart replays it), refused when the position and open orders of the market could not be
 * margined at the new leverage. Orders never change a leverage in use.
 */
export function createLeverageAction(deps: {
  run: (command: PerpCommand) => Promise<unknown>;
  read: () => Promise<PerpExchange>;
  wire: PerpWire;
  now: () => Date;
}) {
  return async (userId: string, market: PerpMarket, leverage: number): Promise<TFuturesLeverageResult> => {
    await deps.run({
      k: 'leverage',
      account: userId,
      market: market.symbol,
      leverage,
      at: deps.now().getTime(),
    });
    const exchange = await deps.read();
    const account = exchange.account(userId);
    return {
      symbol: market.symbol,
      leverage: exchange.leverageOf(account, market.symbol),
      max_leverage: market.maxLeverage,
      in_use: exchange.hasExposureIn(account, market.symbol),
      initial_margin: deps.wire.usdc(exchange.initialRequirementOf(account)),
      free_collateral: deps.wire.usdc(exchange.freeCollateralOf(account)),
    };
  };
}
