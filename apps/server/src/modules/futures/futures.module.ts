import { isTestNetwork } from '@solterm/contracts';
import { createModuleEvent } from '../../lib/module-events';
import { defineModule, type ClusterKeys, type ModuleContext } from '../../lib/server-module';
import type { AuthService } from '../auth/auth.service';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { RealtimeHub } from '../realtime/realtime.service';
import type { Relay } from '../relay/relay.service';
import type { WithdrawalLock } from '../wallet/wallet.service';
import { createDriftPerpVenue } from './drift-venue';
import { createFuturesFanOut } from './futures-fan-out';
import { createFuturesMarkets } from './futures-markets';
import { createFuturesRepository } from './futures.repository';
import { registerFuturesRoutes } from './futures.routes';
import { createFuturesService } from './futures.service';
import { createFuturesStream } from './futures.stream';
import { createPerpKeeper, type PerpKeeper } from './perp-keeper';
import { createPerpLedger } from './perp-ledger';
import { PERP_MARKETS } from './perp-markets';
import { createPerpVault } from './perp-vault';
import type { PerpVenue } from './perp-venue';

interface FuturesDeps {
  hub: RealtimeHub;
  /** Whose wallet an account pushed on `futures-account:<userId>` is shown with. */
  auth: AuthService;
  chain: ChainService;
  relay: Relay;
  market: MarketService;
  withdrawalLock: WithdrawalLock;
}

/**
 * The in-house venue: its USDC vault on chain, the maker and insurance fund minted by the treasury.
 * Before an order the service asks for its market to be brought up to the feed (`marketSyncRequested`),
 * which the keeper — built on the service — answers: an event, so neither is bound late.
 */
async function createLocalVenue(
  context: ModuleContext,
  deps: FuturesDeps,
  treasury: ClusterKeys['treasury'],
  walletAddressOf: (userId: string) => Promise<string | null>,
) {
  const { config, log, now, database } = context;
  const { chain, relay } = deps;
  const ledger = createPerpLedger({ database, markets: PERP_MARKETS, log });
  await ledger.load();
  const repo = createFuturesRepository(database.db, now);
  const vaultKey = await context.venueKey('perp-vault-key');
  const vault = createPerpVault({
    chain,
    relay,
    vault: vaultKey,
    minter: treasury,
    fundFees: isTestNetwork(config.network),
    log,
  });
  const marketSyncRequested = createModuleEvent<string>();
  const markets = createFuturesMarkets({
    ledger,
    repo,
    now,
    syncMarket: (symbol) => marketSyncRequested.emit(symbol),
    log,
  });
  const service = createFuturesService({
    ledger,
    repo,
    vault,
    chain,
    relay,
    now,
    withdrawalLock: deps.withdrawalLock,
    onEffect: createFuturesFanOut({
      hub: deps.hub,
      bookNow: (symbol) => markets.bookNow(symbol),
      accountOf: async (userId) =>
        service.accountTick({ id: userId, solanaWalletAddress: await walletAddressOf(userId) }),
    }),
    syncMarket: (symbol) => marketSyncRequested.emit(symbol),
  });
  const perpKeeper = createPerpKeeper({
    ledger,
    service,
    repo,
    vault,
    market: deps.market,
    chain,
    now,
    log,
    intervalMs: config.perpKeeperIntervalMs,
  });
  marketSyncRequested.on(perpKeeper.syncMarket);
  const perpVenue: PerpVenue = { kind: 'local', ...markets, trading: service };
  return { perpVenue, perpKeeper, vaultAddress: vaultKey.address };
}

/** The in-house venue where the cluster's keys are known, else Drift's market data (read-only). */
async function createVenue(
  context: ModuleContext,
  deps: FuturesDeps,
  walletAddressOf: (userId: string) => Promise<string | null>,
): Promise<{
  perpVenue: PerpVenue;
  perpKeeper?: PerpKeeper;
  vaultAddress?: string;
}> {
  const { config, log, now, clusterKeys } = context;
  if (config.perpVenue === 'drift') {
    return {
      perpVenue: createDriftPerpVenue({
        baseUrl: config.driftDataApiUrl,
        timeoutMs: config.market.providerTimeoutMs,
        log,
        now,
      }),
    };
  }
  if (!clusterKeys) {
    throw new Error(
      'PERP_VENUE=local needs the embedded cluster or LOCALNET_KEYS_DIR: unset SOLANA_RPC_URL, set LOCALNET_KEYS_DIR, or use drift',
    );
  }
  return createLocalVenue(context, deps, clusterKeys.treasury, walletAddressOf);
}

/**
 * Perpetual futures: the venue (local or Drift), its routes, the local venue's keeper as a singleton
 * job, and in each API process the stream of market statistics and accounts marked to the oracle.
 */
export async function createFuturesModule(context: ModuleContext, deps: FuturesDeps) {
  const walletAddressOf = async (userId: string) =>
    (await deps.auth.getProfile(userId)).solana_wallet_address;
  const { perpVenue, perpKeeper, vaultAddress } = await createVenue(context, deps, walletAddressOf);
  const stream = createFuturesStream({
    hub: deps.hub,
    venue: perpVenue,
    walletAddressOf,
    tickMs: context.config.market.tickMs,
    now: context.now,
    log: context.log,
  });
  return defineModule({
    service: perpVenue,
    perpKeeper,
    stream,
    /** The local venue's USDC vault wallet (token safety labels it): absent with Drift. */
    vaultAddress,
    jobs: { singletons: perpKeeper ? [perpKeeper.job()] : [], perApiProcess: [stream.job()] },
    routes(server, { requireAuth }) {
      registerFuturesRoutes(server, {
        venue: perpVenue,
        requireAuth,
        orderRateLimit: context.config.futuresOrderRateLimit,
      });
    },
  });
}
