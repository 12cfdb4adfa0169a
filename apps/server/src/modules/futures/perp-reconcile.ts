import type { FastifyBaseLogger } from 'fastify';
import type { FuturesRepository } from './futures.repository';
import type { PerpLedger } from './perp-ledger';
import type { PerpVault } from './perp-vault';

export interface PerpReconcileDeps {
  ledger: PerpLedger;
  repo: FuturesRepository;
  vault: PerpVault;
  now: () => Date;
  log: FastifyBaseLogger;
}

export interface PerpReconciliation {
  /** USDC base units the vault holds on chain. */
  vault: bigint;
  /** What the venue owes: Σ collateral + open quotes + insurance + fees + withdrawals not paid yet. */
  owed: bigint;
  at: Date;
}

/**
 * Reconciles the vault's on-chain USDC with what the venue owes (the keeper runs it every minute):
 * they must be equal; a shortfall is logged as an error, a surplus as a warning.
 */
export function createPerpReconciler(deps: PerpReconcileDeps) {
  const { ledger, repo, vault, log } = deps;
  let last: PerpReconciliation | null = null;

  async function reconcile(): Promise<void> {
    const [held, exchange, unpaid] = await Promise.all([
      vault.balance(),
      ledger.read(),
      repo.unpaidWithdrawals(),
    ]);
    const owed = exchange.totalValue() + unpaid;
    last = { vault: held, owed, at: deps.now() };
    if (held < owed)
      log.error(
        { vault: held.toString(), owed: owed.toString() },
        'perp vault holds less than the venue owes',
      );
    else if (held > owed)
      log.warn(
        { vault: held.toString(), owed: owed.toString() },
        'perp vault holds more than the venue owes',
      );
  }

  return { reconcile, lastReconciliation: (): PerpReconciliation | null => last };
}
