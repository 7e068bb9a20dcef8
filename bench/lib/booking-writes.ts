import type pg from 'pg';

// What a booking writes, read from PostgreSQL's own counters: rows inserted, updated and deleted per
// table (pg_stat_user_tables, which counts the rows triggers write too) and transactions committed
// (pg_stat_database), between two snapshots taken once the backends have reported them.

export interface TableWrites {
  table: string;
  inserted: number;
  updated: number;
  /** Of `updated`, the updates that changed no indexed column and stayed on their page (HOT). */
  hotUpdated: number;
  deleted: number;
}

export interface WriteSnapshot {
  tables: Map<string, TableWrites>;
  /** Committed and rolled-back transactions of this database so far. */
  transactions: number;
  /** Statements `client` sent for this snapshot: each is a transaction of its own, to be left out. */
  ownStatements: number;
}

/**
 * A backend reports its counters at a transaction's end at most once a second, and an idle one
 * within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): a snapshot this long after the last write
 * holds them all.
 */
export const STATS_SETTLE_MS = 11_000;

export async function writeSnapshot(client: pg.Client, schema: string): Promise<WriteSnapshot> {
  // A transaction's first read of the statistics is cached until it ends; each query here is its own.
  const tables = await client.query<{ table: string; ins: string; upd: string; hot: string; del: string }>(
    `select relname as table, n_tup_ins as ins, n_tup_upd as upd, n_tup_hot_upd as hot, n_tup_del as del
       from pg_stat_user_tables where schemaname = $1`,
    [schema],
  );
  const database = await client.query<{ transactions: string }>(
    'select xact_commit + xact_rollback as transactions from pg_stat_database where datname = current_database()',
  );
  return {
    tables: new Map(
      tables.rows.map((r) => [
        r.table,
        { table: r.table, inserted: +r.ins, updated: +r.upd, hotUpdated: +r.hot, deleted: +r.del },
      ]),
    ),
    transactions: Number(database.rows[0]!.transactions),
    ownStatements: 2,
  };
}

export interface WritesPerBooking {
  /** Tables a booking writes to, most rows first, each count per booking. */
  tables: TableWrites[];
  rows: number;
  updates: number;
  deletes: number;
  /** Transactions committed per booking: the booking and every one its work set off, reads included. */
  transactions: number;
}

/**
 * The writes between two snapshots per booking; `otherStatements` are statements sent meanwhile
 * by the benchmark itself (not the server), `idleTransactions` those the server's workers make
 * when nothing happens over the same span (their idle rounds), both left out.
 */
export function writesPerBooking(
  before: WriteSnapshot,
  after: WriteSnapshot,
  bookings: number,
  otherStatements: number,
  idleTransactions = 0,
): WritesPerBooking {
  const tables: TableWrites[] = [];
  for (const [name, now] of after.tables) {
    const then = before.tables.get(name) ?? { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0 };
    const per = (key: keyof Omit<TableWrites, 'table'>) => (now[key] - then[key]) / bookings;
    const row = {
      table: name,
      inserted: per('inserted'),
      updated: per('updated'),
      hotUpdated: per('hotUpdated'),
      deleted: per('deleted'),
    };
    // Less than a row in two hundred bookings is a worker's or the setup's, not the booking's.
    if (row.inserted + row.updated + row.deleted >= 0.005) tables.push(row);
  }
  tables.sort((a, b) => b.inserted + b.updated - (a.inserted + a.updated) || a.table.localeCompare(b.table));
  const sum = (key: keyof Omit<TableWrites, 'table'>) => tables.reduce((total, t) => total + t[key], 0);
  const own = after.ownStatements + otherStatements;
  return {
    tables,
    rows: sum('inserted'),
    updates: sum('updated'),
    deletes: sum('deleted'),
    transactions: (after.transactions - before.transactions - own - idleTransactions) / bookings,
  };
}

const fixed = (value: number) => (value === 0 ? '·' : value.toFixed(2));

/** The per-booking table, one line per table written, with a total line. */
export function formatWrites(label: string, writes: WritesPerBooking): string[] {
  const lines = [
    `${label}: ${writes.rows.toFixed(1)} rows inserted in ${writes.tables.filter((t) => t.inserted > 0).length} tables, ` +
      `${writes.updates.toFixed(1)} updates, ${writes.deletes.toFixed(1)} deletes, ${writes.transactions.toFixed(1)} transactions per booking`,
    `  ${'table'.padEnd(30)} ${'inserted'.padStart(9)} ${'updated'.padStart(9)} ${'(HOT)'.padStart(7)} ${'deleted'.padStart(9)}`,
  ];
  for (const t of writes.tables) {
    lines.push(
      `  ${t.table.padEnd(30)} ${fixed(t.inserted).padStart(9)} ${fixed(t.updated).padStart(9)} ${fixed(t.hotUpdated).padStart(7)} ${fixed(t.deleted).padStart(9)}`,
    );
  }
  return lines;
}
