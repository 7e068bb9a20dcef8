import { sql } from 'drizzle-orm';
import { type Db, queryRows } from './client.js';

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

export interface StorageCompaction {
  tables: TableCompaction[];
  /** Whether the planner's statistics (pg_statistic) were rewritten after the tables were analysed afresh. */
  statistics_rewritten: boolean;
  write_ahead_log: WriteAheadLogCompaction;
}

interface Relation {
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
    sql`select c.relname as name, quote_ident(c.relname) as quoted, pg_relation_filenode(c.oid)::text as filenode,
               pg_total_relation_size(c.oid)::text as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'm')
          ${names ? sql`and c.relname = any(${`{${names.join(',')}}`}::text[])` : sql``}
        order by c.relname`,
  );

const statisticsFilenode = async (db: Db) =>
  (await queryRows<{ filenode: string }>(db, sql`select pg_relation_filenode('pg_statistic')::text as filenode`))[0]!
    .filenode;

/**
 * Rewrites every table of the schema and the planner's statistics, then moves the write-ahead log
 * past what they held. Holds each table's writes while it is rewritten (the whole database's on
 * the embedded engine, whose one connection it takes): an operator's step, not a request's.
 */
export async function compactStorage(db: Db): Promise<StorageCompaction> {
  const tables: TableCompaction[] = [];
  for (const before of await relations(db)) {
    await db.execute(sql.raw(`vacuum (full, analyze) public.${before.quoted}`));
    const [after] = await relations(db, [before.name]);
    tables.push({
      table: before.name,
      bytes_before: Number(before.bytes),
      bytes_after: Number(after?.bytes ?? 0),
      rewritten: after !== undefined && after.filenode !== before.filenode,
    });
  }
  const statistics = await statisticsFilenode(db);
  await db.execute(sql.raw('vacuum full pg_catalog.pg_statistic'));
  const statisticsRewritten = (await statisticsFilenode(db)) !== statistics;
  return { tables, statistics_rewritten: statisticsRewritten, write_ahead_log: await moveWriteAheadLog(db) };
}

async function moveWriteAheadLog(db: Db): Promise<WriteAheadLogCompaction> {
  try {
    // The first checkpoint makes the rewritten files durable, so the log before it is not needed
    // for recovery; the switch closes the segment in use; the second checkpoint removes the
    // segments before its own start.
    await db.execute(sql.raw('checkpoint'));
    await db.execute(sql.raw('select pg_switch_wal()'));
    await db.execute(sql.raw('checkpoint'));
  } catch (error) {
    if ((error as { code?: unknown }).code !== '42501') throw error;
    return {
      segments: 'not_reached',
      detail: `the database role may not checkpoint or switch the write-ahead log (${(error as Error).message}); a superuser runs CHECKPOINT, SELECT pg_switch_wal() and CHECKPOINT`,
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
