import {
  messages,
  parse,
  protocol,
  types,
  type PGlite,
  type QueryOptions,
  type Results,
} from '@electric-sql/pglite';

type BackendMessages = Awaited<ReturnType<PGlite['execProtocolStream']>>;
type Parser = (text: string, typeId?: number) => unknown;

/** Past this many distinct statement texts, a new text runs as PGlite runs it (no statement kept). */
const MAX_STATEMENTS = 500;

/**
 * Makes `client.query` (what Drizzle calls outside a transaction) run each distinct SQL text as a
 * named prepared statement, parsed and described once: PGlite's own `query` parses, plans and
 * describes every call in six protocol round trips into the wasm backend, ~3/4 of a simple
 * statement's cost. The answer is PGlite's own: the same messages in (bind, describe, execute,
 * sync against the statement), its serializers chosen by the statement's parameter types, its
 * result parser, its locks (a query waits for a transaction in progress) and its sync to disk.
 * Transactions (`client.transaction`) keep PGlite's path. Returns the number of statements kept.
 */
export function usePreparedStatements(client: PGlite): () => number {
  const plainQuery = client.query.bind(client);
  const statements = new Map<string, { name: string; paramTypes: number[] }>();
  let named = 0;

  const exec = (message: Uint8Array, options: QueryOptions | undefined): Promise<BackendMessages> =>
    client.execProtocolStream(message, { onNotice: options?.onNotice, syncToFs: false });

  function inOneCall(...parts: Uint8Array[]): Uint8Array {
    const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.length;
    }
    return joined;
  }

  /** As PGlite's query reports a database error: with the query, its parameters and options. */
  function reported(error: unknown, query: string, params: unknown[], options: QueryOptions | undefined) {
    if (!(error instanceof messages.DatabaseError)) return error;
    return Object.assign(error, { query, params, queryOptions: options });
  }

  /**
   * PGlite's `parseResults`, read the same way — a call's parsers over the client's, then PGlite's
   * defaults — without copying the client's whole parser table into a new object on every call.
   */
  function resultsOf(answer: BackendMessages, options: QueryOptions | undefined): Results[] {
    const own = options?.parsers as Record<number, Parser> | undefined;
    const parserOf = (type: number): Parser | undefined =>
      (own !== undefined && Object.hasOwn(own, type) ? own[type] : client.parsers[type]) ??
      types.parsers[type];
    const results: Results[] = [];
    let fields: { name: string; dataTypeID: number }[] = [];
    let parsers: (Parser | undefined)[] = [];
    let rows: unknown[] = [];
    let affectedRows = 0;
    const read = (value: string | null, index: number) => {
      if (value === null) return null;
      const parser = parsers[index];
      return parser ? parser(value, fields[index]!.dataTypeID) : value;
    };
    for (const message of answer) {
      if (message.name === 'rowDescription') {
        fields = (message as InstanceType<typeof messages.RowDescriptionMessage>).fields.map(
          ({ name, dataTypeID }) => ({ name, dataTypeID }),
        );
        parsers = fields.map((field) => parserOf(field.dataTypeID));
      } else if (message.name === 'dataRow') {
        const values = (message as InstanceType<typeof messages.DataRowMessage>).fields.map(read);
        rows.push(
          options?.rowMode === 'array'
            ? values
            : Object.fromEntries(values.map((value, index) => [fields[index]!.name, value])),
        );
      } else if (message.name === 'commandComplete') {
        const words = (message as InstanceType<typeof messages.CommandCompleteMessage>).text.split(' ');
        const command = words[0]!;
        const count = parseInt(words[words.length - 1]!, 10);
        if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command)) affectedRows += count;
        results.push({
          rows,
          fields,
          command,
          affectedRows,
          ...(Number.isNaN(count) ? {} : { rowCount: count }),
        } as Results);
        [fields, parsers, rows] = [[], [], []];
      }
    }
    if (results.length === 0) results.push({ affectedRows: 0, rows: [], fields: [] });
    return results;
  }

  async function prepare(query: string, options: QueryOptions | undefined) {
    const name = `solterm_statement_${named++}`;
    const described = await exec(
      inOneCall(
        protocol.serialize.parse({ name, text: query }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ),
      options,
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    statements.set(query, statement);
    return statement;
  }

  async function preparedQuery<T>(
    query: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    // Blobs (COPY) and caller-chosen parameter types take PGlite's path, as do texts past the cap.
    if (
      options?.blob !== undefined ||
      options?.paramTypes !== undefined ||
      /^\s*copy\b/i.test(query) ||
      (statements.size >= MAX_STATEMENTS && !statements.has(query))
    ) {
      return plainQuery<T>(query, params, options);
    }
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        let answer: BackendMessages;
        try {
          const statement = statements.get(query) ?? (await prepare(query, options));
          const values = params.map((value, index) => {
            if (value === null || value === undefined) return null;
            const type = statement.paramTypes[index]!;
            const serializer = options?.serializers?.[type] ?? client.serializers[type];
            return serializer ? serializer(value) : (value as { toString(): string }).toString();
          });
          answer = await exec(
            inOneCall(
              protocol.serialize.bind({ statement: statement.name, values }),
              protocol.serialize.describe({ type: 'P' }),
              protocol.serialize.execute({}),
              protocol.serialize.sync(),
            ),
            options,
          );
        } catch (error) {
          throw reported(error, query, params, options);
        }
        await client.syncToFs();
        return resultsOf(answer, options)[0] as Results<T>;
      }),
    );
  }

  client.query = preparedQuery;
  return () => statements.size;
}
