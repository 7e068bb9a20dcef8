/**
 * Courier bookings per second through POST /custom/api/v1/forward-order-orchestration, on the
 * embedded database and on PostgreSQL, then label rendering time.
 *
 *   npm run bench:orders
 *
 * For each engine the server runs as users run it: `npm start` in its own process, default logging
 * to a file, an account made through the operator API. The embedded database gets a fresh temporary
 * DATA_DIR; PostgreSQL a fresh database `dakiya_bench_<random>` on BENCH_POSTGRES_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres, loopback only), dropped at the end. autocannon runs
 * in a child process (bench/lib/load.ts): 20 connections, a 3 s warm-up, then 10 s recorded
 * (BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_DURATION). Every request carries a unique order_id. Each
 * booking creates the order, its items and shipment, prices 11 courier services, draws an AWB
 * number from the database, writes its events and returns a signed label link. CPU per booking is
 * read from /proc for the server's process and the PostgreSQL backends.
 *
 * Labels are drawn on demand when label_url is fetched (see labels.service.ts), so they are timed
 * separately: BENCH_LABELS (default 200) fetches, one after another, of fresh bookings' label_url.
 *
 * Target (issue 4): ≥ 500 bookings/s on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openPglite, queryRows } from '../src/base/db/client.js';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { benchSetting, formatLoadResult, type LoadResult, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { benchOrder } from './lib/order-body.js';
import { createAccount, type ServerProcess, startServerProcess } from '../test/server-process.js';

const TARGET_POSTGRES_BOOKINGS_PER_SECOND = 500;
const ORCHESTRATE = '/custom/api/v1/forward-order-orchestration';
const ORDER_ID_TOKEN = '__ORDER_ID__';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (value: number) => `${value.toFixed(2).padStart(7)} ms`;

interface Engine {
  name: string;
  server: ServerProcess;
  apiKey: string;
  /** The PostgreSQL backends serving the server (none for the embedded database). */
  backends(): Promise<number[]>;
  /** Booked shipments and distinct AWBs in the database (for the embedded one, read after the server stops). */
  counts(): Promise<{ booked: number; distinctAwbs: number }>;
  stop(): Promise<void>;
}

interface EngineResult {
  engine: string;
  load: LoadResult;
  bookedRows: number;
  distinctAwbs: number;
  labels: { count: number; p50: number; p99: number; mean: number; bytes: number };
}

const COUNTS = 'select count(*) filter (where awb is not null)::int as booked, count(distinct awb)::int as "distinctAwbs" from shipments';

async function api(engine: Engine, path: string, body: unknown) {
  const response = await fetch(`${engine.server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${engine.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function startEmbedded(): Promise<Engine> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-orders-'));
  const server = await startServerProcess({ env: { DATA_DIR: dataDir, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '100000000' } });
  const { apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, 'Orders benchmark');
  let stopped = false;
  const stop = async () => {
    if (!stopped) await server.stop();
    stopped = true;
  };
  return {
    name: 'PGlite (data directory)',
    server,
    apiKey,
    backends: async () => [],
    async counts() {
      // The server holds the data directory while it runs: count once it has let go.
      await stop();
      const database: Database = await openPglite(dataDir);
      try {
        return (await queryRows<{ booked: number; distinctAwbs: number }>(database.db, sql.raw(COUNTS)))[0]!;
      } finally {
        await database.close();
      }
    },
    async stop() {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    },
  };
}

async function startPostgres(databaseUrl: string): Promise<Engine> {
  const server = await startServerProcess({ env: { DATABASE_URL: databaseUrl, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '100000000' } });
  const { apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, 'Orders benchmark');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const version = (await client.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]!.v.split(' ')[0];
  return {
    name: `PostgreSQL ${version}`,
    server,
    apiKey,
    backends: async () =>
      (await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid),
    counts: async () => (await client.query<{ booked: number; distinctAwbs: number }>(COUNTS)).rows[0]!,
    async stop() {
      await client.end();
      await server.stop();
      fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    },
  };
}

async function benchEngine(engine: Engine, settings: { connections: number; warmupSeconds: number; durationSeconds: number }, labelCount: number): Promise<EngineResult> {
  const warehouse = await api(engine, '/custom/api/v1/warehouse', {
    name: 'Koramangala Fulfilment',
    phone_number: '080 4123 4567',
    address_attributes: { street_address: '80 Feet Road', zip: '560001', city: 'Bengaluru', state: 'Karnataka', country: 'India' },
  });
  const warehouseId = warehouse.payload.warehouse_id as string;
  const book = (orderId: string) => api(engine, ORCHESTRATE, benchOrder(warehouseId, orderId));
  const slug = engine.name.split(' ')[0]!.toLowerCase();
  // Check the request is what we claim before timing it.
  const probe = await book(`probe-${slug}`);
  if (probe.payload.awb_generated !== 1) throw new Error(`probe booking did not book: ${JSON.stringify(probe)}`);

  const load = await runLoad(
    {
      title: engine.name,
      url: `${engine.server.url}${ORCHESTRATE}`,
      method: 'POST',
      headers: { authorization: `Bearer ${engine.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(benchOrder(warehouseId, ORDER_ID_TOKEN)),
      uniqueToken: ORDER_ID_TOKEN,
      ...settings,
    },
    { server: () => [engine.server.serverPid], database: engine.backends },
  );

  // Labels: fresh bookings, then each label_url fetched in turn (rendered on demand, read in full).
  const paths: string[] = [];
  for (let i = 0; i < labelCount; i++) {
    const url = new URL((await book(`label-${slug}-${i}`)).payload.label_url);
    paths.push(url.pathname + url.search);
  }
  // A few unrecorded fetches first, so fonts are parsed and the JIT is warm.
  for (const path of paths.slice(0, 5)) await (await fetch(`${engine.server.url}${path}`)).arrayBuffer();
  const times: number[] = [];
  let bytes = 0;
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(`${engine.server.url}${path}`);
    const body = await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200 || response.headers.get('content-type') !== 'application/pdf') {
      throw new Error(`label fetch answered ${response.status} ${response.headers.get('content-type')}`);
    }
    bytes += body.byteLength;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const counts = await engine.counts();
  return {
    engine: engine.name,
    load,
    bookedRows: counts.booked,
    distinctAwbs: counts.distinctAwbs,
    labels: {
      count: times.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      mean: times.reduce((a, b) => a + b, 0) / Math.max(1, times.length),
      bytes: labelCount ? Math.round(bytes / labelCount) : 0,
    },
  };
}

function report(result: EngineResult) {
  console.log(formatLoadResult({ ...result.load, title: result.engine }, 24));
  console.log(
    `${''.padEnd(24)} database: ${result.bookedRows.toLocaleString('en-US')} booked shipments, ${result.distinctAwbs.toLocaleString('en-US')} distinct AWBs` +
      (result.bookedRows === result.distinctAwbs ? '' : '   !! AWB numbers repeated'),
  );
  console.log(
    `${''.padEnd(24)} labels:   ${result.labels.count} fetched one after another   p50 ${ms(result.labels.p50)}   p99 ${ms(result.labels.p99)}` +
      `   mean ${ms(result.labels.mean)}   ${(result.labels.bytes / 1024).toFixed(1)} KiB each`,
  );
}

async function runEngine(start: () => Promise<Engine>, settings: Parameters<typeof benchEngine>[1], labelCount: number): Promise<EngineResult> {
  const engine = await start();
  console.log(`server:   ${engine.name}: npm start (serving pid ${engine.server.serverPid}) ${(engine.server.startupMs / 1000).toFixed(1)} s after spawn, default logging to a file`);
  try {
    const result = await benchEngine(engine, settings, labelCount);
    report(result);
    return result;
  } finally {
    await engine.stop();
  }
}

async function main() {
  const settings = {
    connections: benchSetting('BENCH_CONNECTIONS', 20),
    warmupSeconds: benchSetting('BENCH_WARMUP', 3),
    durationSeconds: benchSetting('BENCH_DURATION', 10),
  };
  const labelCount = benchSetting('BENCH_LABELS', 200);
  const adminUrl = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(adminUrl.hostname)) {
    throw new Error(`BENCH_POSTGRES_URL must point at this machine (127.0.0.1), not ${adminUrl.hostname}`);
  }
  const databaseName = `dakiya_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const dropDatabase = () => admin(`drop database if exists ${databaseName} with (force)`);

  // Whatever happens, the run ends (and tries to leave no database behind).
  const perEngineSeconds = settings.warmupSeconds + settings.durationSeconds + 120 + labelCount * 0.1;
  const deadline = setTimeout(
    () => {
      console.error('bench:orders: still running long after the planned time; giving up.');
      dropDatabase().finally(() => process.exit(2));
    },
    2 * 2 * perEngineSeconds * 1000,
  );
  deadline.unref();

  console.log(`machine:  ${describeMachine()}`);
  console.log(
    `load:     autocannon in a child process, ${settings.connections} connections, ${settings.durationSeconds} s after a ${settings.warmupSeconds} s warm-up, 127.0.0.1`,
  );
  console.log('request:  POST /custom/api/v1/forward-order-orchestration, COD, 2 items, unique order_id each; cheapest of 11 priced services booked');
  console.log(`before:   ${describeLoad()}`);
  console.log('');

  const results = [await runEngine(startEmbedded, settings, labelCount)];
  await admin(`create database ${databaseName}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    results.push(await runEngine(() => startPostgres(url.toString()), settings, labelCount));
  } finally {
    await dropDatabase();
  }

  console.log('');
  console.log(`after:    ${describeLoad()}`);
  const postgres = results[1]!;
  const met = postgres.load.requestsPerSecond >= TARGET_POSTGRES_BOOKINGS_PER_SECOND;
  console.log(
    `\ntarget:   ≥ ${TARGET_POSTGRES_BOOKINGS_PER_SECOND} bookings/s on PostgreSQL: ${met ? 'met' : 'MISSED'} (${Math.round(postgres.load.requestsPerSecond)})`,
  );
  const invalid = results.filter((r) => r.load.non2xx > 0 || r.load.errors > 0 || r.load.requests === 0 || r.bookedRows !== r.distinctAwbs);
  if (invalid.length > 0) {
    console.error(`invalid run: ${invalid.map((r) => r.engine).join(', ')} had errors, non-2xx answers or repeated AWBs`);
    process.exitCode = 1;
  }
}

await main();
process.exit();
