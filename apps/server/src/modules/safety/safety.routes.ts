import { success, ZTokenSafetyParamsSchema, ZTokenSafetySchema } from '@solterm/contracts';
import { ok } from '../../lib/reply';
import type { ZodApp } from '../../lib/zod-app';
import type { TokenSafetyService } from './safety.service';

/** Per client: a page of search results or Trending asks for one badge per row. */
export const TOKEN_SAFETY_RATE_LIMIT = { max: 120, timeWindow: 60_000 };

/** GET /api/tokens/{mint}/safety (public). */
export function registerSafetyRoutes(app: ZodApp, deps: { safety: TokenSafetyService }): void {
  app.get('/api/tokens/:mint/safety', {
    schema: {
      tags: ['market'],
      summary:
        "A mint's safety from the chain: authorities, Token-2022 extensions, largest holders, flags and a level (cached a minute)",
      params: ZTokenSafetyParamsSchema,
      response: { 200: success(ZTokenSafetySchema) },
    },
    config: { rateLimit: TOKEN_SAFETY_RATE_LIMIT },
    handler: async (request) => ok(await deps.safety.getSafety(request.params.mint)),
  });
}
