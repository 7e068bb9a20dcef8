// What bench/bloat.ts reads from PostgreSQL (issue 52): each table's size and write counters, the
// server's autovacuum settings, and autovacuum's own rule for when a table is due.
import pg from 'pg';
import { withClient } from './year-setup.js';

export interface TableStats {
  table: string;
  totalBytes: number;
  heapBytes: number;
  live: number;
  dead: number;
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
  /** Plain VACUUMs of any origin (autovacuum's and the emulation's); VACUUM FULL is not counted. */
  vacuums: number;
}

export interface Snapshot {
  databaseBytes: number;
  tables: Map<string, TableStats>;
}

export async function readSnapshot(url: string): Promise<Snapshot> {
  return withClient(url, async (client) => {
    const [database] = (
      await client.query<{ bytes: string }>('select pg_database_size(current_database())::text as bytes')
    ).rows;
    const rows = (
      await client.query<Record<keyof TableStats, string>>(
        `select relname as "table", pg_total_relation_size(relid)::text as "totalBytes",
                pg_relation_size(relid)::text as "heapBytes", n_live_tup::text as live, n_dead_tup::text as dead,
                n_tup_ins::text as inserted, n_tup_upd::text as updated, n_tup_hot_upd::text as "hotUpdated",
                n_tup_del::text as deleted, (vacuum_count + autovacuum_count)::text as vacuums
           from pg_stat_user_tables where schemaname = 'public'`,
      )
    ).rows;
    const tables = new Map<string, TableStats>();
    for (const row of rows) {
      const numbers = Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key, key === 'table' ? value : Number(value)]),
      );
      tables.set(row.table, numbers as unknown as TableStats);
    }
    return { databaseBytes: Number(database!.bytes), tables };
  });
}

export const AUTOVACUUM_SETTINGS = [
  'autovacuum',
  'autovacuum_naptime',
  'autovacuum_max_workers',
  'autovacuum_vacuum_threshold',
  'autovacuum_vacuum_scale_factor',
  'autovacuum_vacuum_insert_threshold',
  'autovacuum_vacuum_insert_scale_factor',
  'autovacuum_analyze_threshold',
  'autovacuum_analyze_scale_factor',
  'autovacuum_vacuum_cost_limit',
  'autovacuum_vacuum_cost_delay',
  'vacuum_cost_limit',
  'shared_buffers',
];

export async function readSettings(client: pg.Client): Promise<Record<string, string>> {
  const rows = (
    await client.query<{ name: string; value: string }>(
      `select name, setting || coalesce(' ' || unit, '') as value from pg_settings where name = any($1)`,
      [AUTOVACUUM_SETTINGS],
    )
  ).rows;
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

/**
 * Autovacuum's rule (PostgreSQL 15, relation_needs_vacanalyze): a table is vacuumed once its dead
 * tuples pass threshold + scale factor × reltuples, or its inserts since the last vacuum pass the
 * insert pair; analysed once its changes since the last analyse pass the analyse pair. reltuples
 * is PostgreSQL's estimate from the last vacuum or analyse, 0 before either. The schema sets no
 * per-table autovacuum options, so the server's settings are the whole rule.
 */
const DUE = `
  with s as (select current_setting('autovacuum_vacuum_threshold')::float8 as vt,
                    current_setting('autovacuum_vacuum_scale_factor')::float8 as vs,
                    current_setting('autovacuum_vacuum_insert_threshold')::float8 as it,
                    current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as ist,
                    current_setting('autovacuum_analyze_threshold')::float8 as at,
                    current_setting('autovacuum_analyze_scale_factor')::float8 as ast)
  select t.relname as "table", t.n_dead_tup::int8::text as dead,
         round(s.vt + s.vs * greatest(c.reltuples, 0))::text as threshold,
         t.n_dead_tup > s.vt + s.vs * greatest(c.reltuples, 0) as "deadDue",
         s.it >= 0 and t.n_ins_since_vacuum > s.it + s.ist * greatest(c.reltuples, 0) as "insertDue",
         t.n_mod_since_analyze > s.at + s.ast * greatest(c.reltuples, 0) as "analyzeDue"
    from pg_stat_user_tables t join pg_class c on c.oid = t.relid, s
   where t.schemaname = 'public'`;

interface Due {
  table: string;
  dead: string;
  threshold: string;
  deadDue: boolean;
  insertDue: boolean;
  analyzeDue: boolean;
}

/** Tables whose dead tuples are above autovacuum's threshold: what it would still vacuum. */
export async function overThreshold(url: string): Promise<Due[]> {
  return withClient(url, async (client) => (await client.query<Due>(DUE)).rows.filter((row) => row.deadDue));
}

export interface Autovacuum {
  /** True when the server's autovacuum is off and this process applies its rule instead. */
  emulated: boolean;
  naptimeSeconds: number;
  stop(): Promise<void>;
}

/**
 * Autovacuum as a live install has it. A server with it on needs nothing. A server with it off (a
 * CI configuration: autovacuum cannot be enabled per database or per table, only server-wide) gets
 * its rule applied from here: every naptime, each table of the database that the rule finds due is
 * vacuumed (or analysed) with autovacuum's cost-based pause, one table at a time.
 */
export async function keepAutovacuum(url: string, log: (line: string) => void): Promise<Autovacuum> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const settings = (
    await client.query<{ on: boolean; naptime: number; delay: string; limit: string }>(
      `select current_setting('autovacuum') = 'on' as on,
              (select setting::int from pg_settings where name = 'autovacuum_naptime') as naptime,
              (select setting from pg_settings where name = 'autovacuum_vacuum_cost_delay') as delay,
              (select case when setting::int < 0 then current_setting('vacuum_cost_limit') else setting end
                 from pg_settings where name = 'autovacuum_vacuum_cost_limit') as limit`,
    )
  ).rows[0]!;
  if (settings.on) {
    await client.end();
    return { emulated: false, naptimeSeconds: settings.naptime, stop: async () => {} };
  }
  await client.query(`set vacuum_cost_delay = '${Number(settings.delay)}ms'`);
  await client.query(`set vacuum_cost_limit = ${Number(settings.limit)}`);
  let stopped = false;
  let running: Promise<void> | undefined;
  const round = async () => {
    for (const due of (await client.query<Due>(DUE)).rows) {
      if (stopped) return;
      const vacuum = due.deadDue || due.insertDue;
      if (!vacuum && !due.analyzeDue) continue;
      const started = performance.now();
      await client.query(`${vacuum ? `vacuum${due.analyzeDue ? ' (analyze)' : ''}` : 'analyze'} "${due.table}"`);
      log(
        `  autovacuum (emulated): ${vacuum ? 'vacuum' : ''}${vacuum && due.analyzeDue ? ' + ' : ''}${due.analyzeDue ? 'analyze' : ''} ${due.table} (${due.dead} dead, threshold ${due.threshold}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  };
  const timer = setInterval(() => {
    running ??= round()
      .catch((error: unknown) => log(`autovacuum (emulated) round failed: ${String(error)}`))
      .finally(() => {
        running = undefined;
      });
  }, settings.naptime * 1000);
  let ended: Promise<void> | undefined;
  return {
    emulated: true,
    naptimeSeconds: settings.naptime,
    stop: () =>
      (ended ??= (async () => {
        stopped = true;
        clearInterval(timer);
        await running;
        await client.end();
      })()),
  };
}

const size = (bytes: number) =>
  Math.abs(bytes) >= 100 * 1024 ** 2
    ? `${(bytes / 1024 ** 2).toFixed(0)} MiB`
    : Math.abs(bytes) >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MiB`
      : `${(bytes / 1024).toFixed(0)} KiB`;
const count = (n: number) => n.toLocaleString('en-US');
// Math.round, not toFixed: a table a few bytes smaller compacted reads 0 %, not -0 %.
const percent = (ratio: number) => (Number.isFinite(ratio) ? `${Math.round(100 * ratio) || 0} %` : '—');

/**
 * The month per table as a Markdown table: the tables written most (rows inserted, updated and
 * deleted), and any other whose bloat passed 1 MiB. Bloat is the month's free space left in the
 * table, its indexes and TOAST: after / compacted − 1, the heap's apart.
 */
export function describeMonth(before: Snapshot, after: Snapshot, compacted: Snapshot, top = 15): string[] {
  const rows = [...after.tables.values()].map((a) => {
    const b = before.tables.get(a.table)!;
    const c = compacted.tables.get(a.table)!;
    const delta = (key: 'inserted' | 'updated' | 'hotUpdated' | 'deleted' | 'vacuums') => a[key] - b[key];
    return {
      a,
      b,
      c,
      inserted: delta('inserted'),
      updated: delta('updated'),
      hot: delta('hotUpdated'),
      deleted: delta('deleted'),
      vacuums: delta('vacuums'),
      written: delta('inserted') + delta('updated') + delta('deleted'),
      bloatBytes: a.totalBytes - c.totalBytes,
    };
  });
  const byWrites = rows.filter((r) => r.written > 0).sort((x, y) => y.written - x.written);
  const shown = [...byWrites.slice(0, top), ...byWrites.slice(top).filter((r) => r.bloatBytes > 1024 ** 2)];
  const lines = [
    '| table | inserted | updated (HOT) | deleted | before | after | compacted | bloat (heap) | dead left | vacuums |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of shown) {
    lines.push(
      `| ${r.a.table} | ${count(r.inserted)} | ${count(r.updated)} (${percent(r.hot / r.updated)}) | ${count(r.deleted)} | ${size(r.b.totalBytes)} | ${size(r.a.totalBytes)} | ${size(r.c.totalBytes)} | ${percent(r.a.totalBytes / r.c.totalBytes - 1)} (${percent(r.a.heapBytes / r.c.heapBytes - 1)}) | ${count(r.a.dead)} | ${r.vacuums} |`,
    );
  }
  const rest = byWrites.filter((r) => !shown.includes(r));
  if (rest.length > 0)
    lines.push(
      '',
      `also written (inserted/updated/deleted): ${rest.map((r) => `${r.a.table} ${count(r.inserted)}/${count(r.updated)}/${count(r.deleted)}`).join(', ')}`,
    );
  return lines;
}

export function describeTotals(before: Snapshot, after: Snapshot, compacted: Snapshot, shipments: number): string[] {
  const per = (bytes: number) => `${count(Math.round(bytes / shipments))} bytes per month shipment`;
  return [
    `database before the month ${size(before.databaseBytes)}, after ${size(after.databaseBytes)}, compacted ${size(compacted.databaseBytes)}: bloat ${percent(after.databaseBytes / compacted.databaseBytes - 1)}`,
    `growth over the month ${size(after.databaseBytes - before.databaseBytes)} (${per(after.databaseBytes - before.databaseBytes)}); compacted ${size(compacted.databaseBytes - before.databaseBytes)} (${per(compacted.databaseBytes - before.databaseBytes)})`,
  ];
}
