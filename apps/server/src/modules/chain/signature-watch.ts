/**
 * A Solana PubSub endpoint reached without a socket (the embedded cluster's, in its worker): JSON-RPC
 * text frames in, notification frames out.
 */
export interface PubSubLink {
  connect(send: (text: string) => void): { handle(text: string): void; close(): void };
}

/** A wait for one signature's `confirmed` notification; `cancel` drops it (and its subscription). */
export interface ConfirmationWatch {
  /** False without a PubSub link: `notified` never resolves, only polls tell. */
  readonly live: boolean;
  /** Resolves once the node notified the signature confirmed (ok or failed); never rejects. */
  readonly notified: Promise<void>;
  cancel(): void;
}

interface Entry {
  resolve: () => void;
  cancelled: boolean;
  subscription?: number;
}

const NEVER: ConfirmationWatch = {
  live: false,
  notified: new Promise<void>(() => undefined),
  cancel: () => undefined,
};

/**
 * signatureSubscribe at `confirmed` over one shared PubSub connection, opened on first use. A
 * notification only wakes a waiting caller early: the verdict is still read with getSignatureStatuses
 * through the JSON-RPC transport, so a subscription refused or never notified costs nothing but the
 * poll's usual wait.
 */
export function createSignatureWatch(link: PubSubLink | undefined) {
  let connection: ReturnType<PubSubLink['connect']> | undefined;
  let nextRequest = 1;
  /** By request id until the subscription id is known, then by subscription id. */
  const byRequest = new Map<number, Entry>();
  const bySubscription = new Map<number, () => void>();

  function onFrame(text: string): void {
    let message: { id?: number; result?: unknown; method?: string; params?: { subscription?: number } };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.method === 'signatureNotification') {
      const subscription = message.params?.subscription;
      if (subscription === undefined) return;
      bySubscription.get(subscription)?.();
      bySubscription.delete(subscription);
      return;
    }
    if (typeof message.id !== 'number') return;
    const waiting = byRequest.get(message.id);
    byRequest.delete(message.id);
    if (!waiting || typeof message.result !== 'number') return;
    waiting.subscription = message.result;
    if (waiting.cancelled) send('signatureUnsubscribe', [waiting.subscription]);
    else bySubscription.set(waiting.subscription, waiting.resolve);
  }

  function send(method: string, params: unknown[]): number {
    connection ??= link!.connect(onFrame);
    const id = nextRequest++;
    connection.handle(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return id;
  }

  return {
    /** Watches `signature` until it is confirmed; without a PubSub link the wait never ends early. */
    watch(signature: string): ConfirmationWatch {
      if (!link) return NEVER;
      let resolve!: () => void;
      const notified = new Promise<void>((done) => (resolve = done));
      const id = send('signatureSubscribe', [signature, { commitment: 'confirmed' }]);
      const entry: Entry = { resolve, cancelled: false };
      byRequest.set(id, entry);
      return {
        live: true,
        notified,
        cancel() {
          if (entry.cancelled) return;
          entry.cancelled = true;
          // Notified subscriptions have ended already (a validator ends them after the notification).
          if (entry.subscription !== undefined && bySubscription.delete(entry.subscription)) {
            send('signatureUnsubscribe', [entry.subscription]);
          }
        },
      };
    },

    close(): void {
      connection?.close();
      connection = undefined;
    },
  };
}

/**
 * Waits between two status polls: `ms`, or less when `watch` is notified first. The notification
 * cuts one wait short; the waits after it are plain (a poll that still finds nothing backs off).
 */
export function pollPacer(watch: ConfirmationWatch) {
  let woken = false;
  void watch.notified.then(() => (woken = true));
  return {
    /** The wait before poll `attempt` (0 first): 1, 2, 4 … 50 ms, or 5, 10 … 50 ms when notifications come. */
    wait(attempt: number): Promise<void> {
      const ms = Math.min((watch.live ? 5 : 1) * 2 ** attempt, 50);
      if (woken || !watch.live) return new Promise((resolve) => setTimeout(resolve, ms));
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        void watch.notified.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
