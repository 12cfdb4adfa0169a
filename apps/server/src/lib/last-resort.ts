import type { FastifyBaseLogger } from 'fastify';

/**
 * The server's last resort for an error nothing caught (an exception thrown in an event-loop
 * callback, a rejection nobody handled): it is logged and the server keeps serving, instead of
 * every user's requests, sockets and bots ending with the process. The run whose code threw is
 * failed by its own limits (every sandboxed run has a time limit, every request a timeout). Not a
 * design: the sandbox channels are parsed so that nothing a child process writes can throw here.
 */
export function keepServingOnUncaughtErrors(log: FastifyBaseLogger): void {
  process.on('uncaughtException', (error, origin) => {
    log.error({ err: error, origin }, 'uncaught exception: logged, and the server keeps serving');
  });
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled rejection: logged, and the server keeps serving');
  });
}
