/**
 * slotsUpdatesSubscribe's notifications, shaped as Agave's `SlotUpdate` (unstable in Agave and
 * kit): what a leader tells as its slots pass — the ended slot completed and frozen (with its
 * transaction counts), the next slot's bank created, the ended slot optimistically confirmed (a
 * complete slot reads as confirmed here) and the new root. There are no shreds, forks or dead
 * slots here: no `firstShredReceived` or `dead`.
 */
import type { LocalCluster } from '../local-cluster';
import type { Subscription } from './pubsub-subscriptions';

type Notify = (sub: Subscription, method: string, result: unknown) => void;

/** The updates of the clock reaching `slot`, in a validator's order. */
export function slotUpdatesAt(cluster: LocalCluster, slot: number, timestamp: bigint): object[] {
  const ended = slot - 1;
  const updates: object[] = [];
  if (ended >= 0) {
    const block = cluster.getBlock(ended);
    const transactions = typeof block === 'string' ? [] : block.transactions;
    const failed = transactions.filter((record) => record.err !== null).length;
    updates.push({ slot: BigInt(ended), timestamp, type: 'completed' });
    updates.push({
      slot: BigInt(ended),
      stats: {
        // Each transaction ran alone: one entry apiece.
        maxTransactionsPerEntry: transactions.length > 0 ? 1n : 0n,
        numFailedTransactions: BigInt(failed),
        numSuccessfulTransactions: BigInt(transactions.length - failed),
        numTransactionEntries: BigInt(transactions.length),
      },
      timestamp,
      type: 'frozen',
    });
  }
  updates.push({ parent: BigInt(Math.max(0, ended)), slot: BigInt(slot), timestamp, type: 'createdBank' });
  if (ended >= 0) updates.push({ slot: BigInt(ended), timestamp, type: 'optimisticConfirmation' });
  const root = slot - cluster.finalizationSlots;
  if (root >= 0) updates.push({ slot: BigInt(root), timestamp, type: 'root' });
  return updates;
}

/** Tells every slotsUpdates subscriber the updates of the clock reaching `slot`. */
export function notifySlotUpdates(
  cluster: LocalCluster,
  slot: number,
  subscribers: ReadonlySet<Subscription>,
  notify: Notify,
): void {
  if (subscribers.size === 0) return;
  for (const update of slotUpdatesAt(cluster, slot, BigInt(Date.now()))) {
    for (const sub of subscribers) notify(sub, 'slotsUpdatesNotification', update);
  }
}
