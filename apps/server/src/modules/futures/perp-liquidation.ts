import type { FuturesService } from './futures.service';
import { MAKER_ACCOUNT } from './perp-commands';
import type { PerpLedger } from './perp-ledger';

export interface PerpLiquidationDeps {
  ledger: PerpLedger;
  service: FuturesService;
  now: () => Date;
}

/**
 * The keeper's liquidation sweep, run on every oracle move: one `liquidate` command per account
 * below maintenance (never the venue's maker, which is the backstop). The engine's
 * `perp-liquidation.ts` closes the positions, charges the fee and covers bad debt; the command's
 * effect records the fills and tells the user why. Answers how many accounts it liquidated.
 */
export async function liquidateBelowMaintenance(deps: PerpLiquidationDeps): Promise<number> {
  const exchange = await deps.ledger.read();
  const accounts = exchange.liquidatable().filter((id) => id !== MAKER_ACCOUNT);
  for (const account of accounts) {
    await deps.service.run({ k: 'liquidate', account, at: deps.now().getTime() });
  }
  return accounts.length;
}
