import { PGlite, types, type QueryOptions } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePreparedStatements } from './pglite-statements';

const TABLE = `create table t (
  id int4 primary key,
  name text unique,
  big int8,
  amount numeric(38, 9),
  flag bool,
  doc jsonb,
  raw json,
  at timestamptz,
  local_at timestamp,
  day date,
  tags text[],
  counts int4[],
  bytes bytea
)`;

/** Drizzle's PGlite session reads times and numeric arrays as text (drizzle-orm/pglite/session.js). */
const drizzleParsers = {
  [types.TIMESTAMP]: (value: string) => value,
  [types.TIMESTAMPTZ]: (value: string) => value,
  [types.DATE]: (value: string) => value,
  1231: (value: string) => value,
};

const nulls = (count: number) => Array<null>(count).fill(null);

type Step = { query: string; params?: unknown[]; options?: QueryOptions };

const INSERT = `insert into t (id, name, big, amount, flag, doc, raw, at, local_at, day, tags, counts, bytes)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning *`;

const steps: Step[] = [
  {
    query: INSERT,
    params: [
      1,
      'one',
      9007199254740993n,
      '12.5',
      true,
      { a: 1, nested: { b: [1, 2] } },
      JSON.stringify({ c: 'text' }),
      new Date('2026-11-29T05:00:00.123Z'),
      '2026-11-29 05:00:00',
      '2026-11-29',
      ['x', 'y "quoted"', 'z,comma'],
      [1, 2, 3],
      new Uint8Array([0, 1, 255]),
    ],
  },
  {
    query: INSERT,
    params: [2, 'two', 2n, 0.25, false, null, null, null, null, null, null, null, null],
    options: { rowMode: 'array', parsers: drizzleParsers },
  },
  { query: INSERT, params: [3, 'three', '3', '1e-9', 'yes', '"a json string"', 'null', ...nulls(6)] },
  { query: INSERT, params: [4, undefined, undefined, undefined, 0, [1, 'two'], { d: 1 }, ...nulls(6)] },
  { query: 'select * from t order by id' },
  { query: 'select * from t order by id', options: { rowMode: 'array', parsers: drizzleParsers } },
  { query: 'select id, name from t where id = any($1) order by id', params: [[1, 3]] },
  { query: 'select $1::text as a, $2::int8 as b, $3 as c', params: ['é ✓', 42n, 'untyped'] },
  { query: 'update t set flag = $1 where id >= $2 returning id, flag', params: [true, 2] },
  { query: 'update t set flag = $1 where id >= $2', params: [false, 3] },
  { query: 'delete from t where id = $1', params: [4] },
  // A unique violation, a syntax error, a bad boolean and a type error: the same error each way.
  { query: INSERT, params: [5, 'one', ...nulls(11)] },
  { query: 'selec 1' },
  { query: 'select id from t where flag = $1', params: ['maybe'] },
  { query: 'select id from t where id = $1', params: ['not a number'] },
  { query: 'select count(*)::int as n from t' },
  { query: 'select 1 as one; select 2 as two' },
  { query: 'select id from t where id = $1', params: [1] },
];

async function outcome(client: PGlite, step: Step) {
  try {
    return { result: await client.query(step.query, step.params, step.options) };
  } catch (error) {
    const { name, message, code, query, params } = error as Record<string, unknown>;
    return { error: { name, message, code, query, params, type: (error as object).constructor.name } };
  }
}

describe('usePreparedStatements', () => {
  let plain: PGlite;
  let prepared: PGlite;
  let keptStatements: () => number;

  beforeAll(async () => {
    [plain, prepared] = [new PGlite(), new PGlite()];
    for (const client of [plain, prepared]) await client.exec(TABLE);
    keptStatements = usePreparedStatements(prepared);
  });

  afterAll(async () => {
    await plain.close();
    await prepared.close();
  });

  it('answers every query and error as PGlite does, twice over (prepared, then reused)', async () => {
    for (const round of [1, 2]) {
      for (const [index, step] of steps.entries()) {
        // The second round's inserts and deletes meet the first round's rows: the same on both sides.
        const [expected, actual] = [await outcome(plain, step), await outcome(prepared, step)];
        expect(actual, `round ${round}, step ${index}: ${step.query}`).toEqual(expected);
      }
    }
    // One statement per distinct text that parsed (the syntax error and the two commands kept none).
    const parsed = new Set(
      steps.map((step) => step.query).filter((q) => q !== 'selec 1' && !q.includes(';')),
    );
    expect(keptStatements()).toBe(parsed.size);
  });

  it('refuses a wrong number of values as PostgreSQL does (the message names the statement)', async () => {
    await expect(prepared.query(INSERT, [6, 'six'])).rejects.toMatchObject({
      code: '08P01',
      message: expect.stringMatching(
        /^bind message supplies 2 parameters, but prepared statement .* requires 13$/,
      ),
    });
    expect((await prepared.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('waits for a transaction in progress instead of running inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = prepared.transaction(async (tx) => {
      await tx.query('insert into t (id, name) values ($1, $2)', [100, 'in a transaction']);
      inserted();
      await held;
      await tx.rollback();
    });
    await insertedYet;
    let answered = false;
    const read = prepared
      .query<{ n: number }>('select count(*)::int as n from t where id = $1', [100])
      .then((result) => {
        answered = true;
        return result.rows[0]!.n;
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    await transaction;
    expect(await read).toBe(0);
  });
});
