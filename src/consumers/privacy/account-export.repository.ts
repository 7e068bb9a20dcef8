import { and, asc, desc, eq, gt, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { accountExports } from '../../base/db/schema.js';

// The statements of an account's export: its row (progress, lease, expiry), and the reading of the
// account's tables, whose columns, types and primary keys come from the database's catalogue.

export type ExportRow = typeof accountExports.$inferSelect;

/** A table as the export reads it: its columns in order, with their types, and its primary key. */
export interface TableShape {
  table: string;
  columns: { name: string; type: string }[];
  /** The primary key's columns, in the key's order: what the batches page by. */
  key: { name: string; type: string }[];
}

/** Columns, types and primary keys of `tables`, from the catalogue. */
export async function tableShapes(db: Executor, tables: readonly string[]): Promise<Map<string, TableShape>> {
  const rows = await queryRows<{ table_name: string; column_name: string; type: string; key_position: number | null }>(
    db,
    sql`select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type,
          (select k.ord::int from unnest(i.indkey) with ordinality k(attnum, ord) where k.attnum = a.attnum) as key_position
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_index i on i.indrelid = c.oid and i.indisprimary
        where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname = any(${`{${tables.join(',')}}`}::text[])
        order by c.relname, a.attnum`,
  );
  const shapes = new Map<string, TableShape>();
  const keyed = new Map<string, { name: string; type: string; position: number }[]>();
  for (const row of rows) {
    const shape = shapes.get(row.table_name) ?? { table: row.table_name, columns: [], key: [] };
    shapes.set(row.table_name, shape);
    shape.columns.push({ name: row.column_name, type: row.type });
    if (row.key_position !== null) {
      const key = keyed.get(row.table_name) ?? [];
      key.push({ name: row.column_name, type: row.type, position: row.key_position });
      keyed.set(row.table_name, key);
    }
  }
  for (const [table, key] of keyed)
    shapes.get(table)!.key = key.sort((a, b) => a.position - b.position).map(({ name, type }) => ({ name, type }));
  return shapes;
}

/** A type name as the catalogue writes it (`timestamp with time zone`, `character varying(64)`), checked before it is written into a cast. */
function typeName(type: string): SQL {
  if (!/^[a-z0-9_ ,()[\]"]+$/i.test(type)) throw new Error(`unexpected column type ${type}`);
  return sql.raw(type);
}

/**
 * A column's value as JSON text, the same from both drivers: a timestamp in UTC as ISO 8601 with
 * milliseconds (as the API writes them), bytes as base64, everything else as PostgreSQL writes JSON.
 */
function asJson(column: string, type: string): SQL {
  const value = sql`t.${sql.identifier(column)}`;
  if (type === 'timestamp with time zone')
    return sql`to_json(to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;
  if (type === 'timestamp without time zone')
    return sql`to_json(to_char(${value}, 'YYYY-MM-DD"T"HH24:MI:SS.MS'))::text`;
  if (type === 'bytea') return sql`to_json(translate(encode(${value}, 'base64'), E'\n', ''))::text`;
  return sql`to_json(${value})::text`;
}

/** One batch of rows: each the JSON text of its columns (null for SQL null), of its extra columns, and its key. */
export interface Batch {
  rows: { values: (string | null)[]; extra: (string | null)[] }[];
  /** The last row's key, as text, for the next batch; null when the batch is empty. */
  last: string[] | null;
}

/**
 * Up to `limit` of the account's rows of `shape.table` after the key `after` (keyset paging on the
 * primary key: each row once, whatever changes meanwhile), the columns `columns`, and `extra`
 * expressions over the row `t` (as JSON text). `scope` picks the rows: the account's, or (for the
 * accounts table) the account itself.
 */
export async function readBatch(
  db: Executor,
  shape: TableShape,
  {
    accountId,
    columns,
    extra = [],
    after,
    limit,
  }: { accountId: string; columns: string[]; extra?: SQL[]; after: string[] | null; limit: number },
): Promise<Batch> {
  const types = new Map(shape.columns.map((c) => [c.name, c.type]));
  const selected = [
    ...columns.map((name, i) => sql`${asJson(name, types.get(name)!)} as ${sql.identifier(`c${i}`)}`),
    ...extra.map((expression, i) => sql`to_json(${expression})::text as ${sql.identifier(`x${i}`)}`),
    ...shape.key.map((k, i) => sql`t.${sql.identifier(k.name)}::text as ${sql.identifier(`k${i}`)}`),
  ];
  const owner = shape.table === 'accounts' ? sql`t.id = ${accountId}` : sql`t.account_id = ${accountId}`;
  const keyColumns = sql.join(
    shape.key.map((k) => sql`t.${sql.identifier(k.name)}`),
    sql`, `,
  );
  const past =
    after === null
      ? sql``
      : sql` and (${keyColumns}) > (${sql.join(
          shape.key.map((k, i) => sql`cast(${after[i]} as ${typeName(k.type)})`),
          sql`, `,
        )})`;
  const rows = await queryRows<Record<string, string | null>>(
    db,
    sql`select ${sql.join(selected, sql`, `)} from ${sql.identifier(shape.table)} t
        where ${owner}${past} order by ${keyColumns} limit ${limit}`,
  );
  const last = rows.at(-1);
  return {
    rows: rows.map((row) => ({
      values: columns.map((_, i) => row[`c${i}`] ?? null),
      extra: extra.map((_, i) => row[`x${i}`] ?? null),
    })),
    last: last ? shape.key.map((_, i) => last[`k${i}`]!) : null,
  };
}

/** How many of the account's rows `table` holds (the account's own row for `accounts`). */
export async function countRows(db: Executor, table: string, accountId: string): Promise<number> {
  const owner = table === 'accounts' ? sql`id = ${accountId}` : sql`account_id = ${accountId}`;
  const [row] = await queryRows<{ n: string }>(
    db,
    sql`select count(*) as n from ${sql.identifier(table)} where ${owner}`,
  );
  return Number(row!.n);
}

export async function accountName(db: Executor, accountId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ name: string }>(db, sql`select name from accounts where id = ${accountId}`);
  return row?.name;
}

export async function insertExport(
  db: Executor,
  values: { accountId: string; tablesTotal: number; rowsTotal: number; createdAt: Date },
): Promise<ExportRow> {
  const [row] = await db
    .insert(accountExports)
    .values({ ...values, status: 'running' })
    .returning();
  return row!;
}

/** The account's running export, if any. */
export async function runningExport(db: Executor, accountId: string): Promise<ExportRow | undefined> {
  const [row] = await db
    .select()
    .from(accountExports)
    .where(and(eq(accountExports.accountId, accountId), eq(accountExports.status, 'running')));
  return row;
}

const notExpired = (now: Date) => or(isNull(accountExports.expiresAt), gt(accountExports.expiresAt, now));

/** One export of the account, unless expired. */
export async function exportOf(db: Executor, accountId: string, id: string, now: Date): Promise<ExportRow | undefined> {
  const [row] = await db
    .select()
    .from(accountExports)
    .where(and(eq(accountExports.id, id), eq(accountExports.accountId, accountId), notExpired(now)));
  return row;
}

/** The account's exports not yet expired, newest first. */
export async function exportsOf(db: Executor, accountId: string, now: Date): Promise<ExportRow[]> {
  return db
    .select()
    .from(accountExports)
    .where(and(eq(accountExports.accountId, accountId), notExpired(now)))
    .orderBy(desc(accountExports.createdAt), desc(accountExports.id));
}

/**
 * The oldest running export that no process holds (never started, or its holder's lease passed:
 * the process ended), or that one export (`only`), taken until `leaseUntil` and started over from
 * its first table.
 */
export async function claimNext(
  db: Executor,
  now: Date,
  leaseUntil: Date,
  only?: string,
): Promise<ExportRow | undefined> {
  return db.transaction(async (tx) => {
    const [free] = await tx
      .select({ id: accountExports.id })
      .from(accountExports)
      .where(
        and(
          eq(accountExports.status, 'running'),
          or(isNull(accountExports.leaseUntil), lte(accountExports.leaseUntil, now)),
          only === undefined ? undefined : eq(accountExports.id, only),
        ),
      )
      .orderBy(asc(accountExports.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!free) return undefined;
    const [row] = await tx
      .update(accountExports)
      .set({ leaseUntil, attempts: sql`${accountExports.attempts} + 1`, tablesDone: 0, rowsWritten: 0 })
      .where(eq(accountExports.id, free.id))
      .returning();
    return row;
  });
}

/**
 * A running export still held by `attempt` (the attempt count its claim made): a process that
 * stalled past its lease, while another took the export up, writes nothing more.
 */
const heldBy = (id: string, attempt: number) =>
  and(eq(accountExports.id, id), eq(accountExports.status, 'running'), eq(accountExports.attempts, attempt));

/** The progress of a running export, and its lease renewed (or let go: null); false when `attempt` no longer holds it. */
export async function recordProgress(
  db: Executor,
  id: string,
  attempt: number,
  progress: { tablesDone?: number; rowsWritten?: number; leaseUntil: Date | null },
): Promise<boolean> {
  const rows = await db
    .update(accountExports)
    .set(progress)
    .where(heldBy(id, attempt))
    .returning({ id: accountExports.id });
  return rows.length > 0;
}

/** The export's end: ready with its archive's size, or failed with the reason; kept until `expiresAt`. */
export async function finish(
  db: Executor,
  id: string,
  attempt: number,
  end: { status: 'ready' | 'failed'; bytes?: number; error?: string; finishedAt: Date; expiresAt: Date } & Partial<
    Pick<ExportRow, 'tablesDone' | 'rowsWritten'>
  >,
): Promise<boolean> {
  const rows = await db
    .update(accountExports)
    .set({ ...end, leaseUntil: null })
    .where(heldBy(id, attempt))
    .returning({ id: accountExports.id });
  return rows.length > 0;
}

/** Exports past their expiry, deleted; their ids, for their files to go too. */
export async function deleteExpired(db: Executor, now: Date): Promise<string[]> {
  const rows = await db
    .delete(accountExports)
    .where(lte(accountExports.expiresAt, now))
    .returning({ id: accountExports.id });
  return rows.map((row) => row.id);
}

/** The ids of every export still known (of any account): a file of none other is left over. */
export async function knownIds(db: Executor): Promise<Set<string>> {
  const rows = await db.select({ id: accountExports.id }).from(accountExports);
  return new Set(rows.map((row) => row.id));
}

/** The ids of the account's exports. */
export async function idsOfAccount(db: Executor, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ id: accountExports.id })
    .from(accountExports)
    .where(eq(accountExports.accountId, accountId));
  return rows.map((row) => row.id);
}

/**
 * The account's exports that may hold what was written at `since` or later, deleted (an erasure
 * withdraws them): those being written and those finished since; their ids.
 */
export async function deleteExportsSince(db: Executor, accountId: string, since: Date): Promise<string[]> {
  const rows = await db
    .delete(accountExports)
    .where(
      and(
        eq(accountExports.accountId, accountId),
        or(isNull(accountExports.finishedAt), gte(accountExports.finishedAt, since)),
      ),
    )
    .returning({ id: accountExports.id });
  return rows.map((row) => row.id);
}
