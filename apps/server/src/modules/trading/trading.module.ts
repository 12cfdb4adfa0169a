import { isTestNetwork, type TSpotOrder } from '@solterm/contracts';
import { defineModule, type ModuleContext } from '../../lib/server-module';
import type { ChainService } from '../chain/chain.service';
import type { MarketService } from '../market/market.service';
import type { RealtimeHub } from '../realtime/realtime.service';
import type { Relay } from '../relay/relay.service';
import { createLimitKeeper, type LimitKeeper } from './limit-keeper';
import { registerTradingRoutes } from './trading.routes';
import { createTradingService } from './trading.service';
import { createTradingRepository } from './trading.repository';
import { createTradingStream } from './trading.stream';
import { createJupiterVenue } from './venues/jupiter-venue';
import { createLocalRfqVenue } from './venues/local-rfq-venue';
import type { SpotVenue } from './venues/spot-venue';

/** The spot venue: the local RFQ market maker where the cluster's keys are known, else Jupiter. */
function createVenue(
  { config, log, clusterKeys }: ModuleContext,
  chain: ChainService,
  market: MarketService,
): SpotVenue {
  if (config.spotVenue === 'local-rfq' && !clusterKeys) {
    throw new Error(
      'SPOT_VENUE=local-rfq needs the embedded cluster or LOCALNET_KEYS_DIR: unset SOLANA_RPC_URL, set LOCALNET_KEYS_DIR, or use jupiter',
    );
  }
  if (config.spotVenue === 'local-rfq' && clusterKeys) {
    return createLocalRfqVenue({
      chain,
      maker: clusterKeys.marketMaker,
      ...config.rfq,
      async usdPriceOf(token) {
        return market.getUsdPrice(await market.resolveToken(token.mint));
      },
    });
  }
  return createJupiterVenue({
    baseUrl: config.market.jupiterSwapUrl,
    apiKey: config.market.jupiterApiKey,
    timeoutMs: config.market.providerTimeoutMs,
    log,
  });
}

/**
 * Spot trading on the venue (local RFQ or Jupiter) and, on the local venue, the limit-order keeper:
 * limit orders escrow with a venue key of their own (kept under DATA_DIR) and settle against the maker.
 * Order changes are pushed to their user's sockets.
 */
export async function createTradingModule(
  context: ModuleContext,
  deps: { chain: ChainService; market: MarketService; hub: RealtimeHub; relay: Relay },
) {
  const { config, now, log, database, clusterKeys } = context;
  const { chain, relay, hub } = deps;
  const venue = createVenue(context, chain, deps.market);
  const escrow = clusterKeys ? await context.venueKey('venue-escrow-key') : undefined;
  const repo = createTradingRepository(database.db, now);
  const publishOrder = (userId: string, order: TSpotOrder) => {
    void hub.publish(userId, { type: 'order_update', data: order }).catch(() => undefined);
  };
  const trading = createTradingService({
    repo,
    relay,
    chain,
    market: deps.market,
    venue,
    escrowAddress: escrow?.address,
    now,
    log,
    onOrderChanged: publishOrder,
  });
  const keeper: LimitKeeper | undefined =
    escrow && clusterKeys
      ? createLimitKeeper({
          repo,
          chain,
          trading,
          relay,
          escrow,
          maker: clusterKeys.marketMaker,
          intervalMs: config.limitKeeperIntervalMs,
          fundEscrow: isTestNetwork(config.network),
          now,
          log,
          onOrderChanged: publishOrder,
        })
      : undefined;
  // Each API process pushes the spot book and positions to its own sockets.
  const stream = createTradingStream({ hub, trading, tickMs: config.market.tickMs, now, log });
  return defineModule({
    service: trading,
    keeper,
    stream,
    /** The limit-order escrow's wallet (token safety labels it): absent with Jupiter. */
    escrowAddress: escrow?.address,
    jobs: {
      perApiProcess: [stream.job()],
      // Sends interrupted by a stop are settled from the chain: by the keeper's passes, or on their own.
      singletons: [
        keeper?.job() ?? {
          name: 'relay-reconcile',
          intervalMs: config.limitKeeperIntervalMs,
          run: async () => void (await relay.reconcileSent()),
        },
      ],
    },
    routes(server, { requireAuth }) {
      registerTradingRoutes(server, { trading, keeper, requireAuth });
    },
  });
}
