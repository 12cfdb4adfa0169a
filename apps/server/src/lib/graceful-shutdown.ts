import type { FastifyBaseLogger } from 'fastify';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * On SIGINT or SIGTERM: `close` once (finish running jobs and requests), then exit; exit 1 when it
 * fails or takes longer than the grace period.
 */
export function exitOnSignals(log: FastifyBaseLogger, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
