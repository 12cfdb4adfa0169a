import type { FastifyInstance } from 'fastify';
import { ZClientMessageSchema, ERRORS, type TServerMessage } from '@solterm/contracts';
import { isAppError } from '../../lib/app-error';
import type { AuthService } from '../auth/auth.service';
import type { RealtimeHub } from './realtime.hub';

const MAX_CHANNELS_PER_SOCKET = 64;
/** WebSocket close code for a refused token (4000–4999 are application codes). */
export const WS_CLOSE_UNAUTHORIZED = 4401;

/**
 * /ws: `{type:"auth",token}` → `{type:"auth_success"}` (a bad token gets an error and the socket is
 * closed); `{type:"ping"}` → `{type:"pong"}`; `subscribe`/`unsubscribe` to channels.
 */
export function registerRealtimeRoutes(
  app: FastifyInstance,
  deps: { hub: RealtimeHub; auth: AuthService },
): void {
  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
    let userId: string | undefined;
    const channels = new Set<string>();
    const send = (message: TServerMessage) => socket.send(JSON.stringify(message));

    socket.on('message', async (raw) => {
      let parsed;
      try {
        parsed = ZClientMessageSchema.safeParse(JSON.parse(raw.toString()));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) {
        send({ type: 'error', error: 'Invalid message' });
        return;
      }
      const message = parsed.data;
      switch (message.type) {
        case 'ping':
          send({ type: 'pong', timestamp: message.timestamp ?? Date.now() });
          return;
        case 'auth':
          try {
            const context = await deps.auth.authenticate(message.token);
            if (userId && userId !== context.user.id) deps.hub.detach(socket, userId, []);
            userId = context.user.id;
            deps.hub.bindUser(socket, userId);
            send({ type: 'auth_success', user_id: userId });
          } catch (error) {
            if (!isAppError(error)) request.log.error({ err: error }, 'websocket authentication failed');
            send({ type: 'error', error: ERRORS.AUTH__TOKEN_INVALID.message });
            socket.close(WS_CLOSE_UNAUTHORIZED, 'Invalid token');
          }
          return;
        case 'subscribe':
          if (channels.size >= MAX_CHANNELS_PER_SOCKET) {
            send({ type: 'error', error: `At most ${MAX_CHANNELS_PER_SOCKET} channels per connection` });
            return;
          }
          channels.add(message.channel);
          deps.hub.subscribe(socket, message.channel);
          send({ type: 'subscribed', channel: message.channel });
          return;
        case 'unsubscribe':
          channels.delete(message.channel);
          deps.hub.unsubscribe(socket, message.channel);
          send({ type: 'unsubscribed', channel: message.channel });
          return;
      }
    });

    socket.on('close', () => deps.hub.detach(socket, userId, channels));
  });
}
