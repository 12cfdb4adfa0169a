import type { RpcTransport } from '@solana/rpc-spec';
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SolanaError,
} from '@solana/kit';

/**
 * What happens to the answer of a sendTransaction the cluster was given:
 * - `http-503`: the node answers 503 (kit's own HTTP error, as a real load balancer would cause);
 * - `drop`: the connection closes before the answer (undici's "fetch failed");
 * - `timeout`: the client gives up waiting (an abort);
 * - `late`: the answer is lost AND the cluster only takes the transaction later — after the next
 *   call the server makes (a status poll sees nothing yet, then it lands);
 * - `lost`: the request never reaches the cluster (503 before forwarding: truly not sent).
 */
export type SendFault = 'http-503' | 'drop' | 'timeout' | 'late' | 'lost';

export const SEND_FAULTS: readonly SendFault[] = ['http-503', 'drop', 'timeout', 'late', 'lost'];

interface JsonRpcPayload {
  method?: string;
  params?: unknown[];
}

/** A call held before it reaches the cluster: `reached` once it arrived, forwarded on `release()`. */
export interface HeldCall {
  reached: Promise<void>;
  release(): void;
}

interface Hold {
  matches: (method: string | undefined, params: unknown[]) => boolean;
  arrive: () => void;
  released: Promise<void>;
}

function failure(fault: Exclude<SendFault, 'late'> | 'status'): Error {
  switch (fault) {
    case 'http-503':
    case 'lost':
    case 'status':
      return new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, {
        headers: new Headers({ 'content-type': 'text/plain' }),
        message: 'Service Unavailable',
        statusCode: 503,
      });
    case 'drop':
      return new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      });
    case 'timeout':
      return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  }
}

/** The accounts a wire transaction (base64) names in its message. */
export function accountsOf(wire: string): string[] {
  const { messageBytes } = getTransactionDecoder().decode(Buffer.from(wire, 'base64'));
  return getCompiledTransactionMessageDecoder().decode(messageBytes).staticAccounts.map(String);
}

/** The signature of a wire transaction (base64): its first, the fee payer's. */
function signatureOf(wire: string): string {
  return getBase58Decoder().decode(Buffer.from(wire, 'base64').subarray(1, 65));
}

/**
 * A JSON-RPC fault injector between the server and the cluster (a wrapper around the transport of
 * every chain call): on command it loses the answers of sendTransaction calls the cluster was given,
 * fails status polls, or takes the whole node down. Everything it does is counted, so a test can
 * tell which transactions reached the cluster.
 */
export function createRpcFaults() {
  const sendFaults: SendFault[] = [];
  let failingStatusPolls = 0;
  let down = false;
  const late: (() => Promise<unknown>)[] = [];
  /** Every wire transaction that reached the cluster (base64), in order. */
  const forwarded: string[] = [];
  let injected = 0;
  const holds: Hold[] = [];
  /** Which sends take the send faults (all when unset), and the signatures of those that took one. */
  let target: ((wire: string) => boolean) | undefined;
  const faulted = new Set<string>();

  async function flushLate(): Promise<void> {
    while (late.length > 0) await late.shift()!().catch(() => undefined);
  }

  return {
    wrap(inner: RpcTransport): RpcTransport {
      return async <T>(request: Parameters<RpcTransport>[0]): Promise<T> => {
        const payload = request.payload as JsonRpcPayload;
        const method = payload.method;
        // A late send reaches the cluster just after the call that follows it was answered.
        const pendingLate = late.length > 0;
        const hold = holds.findIndex((candidate) => candidate.matches(method, payload.params ?? []));
        if (hold >= 0) {
          const [held] = holds.splice(hold, 1);
          held!.arrive();
          await held!.released;
        }
        try {
          if (down) {
            injected++;
            throw failure('http-503');
          }
          if (
            method === 'sendTransaction' &&
            sendFaults.length > 0 &&
            (!target || target(String(payload.params?.[0])))
          ) {
            const fault = sendFaults.shift()!;
            injected++;
            const wire = String(payload.params?.[0]);
            faulted.add(signatureOf(wire));
            if (fault === 'late') {
              late.push(async () => {
                forwarded.push(wire);
                return inner(request);
              });
              throw failure('drop');
            }
            if (fault === 'lost') throw failure('lost');
            forwarded.push(wire);
            await inner(request);
            throw failure(fault);
          }
          if (
            method === 'getSignatureStatuses' &&
            failingStatusPolls > 0 &&
            (!target || (payload.params?.[0] as string[]).some((signature) => faulted.has(signature)))
          ) {
            failingStatusPolls--;
            injected++;
            throw failure('status');
          }
          if (method === 'sendTransaction') forwarded.push(String(payload.params?.[0]));
          return await inner<T>(request);
        } finally {
          if (pendingLate) await flushLate();
        }
      };
    },
    /** The next sendTransaction calls (one fault each) reach the cluster but lose their answer. */
    failNextSends(...faults: SendFault[]) {
      sendFaults.push(...faults);
    },
    /** The next `n` getSignatureStatuses calls fail (503). */
    failStatusPolls(n: number) {
      failingStatusPolls += n;
    },
    /**
     * Holds the next `count` calls that `matches` (each matching call takes the next hold, in the
     * order they arrive): each reaches the cluster only once the test releases it.
     */
    hold(count: number, matches: (method: string | undefined, params: unknown[]) => boolean): HeldCall[] {
      return Array.from({ length: count }, () => {
        let arrive!: () => void;
        let release!: () => void;
        const reached = new Promise<void>((resolve) => (arrive = resolve));
        holds.push({ matches, arrive, released: new Promise<void>((resolve) => (release = resolve)) });
        return { reached, release };
      });
    },
    /**
     * Until `clear()`, only sends whose wire transaction (base64) `matches` take the send faults, and
     * only status polls asking about one that took a fault take the poll faults: the app's own
     * background sends and polls (a reconcile, a keeper) pass untouched.
     */
    target(matches: (wire: string) => boolean) {
      target = matches;
    },
    /** Every call fails (503) until `clear()`. */
    takeDown() {
      down = true;
    },
    /** No more faults (holds not taken yet are dropped); a late send still held reaches the cluster now. */
    async clear() {
      sendFaults.length = 0;
      holds.length = 0;
      failingStatusPolls = 0;
      down = false;
      target = undefined;
      faulted.clear();
      await flushLate();
    },
    forwarded,
    /** How many faults were injected so far. */
    injected: () => injected,
  };
}

export type RpcFaults = ReturnType<typeof createRpcFaults>;
