import type pg from 'pg';
import type { TableWrites } from './booking-writes.js';

// The same-rows baseline's tables (issue 54): for each table a booking writes, a clone in schema
// `bare` with the same columns and indexes (primary and unique keys included; no foreign keys, no
// check constraints, no triggers: what those write is counted as rows of their own tables), copies
// of the booking's real rows to insert from (`bare_sample`), and a pool of rows to update where a
// booking updates rows it did not insert (the shared counters). Each table's statements are
// templates: the baseline sends them one by one in a transaction (`statements`), or one PL/pgSQL
// function, bare.book, runs them all in one round trip (`function`: what the rows cost PostgreSQL
// alone). Where a booking's updates of a table mostly change an indexed column (not HOT), the
// baseline's change one too.

export const POOL_ROWS = 1_000;
const SAMPLE_ROWS = 64;
/** What a request of the `function` baseline runs: one call, one transaction. */
export const BOOK_CALL = 'select bare.book($1, $2, $3, $4, $5, $6)';

/** One table's share of a request, as the baseline process runs it. */
export interface SameRowsTable {
  table: string;
  /** Per booking, on average. */
  inserted: number;
  updated: number;
  deleted: number;
  /** $1 the request's token, $2 its number, $3 how many rows to insert; returns their ctids. */
  insert: string;
  /** $1 the ctid of a row this request inserted; returns its new ctid. */
  updateInserted: string;
  /** $1 the numbers of pool rows (0 to POOL_ROWS − 1), updated in one statement; null where the table has no key to find them by. */
  updatePool: string | null;
  /** $1 the ctid of a row this request inserted. */
  deleteInserted: string;
}

interface Column {
  name: string;
  type: string;
  base: string;
  skip: boolean;
}

const TEXT = ['text', 'varchar', 'bpchar'];
const NUMBER = ['int2', 'int4', 'int8', 'numeric'];
const TIME = ['timestamptz', 'timestamp'];

/** A unique value per inserted row for a key column, by type (seq + k is the row's number in the run). */
function freshValue(column: Column, tableIndex: number): string | undefined {
  if (column.base === 'uuid') return 'gen_random_uuid()';
  if (TEXT.includes(column.base)) return `(@token@ || '.${tableIndex}.' || (@seq@ + k))::${column.type}`;
  if (NUMBER.includes(column.base)) return `nextval('bare.seq')::${column.type}`;
  if (column.base === 'date') return `date '1000-01-01' + nextval('bare.seq')::int`;
  if (TIME.includes(column.base))
    return `(timestamp '1000-01-01' + nextval('bare.seq') * interval '1 millisecond')::${column.type}`;
  return undefined;
}

/** Pool row r's value for a key column: never one freshValue gives. */
function poolValue(column: Column, r: string): string {
  if (column.base === 'uuid') return `md5('pool.' || ${r})::uuid`;
  if (TEXT.includes(column.base)) return `('pool.' || ${r})::${column.type}`;
  if (NUMBER.includes(column.base)) return `(-1 - ${r})::${column.type}`;
  if (column.base === 'date') return `date '0900-01-01' + ${r}`;
  return `(timestamp '0900-01-01' + ${r} * interval '1 millisecond')::${column.type}`;
}

/** An update of one column that changes an indexed value (so not HOT), by type. */
function changed(column: Column): string | undefined {
  const name = quoted(column.name);
  if (NUMBER.includes(column.base)) return `${name} = ${name} + 1`;
  if (TIME.includes(column.base)) return `${name} = ${name} + interval '1 microsecond'`;
  if (TEXT.includes(column.base)) return `${name} = ${name} || '.'`;
  return undefined;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function describe(client: pg.Client, table: string) {
  const regclass = `public.${quoted(table)}`;
  const columns = (
    await client.query<Column>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, t.typname as base,
              (a.attgenerated <> '' or a.attidentity = 'a') as skip
         from pg_attribute a join pg_type t on t.oid = a.atttypid
        where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [regclass],
    )
  ).rows;
  // indkey lists an index's key columns, then its INCLUDE columns; the columns its expressions and
  // predicate read are found in their text. An update that changes any of them is not HOT.
  const indexes = (
    await client.query<{ columns: string[]; keys: number; unique: boolean; primary: boolean; read: string }>(
      `select i.indisunique as unique, i.indisprimary as primary, i.indnkeyatts as keys,
              array(select a.attname::text from unnest(i.indkey) with ordinality k(n, o)
                      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.n order by k.o) as columns,
              concat_ws(' ', pg_get_expr(i.indexprs, i.indrelid), pg_get_expr(i.indpred, i.indrelid)) as read
         from pg_index i where i.indrelid = $1::regclass`,
      [regclass],
    )
  ).rows;
  const byName = new Map(columns.map((c) => [c.name, c]));
  const preference = ['uuid', 'text', 'varchar', 'int8', 'int4', 'numeric', 'timestamptz', 'timestamp', 'date', 'int2'];
  const keys = indexes
    .filter((index) => index.unique)
    .map((index) => {
      // Expression columns are not in indkey: a unique index on an expression keeps its plain columns.
      const keyColumns = index.columns.slice(0, index.keys);
      const candidates = keyColumns
        .map((name) => byName.get(name)!)
        .filter((c) => freshValue(c, 0) !== undefined)
        .sort((a, b) => preference.indexOf(a.base) - preference.indexOf(b.base));
      if (candidates.length === 0) throw new Error(`${table}: no column of ${keyColumns} can take fresh values`);
      return { columns: keyColumns, key: candidates[0]!.name, primary: index.primary };
    });
  const readByExpressions = (name: string) =>
    indexes.some((index) => new RegExp(`(^|[^\\w"])"?${name}"?($|[^\\w"])`).test(index.read));
  const indexed = new Set([
    ...indexes.flatMap((index) => index.columns),
    ...columns.map((c) => c.name).filter(readByExpressions),
  ]);
  const inUniqueKey = new Set(keys.flatMap((k) => k.columns));
  const writable = columns.filter((c) => !c.skip);
  const hotColumn = writable.find((c) => !indexed.has(c.name)) ?? writable[0]!;
  const coldColumn = writable.find((c) => indexed.has(c.name) && !inUniqueKey.has(c.name) && changed(c));
  return {
    columns,
    keys,
    byName,
    hotSet: `${quoted(hotColumn.name)} = ${quoted(hotColumn.name)}`,
    coldSet: coldColumn && changed(coldColumn),
  };
}

/**
 * Builds schemas `bare` and `bare_sample` for these tables (Dakiya's rows of each must be in the
 * database: a round of bookings) and the function bare.book over them, its arrays in their order;
 * answers each table's statements.
 */
export async function buildSameRows(client: pg.Client, writes: TableWrites[]): Promise<SameRowsTable[]> {
  await client.query(
    'drop schema if exists bare cascade; drop schema if exists bare_sample cascade; create schema bare; create schema bare_sample; create sequence bare.seq',
  );
  const tables: SameRowsTable[] = [];
  const blocks: string[] = [];
  for (const [index, write] of writes.entries()) {
    const i = index + 1;
    const plan = await describe(client, write.table);
    const t = `bare.${quoted(write.table)}`;
    const sample = `bare_sample.${quoted(write.table)}`;
    const source = `public.${quoted(write.table)}`;
    await client.query(
      `create table ${t} (like ${source} including defaults including identity including generated including indexes)`,
    );
    await client.query(
      `create table ${sample} as
         select row_number() over ()::int as bench_row, * from (select * from ${source} order by ctid desc limit ${SAMPLE_ROWS}) x`,
    );
    const samples = Number((await client.query<{ n: string }>(`select count(*) as n from ${sample}`)).rows[0]!.n);
    if (samples === 0) throw new Error(`${write.table}: no row to copy`);
    const keyColumns = new Set(plan.keys.map((k) => k.key));
    const insertable = plan.columns.filter((c) => !c.skip);
    const columnList = insertable.map((c) => quoted(c.name)).join(', ');
    const set = write.hotUpdated < write.updated / 2 && plan.coldSet ? plan.coldSet : plan.hotSet;

    let updatePool: string | null = null;
    const poolKey = plan.keys.find((k) => k.primary) ?? plan.keys[0];
    if (write.updated > 0 && poolKey) {
      // The pool: copies of the first sample whose key columns take pool values; an update finds
      // its pool rows by the whole key, the other columns as the sample has them.
      await client.query(
        `insert into ${t} (${columnList})
           select ${insertable.map((c) => (keyColumns.has(c.name) ? poolValue(c, 'r') : `s.${quoted(c.name)}`)).join(', ')}
             from ${sample} s cross join generate_series(0, ${POOL_ROWS - 1}) r where s.bench_row = 1`,
      );
      const literals = (
        await client.query<Record<string, string>>(
          `select ${poolKey.columns.map((c) => `quote_nullable(${quoted(c)}::text) as ${quoted(c)}`).join(', ')}
             from ${sample} where bench_row = 1`,
        )
      ).rows[0]!;
      const predicate = poolKey.columns.map((name) => {
        const column = plan.byName.get(name)!;
        if (name === poolKey.key)
          return `${quoted(name)} = any(array(select ${poolValue(column, 'x.r')} from unnest(@rs@) x(r)))`;
        return literals[name] === 'NULL'
          ? `${quoted(name)} is null`
          : `${quoted(name)} = ${literals[name]}::${column.type}`;
      });
      updatePool = `update ${t} set ${set} where ${predicate.join(' and ')}`;
    }
    const values = insertable.map((c) => (keyColumns.has(c.name) ? freshValue(c, i) : `s.${quoted(c.name)}`));
    const templates = {
      insert: `insert into ${t} (${columnList}) select ${values.join(', ')}
         from generate_series(1, @n@) k join ${sample} s on s.bench_row = 1 + (@seq@ + k) % ${samples}
        where @token@ is not null returning ctid`, // the token named even where no key column takes it: a parameter must be typed
      updateInserted: `update ${t} set ${set} where ctid = @tid@ returning ctid`,
      updatePool,
      deleteInserted: `delete from ${t} where ctid = @tid@`,
    };
    blocks.push(functionBlock(templates, i));
    // A template's placeholders as the parameters of a prepared statement, in this order, typed.
    const bind = (template: string, names: [string, string][]) =>
      names.reduce((text, [name, type], at) => text.replaceAll(`@${name}@`, `$${at + 1}::${type}`), template);
    tables.push({
      table: write.table,
      inserted: write.inserted,
      updated: write.updated,
      deleted: write.deleted,
      insert: bind(templates.insert, [
        ['token', 'text'],
        ['seq', 'int'],
        ['n', 'int'],
      ]),
      updateInserted: bind(templates.updateInserted, [['tid', 'tid']]),
      updatePool: updatePool && bind(updatePool, [['rs', 'int[]']]),
      deleteInserted: bind(templates.deleteInserted, [['tid', 'tid']]),
    });
  }
  await client.query('analyze');
  await client.query(`create function bare.book(p_token text, p_seq int, p_ins int[], p_upd int[], p_del int[], p_r int[])
    returns void language plpgsql as $book$
    declare ${writes.map((_, index) => `t${index + 1} tid;`).join(' ')}
    begin${blocks.join('')}
    end $book$`);
  return tables;
}

/** Table i's part of bare.book: its inserts one row at a time (RETURNING INTO takes one), its updates, its deletes. */
function functionBlock(
  templates: { insert: string; updateInserted: string; updatePool: string | null; deleteInserted: string },
  i: number,
): string {
  const fill = (template: string) =>
    template
      .replaceAll('@token@', 'p_token')
      .replaceAll('@seq@', '(p_seq * 1000 + j)')
      .replaceAll('@n@', '1')
      .replaceAll('@tid@', `t${i}`)
      .replaceAll('@rs@', `array[p_r[${i}]]`);
  return `
  for j in 1..p_ins[${i}] loop ${fill(templates.insert)} into t${i}; end loop;
  for j in 1..p_upd[${i}] loop
    if t${i} is null then ${templates.updatePool ? `${fill(templates.updatePool)};` : 'null;'}
    else ${fill(templates.updateInserted)} into t${i};
    end if;
  end loop;
  for j in 1..p_del[${i}] loop
    if t${i} is not null then ${fill(templates.deleteInserted)}; t${i} := null; end if;
  end loop;`;
}
