import type { ModuleContext, ServerModule } from '../../lib/server-module';
import type { ChainService } from '../chain/chain.service';
import { registerSafetyRoutes } from './safety.routes';
import { createTokenSafetyService, type TokenSafetyService } from './safety.service';

/** The app's own accounts on chain, as the venue modules name them (absent on a real cluster). */
export interface VenueAccounts {
  maker?: string;
  escrow?: string;
  vault?: string;
  treasury?: string;
}

/**
 * Token safety (`GET /api/tokens/{mint}/safety`). It sits above the venue modules: the composition
 * root hands it the venue's accounts (maker, escrow, vault), which are labelled and not counted as
 * holders' concentration, and the treasury, the issuer of the embedded cluster's listed tokens.
 */
export function createSafetyModule(
  { now }: ModuleContext,
  deps: { chain: ChainService; venue: VenueAccounts },
): ServerModule<TokenSafetyService> {
  const { maker, escrow, vault, treasury } = deps.venue;
  const knownAccounts = new Map<string, string>();
  if (maker) knownAccounts.set(maker, 'Venue market maker');
  if (escrow) knownAccounts.set(escrow, 'Venue limit-order escrow');
  if (vault) knownAccounts.set(vault, 'Perp venue vault');
  if (treasury) knownAccounts.set(treasury, 'Cluster treasury');
  const knownIssuers = new Map<string, string>(treasury ? [[treasury, 'the cluster treasury']] : []);
  const safety = createTokenSafetyService({ chain: deps.chain, now, knownAccounts, knownIssuers });
  return {
    service: safety,
    routes(server) {
      registerSafetyRoutes(server, { safety });
    },
  };
}
