import { success, ZHealthSchema, type TNetwork } from '@solterm/contracts';
import type { DatabaseKind } from '../../db/database';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';

export function registerHealthRoutes(
  app: ZodApp,
  deps: {
    network: TNetwork;
    database: DatabaseKind;
    version: string;
    /** Whether Python strategies run here, and if not why (the host lacks the network wall). */
    pythonAvailability: () => { available: boolean; reason: string | null };
  },
): void {
  const startedAt = performance.now();
  app.get('/api/health', {
    schema: {
      tags: ['system'],
      summary: 'Liveness, network mode, version and database kind',
      response: { 200: success(ZHealthSchema) },
    },
    handler: async () =>
      ok({
        status: 'ok' as const,
        network: deps.network,
        version: deps.version,
        database: deps.database,
        uptime_s: Math.round((performance.now() - startedAt) / 1000),
        sandbox: { python: deps.pythonAvailability() },
      }),
  });
}
