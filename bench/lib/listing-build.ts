// Building the listing benchmarks' data set (bench/listing-data.ts) in a database the way one
// restores a dump: bulk COPY, indexes rebuilt after, counters filled once.
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { ListingDataGenerator, TableRows } from '../listing-data.js';

const BULK_TABLES = ['orders', 'order_items', 'shipments', 'tracking_events', 'shipment_milestones'];
const COUNTER_TABLES = ['shipment_counts', 'shipment_facet_counts'];
const CHUNK = 25_000;

export const log = (message: string) =>
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// --- COPY FROM STDIN over `pg` (pg-copy-streams is not installed; this is its core, ~30 lines). ---

/** A pg "submittable": sends COPY ... FROM STDIN, streams the text, resolves on completion. */
class CopyIn {
  callback?: (error: Error | null) => void;
  private failed = false;
  constructor(
    private readonly text: string,
    private readonly data: string,
  ) {}
  submit(connection: { query(text: string): void }) {
    connection.query(this.text);
  }
  async handleCopyInResponse(connection: {
    sendCopyFromChunk(chunk: Buffer): void;
    endCopyFrom(): void;
    stream: NodeJS.WritableStream & { writableNeedDrain?: boolean };
  }) {
    const bytes = Buffer.from(this.data);
    for (let offset = 0; offset < bytes.length && !this.failed; offset += 1 << 20) {
      connection.sendCopyFromChunk(bytes.subarray(offset, offset + (1 << 20)));
      if (connection.stream.writableNeedDrain) await once(connection.stream, 'drain');
    }
    connection.endCopyFrom();
  }
  handleCommandComplete() {}
  handleReadyForQuery() {
    if (!this.failed) this.callback?.(null);
  }
  handleError(error: Error) {
    this.failed = true;
    this.callback?.(error);
  }
  // Not part of a COPY FROM exchange, but the client may call them on a misbehaving server.
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyData() {}
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const copySql = (rows: TableRows, source: string) =>
  `COPY ${quoteIdent(rows.table)} (${rows.columns.map(quoteIdent).join(', ')}) FROM ${source}`;

export interface Loader {
  engine: 'postgres' | 'pglite';
  exec(sql: string): Promise<void>;
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  copy(rows: TableRows): Promise<void>;
}

export function pgLoader(client: pg.Client): Loader {
  return {
    engine: 'postgres',
    exec: async (sql) => {
      await client.query(sql);
    },
    rows: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
    copy: (rows) =>
      rows.count === 0
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const copy = new CopyIn(copySql(rows, 'STDIN'), rows.text);
            copy.callback = (error) => (error ? reject(error) : resolve());
            client.query(copy as unknown as pg.QueryConfig);
          }),
  };
}

export function pgliteLoader(client: PGlite): Loader {
  return {
    engine: 'pglite',
    exec: async (sql) => {
      await client.exec(sql);
    },
    rows: async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows,
    // PGlite's COPY reads the rows from a Blob passed with the query, through its /dev/blob device.
    copy: async (rows) => {
      if (rows.count > 0) await client.query(copySql(rows, `'/dev/blob'`), [], { blob: new Blob([rows.text]) });
    },
  };
}

// --- Building the dataset ---

export interface BuildReport {
  shipments: number;
  events: number;
  milestones: number;
  items: number;
  loadMs: number;
  indexMs: number;
  countsMs: number;
  vacuumMs: number;
  bigAccountCounterRows: { combinations: number; facets: number };
  indexTimes: { name: string; ms: number }[];
  sizes: { name: string; size: string }[];
}

export async function build(loader: Loader, generator: ListingDataGenerator): Promise<BuildReport> {
  // Bulk load the way one restores a dump: secondary indexes dropped and rebuilt after (each
  // index built once, sorted, instead of maintained row by row), foreign-key triggers off for
  // the load (the generator writes consistent rows; checked below), no synchronous commit.
  await loader.exec('SET session_replication_role = replica');
  if (loader.engine === 'postgres') {
    await loader.exec(
      "SET synchronous_commit = off; SET maintenance_work_mem = '1GB'; SET max_parallel_maintenance_workers = 2",
    );
  } else {
    await loader.exec("SET maintenance_work_mem = '256MB'");
  }
  const indexes = await loader.rows<{ name: string; def: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
      where t.relname = any($1) and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by c.relname`,
    [BULK_TABLES],
  );
  for (const index of indexes) await loader.exec(`DROP INDEX ${quoteIdent(index.name)}`);

  const started = performance.now();
  for (const rows of generator.setupRows()) await loader.copy(rows);
  let pending: Promise<unknown> = Promise.resolve();
  let lastLog = 0;
  while (!generator.done) {
    const chunk = generator.nextChunk(CHUNK);
    await pending;
    // Generate the next chunk while the server ingests this one (PostgreSQL: another process).
    pending = (async () => {
      for (const rows of chunk) await loader.copy(rows);
    })();
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      log(
        `  generated ${generator.generated.toLocaleString('en-US')} shipments (${seconds(performance.now() - started)})`,
      );
    }
  }
  await pending;
  await loader.copy(generator.awbCounters());
  const loadMs = performance.now() - started;
  log(`  rows loaded in ${seconds(loadMs)}; building ${indexes.length} indexes`);

  const indexStarted = performance.now();
  const indexTimes: { name: string; ms: number }[] = [];
  for (const index of indexes) {
    const t = performance.now();
    await loader.exec(index.def);
    indexTimes.push({ name: index.name, ms: performance.now() - t });
  }
  const indexMs = performance.now() - indexStarted;
  await loader.exec('SET session_replication_role = DEFAULT');

  // The foreign keys were not checked during the load: check them once, in bulk.
  const [orphans] = await loader.rows<{ n: string | number }>(
    `select (select count(*) from shipments s left join orders o on o.id = s.order_id where o.id is null)
          + (select count(*) from tracking_events e left join shipments s on s.id = e.shipment_id where s.id is null)
          + (select count(*) from shipment_milestones m left join shipments s on s.id = m.shipment_id where s.id is null)
          + (select count(*) from order_items i left join orders o on o.id = i.order_id where o.id is null)
          + (select count(*) from shipments s left join warehouses w on w.id = s.warehouse_id where w.id is null) as n`,
  );
  if (Number(orphans!.n) !== 0) throw new Error(`generated data breaks ${orphans!.n} foreign keys`);

  // The triggers that keep the listing's counters were off for the load: count once, in bulk.
  const countsStarted = performance.now();
  await loader.exec('SELECT dakiya_rebuild_shipment_counts()');
  const countsMs = performance.now() - countsStarted;

  const vacuumStarted = performance.now();
  for (const table of ['accounts', 'warehouses', 'stores', ...BULK_TABLES, ...COUNTER_TABLES, 'awb_counters']) {
    await loader.exec(`VACUUM (ANALYZE) ${table}`);
  }
  const vacuumMs = performance.now() - vacuumStarted;

  const sizes = await loader.rows<{ name: string; size: string }>(
    `select c.relname as name, pg_size_pretty(pg_relation_size(c.oid)) as size
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'i')
        and (c.relname = any($1) or c.relname like 'shipment%')
      order by pg_relation_size(c.oid) desc`,
    [BULK_TABLES],
  );
  const { events, milestones, items } = generator.facts;
  const [counters] = await loader.rows<{ combinations: string | number; facets: string | number }>(
    `select (select count(*) from shipment_counts where account_id = $1) as combinations,
            (select count(*) from shipment_facet_counts where account_id = $1) as facets`,
    [generator.facts.bigAccountId],
  );
  return {
    shipments: generator.scale.shipments,
    events,
    milestones,
    items,
    loadMs,
    indexMs,
    countsMs,
    vacuumMs,
    indexTimes,
    sizes,
    bigAccountCounterRows: { combinations: Number(counters!.combinations), facets: Number(counters!.facets) },
  };
}
