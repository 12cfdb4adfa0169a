import { Worker } from 'node:worker_threads';
import { StrategyError, type CandleView, type PositionView, type StrategyParameters } from '@solterm/engine';
import type { FastifyBaseLogger } from 'fastify';
import { stepValues } from './candle-buffer';
import type { SandboxLimits } from './js-strategy';

const WORKER_ENTRY = new URL('./js-live-worker-entry.mjs', import.meta.url);

interface Reply {
  id?: number;
  opened?: true;
  request?: number;
  intent?: unknown;
  error?: { strategy: boolean; message: string };
}

/** Past its own deadline, how long a step may take before the thread is taken for stuck and replaced. */
const STUCK_GRACE_MS = 5000;

/**
 * Live user-JavaScript strategies in one worker thread (js-live-worker.ts): a QuickJS context per
 * run, stepped a candle at a time, so user code never runs on the API's event loop. A thread that
 * stops answering is replaced; the runs it held get a plain Error (the runner rebuilds them).
 */
export function createJsLiveThread(options: { log: FastifyBaseLogger }) {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: unknown) => void }>();

  function thread(): Worker {
    if (worker) return worker;
    const created = new Worker(WORKER_ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      stdout: false,
    });
    created.on('message', (reply: Reply) => {
      const key = reply.request ?? reply.id!;
      const entry = waiting.get(key);
      waiting.delete(key);
      entry?.resolve(reply);
    });
    const lost = (error: unknown) => {
      if (worker !== created) return;
      worker = undefined;
      options.log.warn({ err: error }, 'live JavaScript thread lost; its runs will be rebuilt');
      for (const entry of waiting.values()) entry.reject(new Error('the live JavaScript thread stopped'));
      waiting.clear();
    };
    created.on('error', lost);
    created.on('exit', lost);
    created.unref();
    worker = created;
    return created;
  }

  function ask(
    message: { type: string; id: number; [field: string]: unknown },
    key: number,
    timeoutMs: number,
  ): Promise<Reply> {
    const target = thread();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // The sandbox's own deadline answers first; no answer at all means the thread is stuck.
        waiting.delete(key);
        reject(new Error('the live JavaScript thread did not answer'));
        void target.terminate();
      }, timeoutMs + STUCK_GRACE_MS);
      waiting.set(key, {
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      target.postMessage(message);
    });
  }

  return {
    /**
     * Opens a run's strategy in the thread.
     *
     * @throws StrategyError when the code does not load.
     */
    async open(init: { code: string; parameters: StrategyParameters; seed: number; limits: SandboxLimits }) {
      const id = nextId++;
      const opened = await ask({ type: 'open', id, ...init }, id, init.limits.cpuMs);
      if (opened.error) throw new StrategyError(opened.error.message);
      const generation = worker;
      return {
        async step(candle: CandleView, position: PositionView): Promise<unknown> {
          if (worker !== generation) throw new Error('the live JavaScript thread was replaced');
          const request = nextId++;
          const reply = await ask(
            {
              type: 'step',
              id,
              request,
              values: stepValues(candle, position),
            },
            request,
            init.limits.cpuMs,
          );
          if (reply.error) {
            throw reply.error.strategy
              ? new StrategyError(reply.error.message)
              : new Error(reply.error.message);
          }
          return reply.intent;
        },
        dispose() {
          if (worker === generation) worker?.postMessage({ type: 'close', id });
        },
      };
    },
    async close(): Promise<void> {
      const current = worker;
      worker = undefined;
      await current?.terminate();
    },
  };
}

export type JsLiveThread = ReturnType<typeof createJsLiveThread>;
