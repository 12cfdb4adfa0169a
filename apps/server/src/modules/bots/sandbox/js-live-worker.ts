import { parentPort } from 'node:worker_threads';
import { StrategyError, type StrategyParameters } from '@solterm/engine';
import { createJsLiveStrategy, type SandboxLimits } from './js-strategy';

// The live JavaScript thread: every live user-code bot of this process has a QuickJS context here,
// so a strategy's CPU time (up to its per-candle deadline) never blocks the API's event loop.
// Messages: { type: 'open', id, code, parameters, seed, limits } → { id, opened } or { id, error };
// { type: 'step', id, request, values } → { request, intent } or { request, error }; { type: 'close', id }.

type Message =
  | {
      type: 'open';
      id: number;
      code: string;
      parameters: StrategyParameters;
      seed: number;
      limits: SandboxLimits;
    }
  | { type: 'step'; id: number; request: number; values: (number | null)[] }
  | { type: 'close'; id: number };

const strategies = new Map<number, Awaited<ReturnType<typeof createJsLiveStrategy>>>();
const errorOf = (error: unknown) => ({
  strategy: error instanceof StrategyError,
  message: error instanceof Error ? error.message : String(error),
});

parentPort!.on('message', (message: Message) => {
  if (message.type === 'open') {
    createJsLiveStrategy(message).then(
      (strategy) => {
        strategies.set(message.id, strategy);
        parentPort!.postMessage({ id: message.id, opened: true });
      },
      (error: unknown) => parentPort!.postMessage({ id: message.id, error: errorOf(error) }),
    );
    return;
  }
  if (message.type === 'close') {
    strategies.get(message.id)?.dispose();
    strategies.delete(message.id);
    return;
  }
  const strategy = strategies.get(message.id);
  if (!strategy) {
    parentPort!.postMessage({
      request: message.request,
      error: { strategy: false, message: 'no such strategy' },
    });
    return;
  }
  const [time, open, high, low, close, volume, openLots, maxPositions, lastEntryPrice] = message.values as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number | null,
  ];
  try {
    const intent = strategy.onCandle(
      { time, open, high, low, close, volume },
      // A flat position's last entry price travels as null; strategies read NaN, as in backtests.
      { openLots, maxPositions, lastEntryPrice: lastEntryPrice ?? Number.NaN },
    );
    parentPort!.postMessage({ request: message.request, intent: intent ?? null });
  } catch (error) {
    parentPort!.postMessage({ request: message.request, error: errorOf(error) });
  }
});
