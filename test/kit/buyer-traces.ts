import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/base/db/client.js';
import type { TestContext } from '../app.js';
import { eventsSettled } from '../databases.js';
import { until } from '../webhook-receiver.js';

// What the erasure tests read: where a buyer's values are kept (findTraces, over every text-like
// column of the public schema, read at run time), and the waits until the senders have written
// what the buyer's events make (test/kit/buyer-everywhere.ts writes the buyer).

/** The NDR rules' rounds until their consumer has read every event. */
export async function ndrRulesCaughtUp(ctx: TestContext) {
  await until(async () => {
    await ctx.app.ndrRules.runOnce();
    return caughtUp(ctx.database.db, ['ndr-rules']);
  }, 'the NDR rules to catch up');
}

/** Whether each consumer's cursor has passed the last event written. */
async function caughtUp(db: Db, consumers: string[]): Promise<boolean> {
  for (const name of consumers) {
    const [row] = await queryRows<{ caught_up: boolean }>(
      db,
      sql`select coalesce((select (c.after_txid, c.after_position) >= (e.txid, e.position)
            from event_consumers c, (select txid, position from events order by txid desc, position desc limit 1) e
           where c.name = ${name}), false) as caught_up`,
    );
    if (!row?.caught_up) return false;
  }
  return true;
}

/** Until the webhooks, e-mails and messages of every event so far are written and none is pending. */
export async function senderSettled(ctx: TestContext, accountId: string) {
  const db = ctx.database.db;
  await until(async () => {
    await eventsSettled(ctx.database);
    if (!(await caughtUp(db, ['webhooks', 'notifications', 'buyer-messaging']))) return false;
    const [row] = await queryRows<{ pending: number }>(
      db,
      sql`select ((select count(*) from webhook_deliveries where account_id = ${accountId} and status = 'pending')
        + (select count(*) from notifications where account_id = ${accountId} and status = 'pending')
        + (select count(*) from buyer_messages where account_id = ${accountId} and status = 'pending'))::int as pending`,
    );
    return row!.pending === 0;
  }, "the buyer's webhooks, e-mails and messages to settle");
}

export interface Trace {
  table: string;
  column: string;
  needle: string;
  rows: number;
}

/** Every column of public's tables a needle could hide in: text, varchar, json, jsonb and text[]. */
const SEARCHED = sql`select c.table_name as "table", c.column_name as "column" from information_schema.columns c
  join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
 where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
   and (c.data_type in ('text', 'character varying', 'json', 'jsonb') or (c.data_type = 'ARRAY' and c.udt_name = '_text'))
 order by c.table_name, c.ordinal_position`;

/** `%needle%` for ilike, its own %, _ and \ escaped (matched with `escape '\'`). */
const containing = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every (table, column, needle) where a row of public's tables holds the needle, case-insensitively, and how many rows. */
export async function findTraces(db: Db, needles: string[]): Promise<Trace[]> {
  const columns = await queryRows<{ table: string; column: string }>(db, SEARCHED);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  const traces: Trace[] = [];
  for (const [table, names] of byTable) {
    const pairs = names.flatMap((column) => needles.map((needle) => ({ column, needle })));
    const counts: SQL[] = pairs.map(
      ({ column, needle }, i) =>
        sql`count(*) filter (where ${sql.identifier(column)}::text ilike ${containing(needle)} escape '\\')::int as ${sql.identifier(`c${i}`)}`,
    );
    const [row] = await queryRows<Record<string, number>>(
      db,
      sql`select ${sql.join(counts, sql`, `)} from ${sql.identifier('public')}.${sql.identifier(table)}`,
    );
    pairs.forEach(({ column, needle }, i) => {
      const rows = Number(row?.[`c${i}`] ?? 0);
      if (rows > 0) traces.push({ table, column, needle, rows });
    });
  }
  return traces;
}

export interface FileTrace {
  file: string;
  /** The relation whose file it is (PostgreSQL's pg_filenode_relation), null when none is (a log segment, a dropped file). */
  relation: string | null;
  needle: string;
}

/**
 * Every file of the database's own where a needle's bytes are (as given and in lower case): on the
 * embedded engine its whole data directory, the write-ahead log's segments among them; on a
 * PostgreSQL server the test database's directory (base/<oid>), since the server's log is shared
 * with every other database on it. Read through the server (a superuser's pg_read_binary_file), so
 * that pages still in its buffers are written out first.
 */
export async function findFileTraces(database: TestContext['database'], needles: string[]): Promise<FileTrace[]> {
  const { db, engine } = database;
  await db.execute(sql`checkpoint`);
  const [{ root }] = (await queryRows<{ root: string }>(
    db,
    engine === 'pglite'
      ? sql`select '.' as root`
      : sql`select 'base/' || oid as root from pg_database where datname = current_database()`,
  )) as [{ root: string }];
  const bytes = [...new Set(needles.flatMap((needle) => [needle, needle.toLowerCase()]))];
  return queryRows<FileTrace>(
    db,
    sql`with recursive tree(path, is_dir, size) as (
          select ${root}::text, true, 0::bigint
          union all
          select t.path || '/' || f.name, coalesce(s.isdir, false), coalesce(s.size, 0)
            from tree t, pg_ls_dir(t.path, true, false) as f(name), pg_stat_file(t.path || '/' || f.name, true) as s
           where t.is_dir
        )
        select distinct t.path as file,
               pg_filenode_relation(0, nullif(substring(t.path from '^(?:\./)?base/[0-9]+/([0-9]+)(?:\.[0-9]+)?$'), '')::oid)::text as relation,
               n.needle
          from tree t, pg_read_binary_file(t.path, 0, t.size, true) as b(content), unnest(${`{${bytes.map((b) => `"${b.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]) as n(needle)
         where not t.is_dir and position(convert_to(n.needle, 'UTF8') in b.content) > 0
         order by 1, 2`,
  );
}
