/**
 * The auto slot clock after a burst of confirmed transactions (web3.js's live suite, item (e)): the
 * burst ends slots early, up to MAX_SEALED_SLOT_LEAD ahead of the wall; the slots that follow must
 * keep coming, stretched, while the wall catches up, never a silent gap of seconds. Vitest's fake
 * timers drive both the clock's timer and its wall (Date.now), so the figures are exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AHEAD_SLOT_STRETCH, MAX_SEALED_SLOT_LEAD } from './cluster-types';
import { createLocalCluster, type LocalCluster } from './local-cluster';
import { createPubSub, type PubSub } from './rpc/pubsub';
import { signTransfer } from './test-helpers';

const SLOT_MS = 400;
const BURST = 30;

let cluster: LocalCluster;
let pubsub: PubSub;
/** Where the auto clock started: the wall's slot counts from here. */
let wallOrigin: { slot: number; at: number };

const wallSlot = () => wallOrigin.slot + Math.floor((Date.now() - wallOrigin.at) / SLOT_MS);
const lead = () => cluster.slot - wallSlot();

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // The auto clock, as `npm run localnet` and the app run it, in memory: confirmed at once.
  cluster = await createLocalCluster({ slotDurationMs: SLOT_MS, now: () => Date.now(), tokens: [] });
  wallOrigin = { slot: cluster.slot, at: Date.now() };
  pubsub = createPubSub(cluster);
  // The first transaction ends the genesis block and its own slot: the lead starts at 2.
  await transact();
  await settled();
  expect(lead()).toBe(2);
});

afterEach(async () => {
  pubsub.close();
  await cluster.close();
  vi.useRealTimers();
});

/** Waits until the commits so far are durable and their slot has ended (microtasks in memory). */
async function settled(): Promise<void> {
  await cluster.flush();
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
}

let transfers = 0n;

/**
 * Commits a transfer of the treasury to itself (a new amount each time, so a new signature). Not an
 * airdrop: while the auto clock runs, an airdrop lands only as its slot ends.
 */
async function transact(): Promise<void> {
  transfers += 1n;
  const lifetime = cluster.getLatestBlockhash();
  const signed = await signTransfer(cluster.treasury, cluster.treasury.address, transfers, lifetime);
  expect(cluster.sendTransaction(signed.bytes).kind).toBe('committed');
}

/** Transactions one after another, each awaited until confirmed, as web3.js's helpers.airdrop does. */
async function burst(count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const slot = cluster.slot;
    await transact();
    await settled();
    expect(cluster.slot).toBe(slot + 1);
  }
}

/** Gaps in milliseconds between consecutive times. */
function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((time, index) => time - times[index]!);
}

describe('the auto clock after a burst of confirmed transactions', () => {
  it('keeps producing slots, stretched, while the wall catches up: no gap over 2 slot durations', async () => {
    const origin = Date.now();
    await burst(BURST - lead());
    // The wall has not moved: every slot of the burst ended early.
    expect(Date.now()).toBe(origin);
    const burstEnd = cluster.slot;
    expect(lead()).toBe(BURST);
    expect(BURST).toBeLessThanOrEqual(MAX_SEALED_SLOT_LEAD);

    const heard: { slot: number; at: number; blockTime: number }[] = [];
    const stopListening = cluster.listen({
      slot: (slot) => heard.push({ slot, at: Date.now(), blockTime: cluster.blockTime }),
    });
    const notes: { method: string; at: number; slot: number }[] = [];
    const connection = pubsub.connect((text) => {
      const message = JSON.parse(text) as { method?: string; params?: { result: unknown } };
      if (message.method === undefined) return;
      const result = message.params!.result;
      const slot = typeof result === 'number' ? result : (result as { slot: number }).slot;
      notes.push({ method: message.method, at: Date.now(), slot });
    });
    connection.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe', params: [] }));
    connection.handle(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'rootSubscribe', params: [] }));

    // 40 s of wall time: long enough for the lead of 30 slots to drain at half a slot per slot.
    const span = 40_000;
    vi.advanceTimersByTime(span);
    stopListening();
    connection.close();

    const bound = 2 * SLOT_MS;
    const slotTimes = [origin, ...heard.map((entry) => entry.at)];
    expect(Math.max(...gaps(slotTimes))).toBeLessThanOrEqual(bound);
    // While ahead, a slot lasts AHEAD_SLOT_STRETCH slot durations: the first one after the burst too.
    expect(heard[0]!.at - origin).toBe(AHEAD_SLOT_STRETCH * SLOT_MS);
    // Every slot heard once, in order, and each one notified to subscribers as it came.
    expect(heard.map((entry) => entry.slot)).toEqual(heard.map((_, index) => burstEnd + 1 + index));
    const slotNotes = notes.filter((note) => note.method === 'slotNotification');
    expect(slotNotes.map((note) => note.slot)).toEqual(heard.map((entry) => entry.slot));
    expect(Math.max(...gaps([origin, ...slotNotes.map((note) => note.at)]))).toBeLessThanOrEqual(bound);
    const rootNotes = notes.filter((note) => note.method === 'rootNotification');
    const depth = cluster.finalizationSlots;
    const rooted = heard.filter((entry) => entry.slot >= depth);
    expect(rooted.length).toBeGreaterThan(50);
    expect(rootNotes.map((note) => note.slot)).toEqual(rooted.map((entry) => entry.slot - depth));
    expect(Math.max(...gaps(rootNotes.map((note) => note.at)))).toBeLessThanOrEqual(bound);

    // The lead drained: the clock is back on the wall, one slot per slot duration.
    expect(lead()).toBe(0);
    expect(gaps(slotTimes).slice(-10)).toEqual(Array(10).fill(SLOT_MS));
    // Block times: the wall's second when the slot began, never ahead of it, never going back.
    for (const entry of heard) {
      expect(entry.blockTime).toBe(Math.floor(entry.at / 1000));
      expect(cluster.blockTimeOf(entry.slot)).toBe(entry.blockTime);
    }
    const blockTimes = heard.map((entry) => entry.blockTime);
    expect(blockTimes).toEqual([...blockTimes].sort((a, b) => a - b));
  });

  it('still ends a confirmed slot at once while draining, and never past the lead cap', async () => {
    await burst(BURST - lead());
    const burstEnd = cluster.slot;
    vi.advanceTimersByTime(3 * SLOT_MS);
    // Two stretched slots in 1200 ms while the wall moved 3: the lead drains.
    expect(cluster.slot).toBe(burstEnd + 2);
    expect(lead()).toBe(BURST - 1);
    await burst(1);
    expect(cluster.slot).toBe(burstEnd + 3);
    // Fill the lead to the cap: ending slots early stops there, the stretched slots still come.
    await burst(MAX_SEALED_SLOT_LEAD - lead());
    expect(lead()).toBe(MAX_SEALED_SLOT_LEAD);
    const capped = cluster.slot;
    await transact();
    await settled();
    expect(cluster.slot).toBe(capped);
    vi.advanceTimersByTime(AHEAD_SLOT_STRETCH * SLOT_MS);
    expect(cluster.slot).toBe(capped + 1);
    expect(lead()).toBeLessThanOrEqual(MAX_SEALED_SLOT_LEAD);
  });
});
