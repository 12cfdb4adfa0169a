import type { ModuleContext, ServerModule } from '../../lib/server-module';
import type { ChainService } from '../chain/chain.service';
import { createRelayRepository } from './relay.repository';
import { registerRelayRoutes } from './relay.routes';
import { createRelay, type Relay, type RelayDeps } from './relay.service';

/**
 * Every transaction the server relays or signs itself. Modules above register their ticket kinds
 * with the relay they are given, so the relay comes before wallet, trading, bots and futures.
 */
export function createRelayModule(
  { config, log, now, database }: ModuleContext,
  deps: { chain: ChainService; crashPoint?: RelayDeps['crashPoint'] },
): ServerModule<Relay> {
  const relay = createRelay({
    repo: createRelayRepository(database.db),
    db: database.db,
    chain: deps.chain,
    now,
    log,
    crashPoint: deps.crashPoint,
  });
  return {
    service: relay,
    jobs: {
      // Every server-signed transaction not settled yet (a lost answer, a crash, a restart) is asked
      // about again until it landed, failed, or expired unseen — the only moments a domain acts.
      singletons: [
        {
          name: 'relay-server-tickets',
          intervalMs: config.relayReconcileIntervalMs,
          run: async () => void (await relay.server.reconcile()),
        },
      ],
    },
    routes(server, { requireAuth }) {
      registerRelayRoutes(server, { relay, requireAuth });
    },
  };
}
