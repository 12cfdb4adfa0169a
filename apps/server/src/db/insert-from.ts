import { getTableColumns, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * An insert of `row` selected from `source` (a CTE of the same statement): it writes one row per row
 * of `source`, so none when the statement's guarding write changed nothing. Columns left out take
 * their database defaults; each value is cast to its column's type (a SELECT list has no target types).
 */
export function insertFrom<Table extends PgTable>(
  table: Table,
  row: Table['$inferInsert'],
  source: SQLWrapper,
): SQL {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const entries = Object.entries(row as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const names = entries.map(([key]) => sql.identifier(columns[key]!.name));
  const values = entries.map(([key, value]) => {
    const column = columns[key]!;
    return sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}`;
  });
  return sql`insert into ${table} (${sql.join(names, sql`, `)}) select ${sql.join(values, sql`, `)} from ${source}`;
}
