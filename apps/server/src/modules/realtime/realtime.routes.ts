import type { FastifyInstance } from 'fastify';
import { CHANNELS, ZClientMessageSchema, ERRORS, type TServerMessage } from '@solterm/contracts';
import { AppError, isAppError } from '../../lib/app-error';
import type { AuthService } from '../auth/auth.service';
import { WS_CLOSE_UNAUTHORIZED, type RealtimeHub } from './realtime.service';

export { WS_CLOSE_UNAUTHORIZED };

const MAX_CHANNELS_PER_SOCKET = 64;

/**
 * /ws: `{type:"auth",token}` → `{type:"auth_success"}` (a bad token gets an error and the socket is
 * closed); `{type:"ping"}` → `{type:"pong"}`; `subscribe`/`unsubscribe` to registered channels (an
 * unknown name is refused; a per-user channel only by its user: see CHANNELS in @solterm/contracts). A socket is bound to its session:
 * logout, a password reset or expiry closes it with 4401.
 */
export function registerRealtimeRoutes(
  app: FastifyInstance,
  deps: { hub: RealtimeHub; auth: AuthService; now: () => Date },
): void {
  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
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
          send({ type: 'pong', timestamp: message.timestamp ?? deps.now().getTime() });
          return;
        case 'auth':
          try {
            const context = await deps.auth.authenticate(message.token);
            deps.hub.bindSession(socket, {
              userId: context.user.id,
              sessionId: context.sessionId,
              expiresAt: context.expiresAt,
            });
            // A revocation fanned out while the token was being checked found no socket to close:
            // look again now that this one is bound, so it cannot slip through.
            if (!(await deps.auth.isSessionActive(context.sessionId)))
              throw new AppError('AUTH__TOKEN_INVALID');
            // Another user's per-user channels do not follow the socket to its new user.
            for (const channel of channels) {
              if (CHANNELS.access(channel, context.user.id) !== 'forbidden') continue;
              channels.delete(channel);
              deps.hub.unsubscribe(socket, channel);
            }
            send({ type: 'auth_success', user_id: context.user.id });
          } catch (error) {
            if (!isAppError(error)) request.log.error({ err: error }, 'websocket authentication failed');
            deps.hub.detach(socket, []);
            send({ type: 'error', error: ERRORS.AUTH__TOKEN_INVALID.message });
            socket.close(WS_CLOSE_UNAUTHORIZED, 'Invalid token');
          }
          return;
        case 'subscribe':
          if (channels.size >= MAX_CHANNELS_PER_SOCKET) {
            send({ type: 'error', error: `At most ${MAX_CHANNELS_PER_SOCKET} channels per connection` });
            return;
          }
          switch (CHANNELS.access(message.channel, deps.hub.userOf(socket))) {
            case 'unknown':
              // Nothing is ever published on an unregistered name: "subscribed" would be a silent lie.
              send({ type: 'error', error: `Unknown channel: ${message.channel}` });
              return;
            case 'forbidden':
              send({ type: 'error', error: `Not allowed to subscribe to ${message.channel}` });
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

    socket.on('close', () => deps.hub.detach(socket, channels));
  });
}
