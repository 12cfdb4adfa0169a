import { defineModule, type ModuleContext } from '../../lib/server-module';
import type { AuthService } from '../auth/auth.service';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { Relay } from '../relay/relay.service';
import { createWalletRepository } from './wallet.repository';
import { registerWalletRoutes } from './wallet.routes';
import { createWalletService, type WithdrawalLock } from './wallet.service';

/**
 * Balances, transfers and the faucet. `withdrawalLock` is auth's wallet-change lock as the modules
 * that pay out (bots, futures) ask it: money leaves for a newly linked wallet only once it ends.
 */
export function createWalletModule(
  { config, now, database, clusterKeys }: ModuleContext,
  deps: { chain: ChainService; market: MarketService; relay: Relay; auth: AuthService },
) {
  const wallet = createWalletService({
    chain: deps.chain,
    market: deps.market,
    relay: deps.relay,
    network: config.network,
    faucetRateLimit: config.faucetRateLimit,
    faucetGrants: createWalletRepository(database.db),
    now,
    // The cluster's treasury is the mint authority of its tokens: the faucet mints USDC with it.
    faucetMinter: clusterKeys?.treasury,
  });
  const withdrawalLock: WithdrawalLock = (userId, address) =>
    deps.auth.withdrawalsLockedUntil(userId, address, now());
  return defineModule({
    service: wallet,
    withdrawalLock,
    routes(server, { requireAuth }) {
      registerWalletRoutes(server, { wallet, requireAuth });
    },
  });
}
