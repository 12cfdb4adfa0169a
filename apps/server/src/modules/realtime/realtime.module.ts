import type { AuthService } from '../auth/auth.service';
import type { ModuleEvent } from '../../lib/module-events';
import type { ModuleContext, ServerModule } from '../../lib/server-module';
import { registerRealtimeRoutes } from './realtime.routes';
import { createRealtimeHub, type RealtimeHub } from './realtime.service';

/** /ws and the hub behind it: messages to a user's sockets and channels, across processes. */
export async function createRealtimeModule(
  { log, now, database }: ModuleContext,
  deps: {
    auth: AuthService;
    /** Auth's revocations: the revoked sessions' sockets are closed. */
    sessionsRevoked: ModuleEvent<{ userId: string; sessionId?: string }>;
  },
): Promise<ServerModule<RealtimeHub>> {
  const hub = createRealtimeHub({ database, log, now });
  await hub.start();
  deps.sessionsRevoked.on((revocation) => hub.revokeSessions(revocation));
  return {
    service: hub,
    routes(server) {
      registerRealtimeRoutes(server, { hub, auth: deps.auth, now });
    },
    close: () => hub.stop(),
  };
}
