import { randomUUID } from 'node:crypto';
import { ORDER_STATES, orderLifecycle, type OrderEvent, type OrderState } from '@solterm/engine';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database';
import { users } from '../auth/auth.tables';
import { createTradingRepository } from './trading.repository';
import { spotOrders } from './trading.tables';

const EVENTS: OrderEvent[] = ['claimFill', 'claimCancel', 'revert', 'fill', 'cancel'];

describe('trading repository: order transitions follow the order lifecycle', () => {
  let database: Database;
  let repo: ReturnType<typeof createTradingRepository>;
  let userId: string;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    repo = createTradingRepository(database.db, () => new Date());
    const [user] = await database.db.insert(users).values({ username: 'trader' }).returning();
    userId = user!.id;
  });
  afterAll(() => database.close());

  async function orderIn(status: OrderState): Promise<string> {
    const id = randomUUID();
    await database.db.insert(spotOrders).values({
      id,
      userId,
      walletAddress: 'wallet',
      symbol: 'SOL/USDC',
      baseMint: 'base',
      quoteMint: 'quote',
      orderType: 'Limit',
      side: 'buy',
      quantity: '1',
      baseAmount: '1000000000',
      price: '100',
      status,
      filledQuantity: '0',
    });
    return id;
  }

  const statusOf = async (id: string) =>
    (await database.db.select().from(spotOrders).where(eq(spotOrders.id, id)))[0]!.status;

  it.each(ORDER_STATES.flatMap((state) => EVENTS.map((event) => [state, event] as const)))(
    'from %s, %s moves the order only where the lifecycle allows it',
    async (state, event) => {
      const id = await orderIn(state);

      const row = await repo.transitionOrder(id, event);

      if (orderLifecycle.can(state, event)) {
        expect(row?.status).toBe(orderLifecycle.next(state, event));
      } else {
        expect(row).toBeUndefined();
      }
      expect(await statusOf(id)).toBe(row?.status ?? state);
    },
  );

  it('reverts only the settlement a ticket claimed, never another one', async () => {
    const cancelling = await orderIn('Settling:cancel');

    expect(await repo.transitionOrder(cancelling, 'revert', { from: 'Settling:fill' })).toBeUndefined();
    expect(await statusOf(cancelling)).toBe('Settling:cancel');
    expect((await repo.transitionOrder(cancelling, 'revert', { from: 'Settling:cancel' }))?.status).toBe(
      'Pending',
    );
  });

  it('refuses a `from` the event cannot leave', async () => {
    const id = await orderIn('Pending');

    await expect(repo.transitionOrder(id, 'fill', { from: 'Pending' })).rejects.toThrow(/not allowed/);
    expect(await statusOf(id)).toBe('Pending');
  });

  it('claims an order once when two settlements race for it', async () => {
    const id = await orderIn('Pending');

    const [fill, cancel] = await Promise.all([
      repo.transitionOrder(id, 'claimFill'),
      repo.transitionOrder(id, 'claimCancel'),
    ]);

    expect([fill, cancel].filter(Boolean)).toHaveLength(1);
  });
});
