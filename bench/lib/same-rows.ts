import type pg from 'pg';
import type { TableWrites } from './booking-writes.js';

// The same-rows baseline's tables (issue 54): for each table a booking writes, a clone in schema
// `bare` with the same columns and indexes (primary and unique keys included; no foreign keys, no
// check constraints, no triggers: what those write is counted as rows of their own tables), copies
// of the booking's real rows to insert from (`bare_sample`), and a pool of rows to update where a
// booking updates rows it did not insert (the shared counters). One PL/pgSQL function, bare.book,
// writes one request's rows and updates in one transaction and one round trip, its statements
// planned once per connection: the least a server can do to write what a booking writes.

export const POOL_ROWS = 1_000;
/** What a request of the baseline runs: one call, one transaction. */
export const BOOK_CALL = 'select bare.book($1, $2, $3, $4, $5, $6)';
const SAMPLE_ROWS = 64;

interface Column {
  name: string;
  type: string;
  base: string;
  skip: boolean;
}

/** A unique value per inserted row for a key column, by type (k: the row's number in this request). */
function freshValue(column: Column, tableIndex: number): string | undefined {
  if (column.base === 'uuid') return 'gen_random_uuid()';
  if (['text', 'varchar', 'bpchar'].includes(column.base)) return `(p_token || '.${tableIndex}.' || k)::${column.type}`;
  if (['int2', 'int4', 'int8', 'numeric'].includes(column.base)) return `nextval('bare.seq')::${column.type}`;
  if (column.base === 'date') return `date '1000-01-01' + nextval('bare.seq')::int`;
  if (['timestamptz', 'timestamp'].includes(column.base))
    return `(timestamp '1000-01-01' + nextval('bare.seq') * interval '1 millisecond')::${column.type}`;
  return undefined;
}

/** Pool row r's value for a key column: never one freshValue gives. */
function poolValue(column: Column, r: string): string {
  if (column.base === 'uuid') return `md5('pool.' || ${r})::uuid`;
  if (['text', 'varchar', 'bpchar'].includes(column.base)) return `('pool.' || ${r})::${column.type}`;
  if (['int2', 'int4', 'int8', 'numeric'].includes(column.base)) return `(-1 - ${r})::${column.type}`;
  if (column.base === 'date') return `date '0900-01-01' + ${r}`;
  return `(timestamp '0900-01-01' + ${r} * interval '1 millisecond')::${column.type}`;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

interface TablePlan {
  table: string;
  columns: Column[];
  /** Per unique index: its columns, and the one given fresh values. */
  keys: { columns: string[]; key: string; primary: boolean }[];
  /** The column an update sets to itself: one no index reads, where there is one (counters stay HOT). */
  updated: string;
  samples: number;
}

async function describe(client: pg.Client, table: string): Promise<TablePlan> {
  const regclass = `public.${quoted(table)}`;
  const columns = (
    await client.query<{ name: string; type: string; base: string; skip: boolean }>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, t.typname as base,
              (a.attgenerated <> '' or a.attidentity = 'a') as skip
         from pg_attribute a join pg_type t on t.oid = a.atttypid
        where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [regclass],
    )
  ).rows;
  const indexes = (
    await client.query<{ columns: string[]; unique: boolean; primary: boolean }>(
      `select i.indisunique as unique, i.indisprimary as primary,
              array(select a.attname::text from unnest(i.indkey) with ordinality k(n, o)
                      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n order by k.o) as columns
         from pg_index i where i.indrelid = $1::regclass`,
      [regclass],
    )
  ).rows;
  const byName = new Map(columns.map((c) => [c.name, c]));
  const preference = ['uuid', 'text', 'varchar', 'int8', 'int4', 'numeric', 'timestamptz', 'timestamp', 'date', 'int2'];
  const keys = indexes
    .filter((index) => index.unique)
    .map((index) => {
      const candidates = index.columns
        .map((name) => byName.get(name)!)
        .filter((c) => freshValue(c, 0) !== undefined)
        .sort((a, b) => preference.indexOf(a.base) - preference.indexOf(b.base));
      if (candidates.length === 0) throw new Error(`${table}: no column of ${index.columns} can take fresh values`);
      return { columns: index.columns, key: candidates[0]!.name, primary: index.primary };
    });
  const indexed = new Set(indexes.flatMap((index) => index.columns));
  const updated = columns.find((c) => !c.skip && !indexed.has(c.name)) ?? columns.find((c) => !c.skip)!;
  return { table, columns, keys, updated: updated.name, samples: 0 };
}

/** The function's statements for table i: its inserts, then its updates, then its deletes. */
function tableBlock(plan: TablePlan, i: number, poolPredicate: string | undefined): string {
  const t = `bare.${quoted(plan.table)}`;
  const keyColumns = new Set(plan.keys.map((k) => k.key));
  const insertable = plan.columns.filter((c) => !c.skip);
  const values = insertable.map((c) => (keyColumns.has(c.name) ? freshValue(c, i) : `s.${quoted(c.name)}`));
  const set = `${quoted(plan.updated)} = ${quoted(plan.updated)}`;
  const poolUpdate = poolPredicate ? `update ${t} set ${set} where ${poolPredicate};` : 'null;';
  return `
  for k in 1..p_ins[${i}] loop
    insert into ${t} (${insertable.map((c) => quoted(c.name)).join(', ')})
      select ${values.join(', ')} from bare_sample.${quoted(plan.table)} s
       where s.bench_row = 1 + (p_seq + k) % ${plan.samples} returning ctid into t${i};
  end loop;
  for k in 1..p_upd[${i}] loop
    if t${i} is null then ${poolUpdate}
    else update ${t} set ${set} where ctid = t${i} returning ctid into t${i};
    end if;
  end loop;
  for k in 1..p_del[${i}] loop
    if t${i} is not null then delete from ${t} where ctid = t${i}; t${i} := null; end if;
  end loop;`;
}

/**
 * Builds schema `bare` for these tables, in the order bare.book's arrays follow. Dakiya's rows of each table must be in the database (a round of bookings).
 */
export async function buildSameRows(client: pg.Client, writes: TableWrites[]): Promise<void> {
  await client.query(
    'drop schema if exists bare cascade; drop schema if exists bare_sample cascade; create schema bare; create schema bare_sample; create sequence bare.seq',
  );
  const blocks: string[] = [];
  for (const [index, write] of writes.entries()) {
    const i = index + 1;
    const plan = await describe(client, write.table);
    const source = `public.${quoted(plan.table)}`;
    await client.query(
      `create table bare.${quoted(plan.table)} (like ${source} including defaults including identity including generated including indexes)`,
    );
    await client.query(
      `create table bare_sample.${quoted(plan.table)} as
         select row_number() over ()::int as bench_row, * from (select * from ${source} order by ctid desc limit ${SAMPLE_ROWS}) x`,
    );
    plan.samples = Number(
      (await client.query<{ n: string }>(`select count(*) as n from bare_sample.${quoted(plan.table)}`)).rows[0]!.n,
    );
    if (plan.samples === 0) throw new Error(`${plan.table}: no row to copy`);
    let poolPredicate: string | undefined;
    const poolKey = plan.keys.find((k) => k.primary) ?? plan.keys[0];
    if (write.updated > 0 && poolKey) {
      // The pool: copies of the first sample whose key columns take pool values; an update finds
      // pool row p_r[i] by the whole key, the other columns as the sample has them.
      const keyColumns = new Set(plan.keys.map((k) => k.key));
      const insertable = plan.columns.filter((c) => !c.skip);
      const byName = new Map(plan.columns.map((c) => [c.name, c]));
      await client.query(
        `insert into bare.${quoted(plan.table)} (${insertable.map((c) => quoted(c.name)).join(', ')})
           select ${insertable.map((c) => (keyColumns.has(c.name) ? poolValue(c, 'r') : `s.${quoted(c.name)}`)).join(', ')}
             from bare_sample.${quoted(plan.table)} s cross join generate_series(0, ${POOL_ROWS - 1}) r where s.bench_row = 1`,
      );
      const literals = (
        await client.query<Record<string, string | null>>(
          `select ${poolKey.columns.map((c) => `quote_nullable(${quoted(c)}::text) as ${quoted(c)}`).join(', ')}
             from bare_sample.${quoted(plan.table)} where bench_row = 1`,
        )
      ).rows[0]!;
      poolPredicate = poolKey.columns
        .map((name) => {
          const column = byName.get(name)!;
          if (name === poolKey.key) return `${quoted(name)} = ${poolValue(column, `p_r[${i}]`)}`;
          const literal = literals[name];
          return literal === null || literal === 'NULL'
            ? `${quoted(name)} is null`
            : `${quoted(name)} = ${literal}::${column.type}`;
        })
        .join(' and ');
    }
    blocks.push(tableBlock(plan, i, poolPredicate));
  }
  await client.query(`analyze`);
  await client.query(`create function bare.book(p_token text, p_seq int, p_ins int[], p_upd int[], p_del int[], p_r int[])
    returns void language plpgsql as $book$
    declare ${writes.map((_, index) => `t${index + 1} tid;`).join(' ')}
    begin${blocks.join('')}
    end $book$`);
}
