import type { ModuleContext, ServerModule } from '../../lib/server-module';
import { registerHealthRoutes } from './health.routes';

/** GET /api/health: liveness, network, version, database kind, and whether Python strategies run here. */
export function createHealthModule(
  { config, database }: ModuleContext,
  deps: { pythonAvailability: () => { available: boolean; reason: string | null } },
): ServerModule<undefined> {
  return {
    service: undefined,
    routes(server, { version }) {
      registerHealthRoutes(server, {
        network: config.network,
        database: database.kind,
        version,
        pythonAvailability: deps.pythonAvailability,
      });
    },
  };
}
