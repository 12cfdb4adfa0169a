import { randomUUID } from 'node:crypto';
import { TICKET_STATES, ticketLifecycle, type TicketEvent, type TicketState } from '@solterm/engine';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database';
import { users } from '../auth/auth.tables';
import { createRelayRepository, insertFromSettled, transitionServerTicket } from './relay.repository';
import { idempotencyKeys, serverTickets, transactionTickets } from './relay.tables';

const EVENTS: TicketEvent[] = ['send', 'reopen', 'land', 'fail', 'expire'];
const CASES = TICKET_STATES.flatMap((state) => EVENTS.map((event) => [state, event] as const));

describe('relay repository: ticket transitions follow the ticket lifecycle', () => {
  let database: Database;
  let repo: ReturnType<typeof createRelayRepository>;
  let userId: string;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    repo = createRelayRepository(database.db);
    const [user] = await database.db.insert(users).values({ username: 'relay-user' }).returning();
    userId = user!.id;
  });
  afterAll(() => database.close());

  async function ticketIn(status: TicketState): Promise<string> {
    const [row] = await database.db
      .insert(transactionTickets)
      .values({
        userId,
        kind: 'test',
        walletAddress: 'wallet',
        messageHash: randomUUID(),
        lastValidBlockHeight: '100',
        payload: {},
        status,
      })
      .returning();
    return row!.id;
  }

  async function serverTicketIn(status: TicketState): Promise<string> {
    const [row] = await database.db
      .insert(serverTickets)
      .values({
        kind: 'test',
        userId,
        payload: {},
        signature: randomUUID(),
        signedTransaction: 'bytes',
        lastValidBlockHeight: '100',
        status,
      })
      .returning();
    return row!.id;
  }

  const statusOf = async (id: string) =>
    (await database.db.select().from(transactionTickets).where(eq(transactionTickets.id, id)))[0]!.status;
  const serverStatusOf = async (id: string) =>
    (await database.db.select().from(serverTickets).where(eq(serverTickets.id, id)))[0]!.status;

  it.each(CASES)(
    'from %s, %s moves a wallet ticket only where the lifecycle allows it',
    async (state, event) => {
      const id = await ticketIn(state);
      const at = new Date('2026-01-01T00:00:00Z');

      const row = await repo.transitionTicket(id, event, { values: { settledAt: at } });

      if (ticketLifecycle.can(state, event)) {
        expect(row?.status).toBe(ticketLifecycle.next(state, event));
        expect(row?.settledAt?.toISOString()).toBe(at.toISOString());
      } else {
        expect(row).toBeUndefined();
      }
      expect(await statusOf(id)).toBe(row?.status ?? state);
    },
  );

  it.each(CASES)(
    'from %s, %s moves a server ticket only where the lifecycle allows it',
    async (state, event) => {
      const id = await serverTicketIn(state);

      const row = await transitionServerTicket(database.db, id, event, { slot: '7' });

      if (ticketLifecycle.can(state, event)) {
        expect(row?.status).toBe(ticketLifecycle.next(state, event));
        expect(row?.slot).toBe('7');
      } else {
        expect(row).toBeUndefined();
      }
      expect(await serverStatusOf(id)).toBe(row?.status ?? state);
    },
  );

  it('registers an open ticket, finds it by message hash and claims it, as plain queries read it', async () => {
    const messageHash = randomUUID();
    const payload = { orderId: randomUUID(), amount: '12345678901234567890', nested: { list: [1, 'two'] } };
    const inserted = await repo.insertOpenTicket({
      userId,
      kind: 'swap',
      walletAddress: 'wallet',
      messageHash,
      lastValidBlockHeight: '18446744073709551615',
      payload,
    });
    const read = async () =>
      (await database.db.select().from(transactionTickets).where(eq(transactionTickets.id, inserted.id)))[0];
    expect(inserted).toEqual(await read());
    expect(inserted).toMatchObject({ status: 'open', orderId: null, payload, signature: null });
    expect(await repo.findTicketByMessageHash(messageHash)).toEqual(inserted);
    expect(await repo.findTicketByMessageHash(randomUUID())).toBeUndefined();
    const at = new Date('2026-11-29T06:00:00.123Z');
    expect(await repo.claimTicket(inserted.id, `sig-${messageHash}`, 'wire', at)).toBe(true);
    expect(await read()).toEqual({
      ...inserted,
      status: 'sending',
      signature: `sig-${messageHash}`,
      signedTransaction: 'wire',
      sentAt: at,
    });
    // Claimed once: a second claim (another execution) is refused, the first one's values kept.
    expect(await repo.claimTicket(inserted.id, 'other', 'other wire', new Date())).toBe(false);
    expect((await read())!.signature).toBe(`sig-${messageHash}`);
  });

  it('claims a ticket for sending once when two executions race for it', async () => {
    const id = await ticketIn('open');
    const at = new Date();

    const claims = await Promise.all([
      repo.claimTicket(id, `sig-a-${id}`, 'bytes-a', at),
      repo.claimTicket(id, `sig-b-${id}`, 'bytes-b', at),
    ]);

    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await statusOf(id)).toBe('sending');
  });

  it('refuses to claim a signature another ticket was sent under', async () => {
    const first = await ticketIn('open');
    const second = await ticketIn('open');

    expect(await repo.claimTicket(first, `same-${first}`, 'bytes', new Date())).toBe(true);
    expect(await repo.claimTicket(second, `same-${first}`, 'bytes', new Date())).toBe(false);
    expect(await statusOf(second)).toBe('open');
  });

  it('settles a sent ticket once: the loser of a race writes nothing', async () => {
    const id = await ticketIn('sending');
    const writes: string[] = [];

    const [landed, failed] = await Promise.all([
      repo.settleTicket(id, 'landed', new Date(), async () => void writes.push('landed')),
      repo.settleTicket(id, 'failed', new Date(), async () => void writes.push('failed')),
    ]);

    expect([landed, failed].filter(Boolean)).toHaveLength(1);
    expect(writes).toHaveLength(1);
    expect(await statusOf(id)).toBe(writes[0]);
  });

  it('does not expire a ticket the landing path settled first', async () => {
    const id = await ticketIn('sending');

    expect(await repo.settleTicket(id, 'landed', new Date(), async () => undefined)).toBe(true);

    expect(await repo.expireTicket(id, new Date())).toBe(false);
    expect(await statusOf(id)).toBe('landed');
  });

  it("rolls a settlement back with its kind's writes when they throw", async () => {
    const id = await ticketIn('sending');

    await expect(
      repo.settleTicket(id, 'landed', new Date(), async () => {
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');

    expect(await statusOf(id)).toBe('sending');
  });

  describe('in one statement (settleTicketWith)', () => {
    const keyRow = (key: string, user = userId) =>
      insertFromSettled(idempotencyKeys, { userId: user, key, requestHash: 'hash', state: 'done' });
    const keysNamed = async (key: string) =>
      database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

    it('settles a sent ticket and writes its rows together, once', async () => {
      const id = await ticketIn('sending');
      const key = `settled-${id}`;

      expect(await repo.settleTicketWith(id, 'landed', new Date(), [keyRow(key)])).toBe(true);
      expect(await statusOf(id)).toBe('landed');
      expect(await keysNamed(key)).toMatchObject([{ userId, requestHash: 'hash', state: 'done' }]);

      // Settled already: nothing is written again.
      expect(await repo.settleTicketWith(id, 'landed', new Date(), [keyRow(`${key}-again`)])).toBe(false);
      expect(await keysNamed(`${key}-again`)).toEqual([]);
    });

    it('loses a race to another settlement without writing anything', async () => {
      const id = await ticketIn('sending');
      const key = `race-${id}`;
      const writes: string[] = [];

      const [oneStatement, transaction] = await Promise.all([
        repo.settleTicketWith(id, 'landed', new Date(), [keyRow(key)]),
        repo.settleTicket(id, 'failed', new Date(), async () => void writes.push('failed')),
      ]);

      expect([oneStatement, transaction].filter(Boolean)).toHaveLength(1);
      expect((await keysNamed(key)).length).toBe(oneStatement ? 1 : 0);
      expect(writes.length).toBe(transaction ? 1 : 0);
      expect(await statusOf(id)).toBe(oneStatement ? 'landed' : 'failed');
    });

    it('answers the row its first insert wrote as a select reads it, and none once settled', async () => {
      const id = await ticketIn('sending');
      const key = `returning-${id}`;

      const first = await repo.settleTicketReturning(
        id,
        'landed',
        new Date(),
        [keyRow(key)],
        idempotencyKeys,
      );

      expect(first.settled).toBe(true);
      expect(first.written).toBeDefined();
      expect(first.written).toEqual((await keysNamed(key))[0]);
      expect(
        await repo.settleTicketReturning(id, 'landed', new Date(), [keyRow(`${key}-again`)], idempotencyKeys),
      ).toEqual({ settled: false, written: undefined });
    });

    it('leaves the ticket sending when one of its writes fails', async () => {
      const id = await ticketIn('sending');
      const key = `fails-${id}`;

      await expect(
        repo.settleTicketWith(id, 'landed', new Date(), [keyRow(key), keyRow(`${key}-2`, randomUUID())]),
      ).rejects.toThrow();

      expect(await statusOf(id)).toBe('sending');
      expect(await keysNamed(key)).toEqual([]);
    });
  });
});
