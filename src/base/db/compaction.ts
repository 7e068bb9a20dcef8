import { setTimeout as pause } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from './client.js';
import { permissionDenied } from './errors.js';

// An UPDATE or DELETE leaves the row's old version in the table's file until vacuum reuses its
// space, and a plain VACUUM frees the space without overwriting its bytes; indexes keep the old
// keys the same way, the planner's statistics keep sampled values (most common values, histogram
// bounds) in pg_statistic, and the write-ahead log keeps every page image written since the last
// checkpoints. Rewriting each table (VACUUM FULL, which also rebuilds its indexes and TOAST)
// copies only the live rows into new files and drops the old ones; ANALYZE then samples only
// live rows, and pg_statistic is rewritten after it; two checkpoints around a switch of the
// write-ahead log let PostgreSQL remove the segments that held the old pages (decision 191).

export interface TableCompaction {
  table: string;
  bytes_before: number;
  bytes_after: number;
  /** False when PostgreSQL skipped the table (VACUUM warns, not fails, on a table the role does not own). */
  rewritten: boolean;
}

export interface WriteAheadLogCompaction {
  /** removed: the segments before the switch are gone; recycled: renamed for reuse, their bytes kept until overwritten; not_reached: the role may not checkpoint or switch. */
  segments: 'removed' | 'recycled' | 'not_reached';
  detail: string;
}

/** Sessions holding a transaction id or a snapshot from before the compaction began that had not let go once it stopped waiting. */
export interface OpenTransactions {
  count: number;
  oldest_started_at: string;
}

export interface StorageCompaction {
  /** Null when none: every row version changed before the compaction began could be left out. */
  open_transactions: OpenTransactions | null;
  tables: TableCompaction[];
  /** Whether the planner's statistics (pg_statistic) were rewritten after the tables were analysed afresh. */
  statistics_rewritten: boolean;
  /** Empty tables whose statistics from before were left: ANALYZE keeps an empty table's, and only a superuser may clear them. */
  statistics_kept: string[];
  write_ahead_log: WriteAheadLogCompaction;
}

interface Relation {
  oid: string;
  name: string;
  quoted: string;
  filenode: string | null;
  bytes: string;
}

// Leaf tables only: a partitioned table has no storage of its own, each partition is rewritten
// (and locked) in its turn.
const relations = (db: Db, names?: string[]) =>
  queryRows<Relation>(
    db,
    sql`select c.oid::text as oid, c.relname as name, quote_ident(c.relname) as quoted, pg_relation_filenode(c.oid)::text as filenode,
               pg_total_relation_size(c.oid)::text as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'm')
          ${names ? sql`and c.relname = any(${sql.param(names)}::text[])` : sql``}
        order by c.relname`,
  );

/** How long the compaction waits for the transactions and snapshots from before it began to end. */
export const COMPACTION_WAIT_MS = 30_000;

/**
 * A rewrite copies every row version a transaction or snapshot still open on the server may see:
 * one that holds an id, in any database of the server, keeps every version changed after it began,
 * and so does a snapshot taken while such a transaction ran (a read, or each statement of a
 * transaction, holds one without an id). So the compaction waits, up to `waitMs`, until no session
 * but its own holds an id or a snapshot from before it began; those that do not end are answered,
 * since what they hold back stays in the files until a compaction after them.
 */
async function olderTransactionsEnded(db: Db, waitMs: number): Promise<OpenTransactions | null> {
  // The first transaction id not yet given out: every one below it began before the compaction.
  const [{ next }] = (await queryRows<{ next: string }>(
    db,
    sql`select pg_snapshot_xmax(pg_current_snapshot())::text as next`,
  )) as [{ next: string }];
  const deadline = performance.now() + waitMs;
  for (;;) {
    // pg_stat_activity gives 32-bit ids: each is widened against the id given out next, which it
    // trails by less than 2^31 (PostgreSQL stops giving ids out before that).
    const [open] = await queryRows<{ count: number; oldest: string }>(
      db,
      sql`with next_id as (select pg_snapshot_xmax(pg_current_snapshot())::text::numeric as id)
          select count(distinct a.pid)::int as count, coalesce(min(a.xact_start), now())::text as oldest
          from pg_stat_activity a, next_id, lateral (values (a.backend_xid), (a.backend_xmin)) held (xid)
          where a.pid <> pg_backend_pid() and held.xid is not null
            and next_id.id - mod(mod(next_id.id, 4294967296) - held.xid::text::numeric + 4294967296, 4294967296) < ${next}::numeric`,
    );
    if (!open || open.count === 0) return null;
    if (performance.now() >= deadline)
      return { count: open.count, oldest_started_at: new Date(open.oldest).toISOString() };
    await pause(100);
  }
}

/**
 * ANALYZE replaces a table's statistics only when it samples a row: an emptied table (an account's
 * deletion empties some) would keep the values sampled before. Its expression indexes' statistics
 * are kept under the indexes. Only a superuser may delete them.
 */
async function clearStatistics(db: Db, tables: Relation[]) {
  const oids = sql.param(tables.map((relation) => relation.oid));
  await db.execute(
    sql`delete from pg_catalog.pg_statistic
         where starelid in (select unnest(${oids}::oid[]) union all select indexrelid from pg_index where indrelid = any(${oids}::oid[]))`,
  );
}

const statisticsFilenode = async (db: Db) =>
  (await queryRows<{ filenode: string }>(db, sql`select pg_relation_filenode('pg_statistic')::text as filenode`))[0]!
    .filenode;

/**
 * Rewrites every table of the schema and the planner's statistics, then moves the write-ahead log
 * past what they held. Holds each table's writes while it is rewritten (the whole database's on
 * the embedded engine, whose one connection it takes): an operator's step, not a request's.
 */
export async function compactStorage(
  db: Db,
  { waitMs = COMPACTION_WAIT_MS }: { waitMs?: number } = {},
): Promise<StorageCompaction> {
  const [{ superuser }] = (await queryRows<{ superuser: boolean }>(
    db,
    sql`select current_setting('is_superuser') = 'on' as superuser`,
  )) as [{ superuser: boolean }];
  const listed = await relations(db);
  let openTransactions: OpenTransactions | null;
  if (superuser) {
    // Cleared before each wait, so that every row it deletes is older than every transaction the
    // rewrite of pg_statistic can meet (one begun after a deletion and still open then would keep
    // the deleted rows in the new file); cleared again after the first wait, since an ANALYZE
    // from before it (autovacuum's) may have written what it sampled meanwhile.
    await clearStatistics(db, listed);
    const first = await olderTransactionsEnded(db, waitMs);
    await clearStatistics(db, listed);
    openTransactions = first ?? (await olderTransactionsEnded(db, waitMs));
  } else {
    openTransactions = await olderTransactionsEnded(db, waitMs);
  }
  const tables: TableCompaction[] = [];
  const statisticsKept: string[] = [];
  for (const before of listed) {
    await db.execute(sql.raw(`vacuum (full, analyze) public.${before.quoted}`));
    const [after] = await relations(db, [before.name]);
    const rewritten = after !== undefined && after.filenode !== before.filenode;
    tables.push({
      table: before.name,
      bytes_before: Number(before.bytes),
      bytes_after: Number(after?.bytes ?? 0),
      rewritten,
    });
    if (!superuser && rewritten && (await keepsStatisticsEmpty(db, before))) statisticsKept.push(before.name);
  }
  const statistics = await statisticsFilenode(db);
  await db.execute(sql.raw('vacuum full pg_catalog.pg_statistic'));
  const statisticsRewritten = (await statisticsFilenode(db)) !== statistics;
  return {
    open_transactions: openTransactions,
    tables,
    statistics_rewritten: statisticsRewritten,
    statistics_kept: statisticsKept,
    write_ahead_log: await moveWriteAheadLog(db),
  };
}

const keepsStatisticsEmpty = async (db: Db, table: Relation) =>
  (
    await queryRows<{ kept: boolean }>(
      db,
      sql`select not exists (select from ${sql.raw(`public.${table.quoted}`)})
             and exists (select from pg_stats where schemaname = 'public'
                            and tablename in (select ${table.name} union all select indexrelid::regclass::text
                                                from pg_index where indrelid = ${table.oid}::oid)) as kept`,
    )
  )[0]!.kept;

async function moveWriteAheadLog(db: Db): Promise<WriteAheadLogCompaction> {
  try {
    // The first checkpoint makes the rewritten files durable, so the log before it is not needed
    // for recovery; the switch closes the segment in use; the second checkpoint removes the
    // segments before its own start.
    await db.execute(sql.raw('checkpoint'));
    await db.execute(sql.raw('select pg_switch_wal()'));
    await db.execute(sql.raw('checkpoint'));
  } catch (error) {
    const refusal = permissionDenied(error);
    if (refusal === undefined) throw error;
    return {
      segments: 'not_reached',
      detail: `the database role may not checkpoint or switch the write-ahead log (${refusal}); a superuser runs CHECKPOINT, SELECT pg_switch_wal() and CHECKPOINT`,
    };
  }
  const [settings] = await queryRows<{ recycle: string; archive: string }>(
    db,
    sql`select current_setting('wal_recycle') as recycle, current_setting('archive_mode') as archive`,
  );
  const archived = settings!.archive !== 'off' ? '; archive_mode is on: the archived segments keep it' : '';
  return settings!.recycle === 'on'
    ? {
        segments: 'recycled',
        detail: `wal_recycle is on: the old segments were renamed for reuse and keep their bytes until overwritten; set wal_recycle = off to have them removed${archived}`,
      }
    : { segments: 'removed', detail: `the segments written before the rewrite were removed${archived}` };
}
