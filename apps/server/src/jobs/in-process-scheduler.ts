import type { FastifyBaseLogger } from 'fastify';
import { runLoop, type JobScheduler, type RecurringJob } from './scheduler';

/** The embedded scheduler: one process, so every job (singleton or not) runs here in a loop. */
export function createInProcessScheduler(log: FastifyBaseLogger): JobScheduler {
  const jobs: RecurringJob[] = [];
  let running: { controller: AbortController; loops: Promise<void>[] } | undefined;

  const register = (job: RecurringJob) => {
    if (running) throw new Error(`job '${job.name}' registered after the scheduler started`);
    jobs.push(job);
  };

  return {
    kind: 'in-process',
    singleton: register,
    everyProcess: register,
    async start() {
      if (running) return;
      const controller = new AbortController();
      const loops = jobs.map((job) =>
        runLoop(job, controller.signal, (error) =>
          log.error({ err: error, job: job.name }, 'job run failed'),
        ),
      );
      running = { controller, loops };
    },
    async stop() {
      if (!running) return;
      const { controller, loops } = running;
      controller.abort();
      await Promise.all(loops);
      running = undefined;
    },
  };
}
