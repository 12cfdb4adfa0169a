import { describe, expect, it } from 'vitest';
import { createSignatureWatch, pollPacer, type PubSubLink } from './signature-watch';

/** A PubSub endpoint that records frames and lets the test answer them. */
function fakeLink() {
  const frames: { id: number; method: string; params: unknown[] }[] = [];
  let deliver: (text: string) => void = () => undefined;
  let connections = 0;
  const link: PubSubLink = {
    connect(send) {
      connections += 1;
      deliver = send;
      return {
        handle: (text) => frames.push(JSON.parse(text) as (typeof frames)[number]),
        close: () => undefined,
      };
    },
  };
  return {
    link,
    frames,
    connections: () => connections,
    answer: (id: number, result: unknown) => deliver(JSON.stringify({ jsonrpc: '2.0', id, result })),
    notify: (subscription: number) =>
      deliver(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'signatureNotification',
          params: { subscription, result: { context: { slot: 3 }, value: { err: null } } },
        }),
      ),
  };
}

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('signature watch', () => {
  it('subscribes at confirmed over one connection and resolves on its notification only', async () => {
    const fake = fakeLink();
    const watch = createSignatureWatch(fake.link);
    const first = watch.watch('sigA');
    const second = watch.watch('sigB');
    expect(fake.connections()).toBe(1);
    expect(fake.frames.map((frame) => [frame.method, frame.params])).toEqual([
      ['signatureSubscribe', ['sigA', { commitment: 'confirmed' }]],
      ['signatureSubscribe', ['sigB', { commitment: 'confirmed' }]],
    ]);
    fake.answer(fake.frames[0]!.id, 7);
    fake.answer(fake.frames[1]!.id, 8);
    fake.notify(8);
    expect(await settled(second.notified)).toBe(true);
    expect(await settled(first.notified)).toBe(false);
    // A notified subscription has ended: cancelling it sends nothing; an open one is unsubscribed.
    second.cancel();
    first.cancel();
    expect(fake.frames.slice(2).map((frame) => [frame.method, frame.params])).toEqual([
      ['signatureUnsubscribe', [7]],
    ]);
  });

  it('unsubscribes a watch cancelled before its subscription was answered, and ignores a refusal', async () => {
    const fake = fakeLink();
    const watch = createSignatureWatch(fake.link);
    const early = watch.watch('sigA');
    early.cancel();
    fake.answer(fake.frames[0]!.id, 4);
    expect(fake.frames[1]).toMatchObject({ method: 'signatureUnsubscribe', params: [4] });
    const refused = watch.watch('sigB');
    fake.answer(fake.frames[2]!.id, undefined);
    fake.notify(4);
    expect(await settled(refused.notified)).toBe(false);
  });

  it('never resolves without a link, and the pacer then waits its full time', async () => {
    const watch = createSignatureWatch(undefined).watch('sigA');
    expect(watch.live).toBe(false);
    const started = performance.now();
    await pollPacer(watch).wait(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(3);
  });

  it('cuts one wait short on the notification, not the waits after it', async () => {
    const fake = fakeLink();
    const watch = createSignatureWatch(fake.link).watch('sigA');
    const pacer = pollPacer(watch);
    fake.answer(fake.frames[0]!.id, 1);
    const waiting = pacer.wait(10); // 50 ms
    fake.notify(1);
    const started = performance.now();
    await waiting;
    expect(performance.now() - started).toBeLessThan(40);
    const after = performance.now();
    await pacer.wait(0); // 5 ms, not cut short again
    expect(performance.now() - after).toBeGreaterThanOrEqual(4);
  });
});
