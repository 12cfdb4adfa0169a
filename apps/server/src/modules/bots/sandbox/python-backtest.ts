import type { TBacktestResult } from '@solterm/contracts';
import { candleSeriesOf, StrategyError, type BacktestResult } from '@solterm/engine';
import { computeBacktestAsync, type BacktestJob } from '../backtest/backtest-job';
import { rulesWireOf } from '../backtest/backtest-rules';
import { candleFrames } from './candle-buffer';
import { loaded, strategyMessage, type Host } from './python-process';

/**
 * Candles a backtest's sandbox process holds at most (~400 KB): they are streamed to it a window at a
 * time, in frames of 64 KiB at most, never the whole range (a year of minutes is 25 MB of doubles,
 * which the process and Python's heap held three times over before).
 */
export const SANDBOX_WINDOW = 8192;

interface Intent {
  readonly index: number;
  readonly intent: unknown;
}

/**
 * What the process answered to request `id` over candles [from, to): how far it ran the strategy
 * (`upto`, at least one candle) and the intents of those candles, in order; or a StrategyError with
 * the strategy's error. Anything else is a protocol violation and ends the process.
 */
function answerOf(
  host: Host,
  message: Record<string, unknown>,
  request: { id: number; from: number; to: number },
): { upto: number; intents: Intent[] } {
  const keys = Object.keys(message).sort().join(',');
  if (message.id !== request.id) {
    throw host.violation(`an answer to request ${String(message.id)}, not ${request.id}`);
  }
  if (keys === 'error,id' && typeof message.error === 'string') {
    throw new StrategyError(strategyMessage(message.error));
  }
  const { upto, intents } = message;
  if (
    keys !== 'id,intents,upto' ||
    typeof upto !== 'number' ||
    !Number.isInteger(upto) ||
    upto <= request.from ||
    upto > request.to ||
    !Array.isArray(intents)
  ) {
    throw host.violation('an answer of the wrong shape');
  }
  let after = request.from - 1;
  return {
    upto,
    intents: intents.map((entry: unknown) => {
      const index = Array.isArray(entry) && entry.length === 2 ? (entry[0] as unknown) : undefined;
      if (typeof index !== 'number' || !Number.isInteger(index) || index <= after || index >= upto) {
        throw host.violation('an answer of the wrong shape');
      }
      after = index;
      return { index, intent: (entry as unknown[])[1] };
    }),
  };
}

/**
 * A Python backtest in `host` (loaded, not yet told its job): the process runs the strategy a window
 * of candles at a time with its own copy of the runtime for the position it shows the strategy, and
 * answers the intents; this process computes the backtest itself (computeBacktestAsync), taking each
 * run's intent from those answers. An intent it was not asked for (a candle its engine has passed)
 * breaks the protocol.
 */
export async function runPythonBacktest(
  host: Host,
  job: BacktestJob,
  onProgress?: (done: number, total: number) => void,
  onFills?: (fills: BacktestResult['fillLog']) => void,
): Promise<TBacktestResult> {
  if (job.strategy.kind !== 'python') throw new TypeError('the Python sandbox runs Python strategies only');
  const { code, parameters } = job.strategy;
  const series = candleSeriesOf(job.candles);
  host.send(JSON.stringify({ load: 'backtest', code, parameters, seed: job.seed, rules: rulesWireOf(job) }));
  await loaded(host);
  let id = 0;
  /** Candles sent to the process: it has [0, sent) and keeps those from the latest request on. */
  let sent = 0;
  /** Candles the process has run the strategy over; `queue` holds their intents not yet taken. */
  let upto = 0;
  let queue: Intent[] = [];
  let head = 0;
  const more = async () => {
    id += 1;
    const request = { id, from: upto, to: Math.min(series.length, upto + SANDBOX_WINDOW) };
    for (const frame of candleFrames(series, sent, request.to)) host.send(frame);
    sent = Math.max(sent, request.to);
    host.send(JSON.stringify(request));
    ({ upto, intents: queue } = answerOf(host, await host.next(), request));
    head = 0;
  };
  return computeBacktestAsync(
    job,
    series,
    {
      batched: true,
      async onCandles(from, to) {
        for (;;) {
          const next = queue[head];
          if (next) {
            if (next.index < from) throw host.violation(`an intent for candle ${next.index}, passed`);
            if (next.index >= to) return null;
            head += 1;
            return next;
          }
          if (upto >= to) return null;
          await more();
        }
      },
    },
    onProgress,
    onFills,
  );
}
