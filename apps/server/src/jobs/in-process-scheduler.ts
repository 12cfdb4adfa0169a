import type { FastifyBaseLogger } from 'fastify';
import { runLoop, type JobScheduler, type RecurringJob, type Task } from './scheduler';

/**
 * The embedded scheduler: one process, so every job (singleton or not) runs here in a loop, and a
 * submitted task runs at once, in this process (the task itself keeps heavy work off the event loop).
 */
export function createInProcessScheduler(log: FastifyBaseLogger): JobScheduler {
  const jobs: RecurringJob[] = [];
  const tasks = new Map<string, Task<unknown, unknown>>();
  let running: { controller: AbortController; loops: Promise<void>[] } | undefined;

  const register = (job: RecurringJob) => {
    if (running) throw new Error(`job '${job.name}' registered after the scheduler started`);
    jobs.push(job);
  };

  return {
    kind: 'in-process',
    singleton: register,
    everyProcess: register,
    task(task) {
      tasks.set(task.name, task as Task<unknown, unknown>);
    },
    async submit<P, R>(name: string, payload: P): Promise<R> {
      const task = tasks.get(name);
      if (!task) throw new Error(`no task '${name}' is registered`);
      // A JSON round trip, as on PostgreSQL: a handler gets the same payload either way.
      return (await task.run(JSON.parse(JSON.stringify(payload)))) as R;
    },
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
