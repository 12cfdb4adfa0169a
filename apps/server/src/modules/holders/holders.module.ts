import type { ModuleContext, ServerModule } from '../../lib/server-module';
import type { MarketService } from '../market/market.service';
import { registerHoldersRoutes } from './holders.routes';
import { createHoldersService, type HoldersService } from './holders.service';
import {
  createSimulatedHolderSource,
  createSimulatedWalletDirectory,
  type SimulatedHolderOptions,
} from './simulated-holder-source';

/** Top holders of a token and their labels: from the market simulator's universe for now. */
export function createHoldersModule(
  { now }: ModuleContext,
  deps: {
    market: MarketService;
    /** The market's seed, its token facts and prices (the market module's `simulation`). */
    simulation: Omit<SimulatedHolderOptions, 'now'>;
  },
): ServerModule<HoldersService> {
  const { simulation } = deps;
  // Holder balances come from the simulator until the local chain provides token accounts (holder-source.ts).
  const holders = createHoldersService({
    market: deps.market,
    source: createSimulatedHolderSource({ ...simulation, now }),
    directory: createSimulatedWalletDirectory({
      seed: simulation.seed,
      dexOf: (mint) => simulation.facts(mint)?.dex,
    }),
  });
  return {
    service: holders,
    routes(server) {
      registerHoldersRoutes(server, { holders });
    },
  };
}
