/**
 * Courier bookings per second through POST /custom/api/v1/forward-order-orchestration on PostgreSQL,
 * against a bare baseline in the same run; then the embedded database's figure and label rendering.
 *
 *   npm run bench:orders
 *
 * The server runs as users run it: `npm start` in its own process, default logging to a file, an
 * account made through the operator API, the workers (webhook fan-out, e-mails, the sandbox
 * courier's tracking poller) running in it as by default. The baseline (bench/lib/booking-baseline.ts)
 * is a bare `node:http` + `pg` server storing each request as one row with one INSERT, committed on
 * its own: the floor a booking cannot go under on this machine (one round trip, one WAL flush).
 * Both use a fresh database `dakiya_bench_<random>` on BENCH_POSTGRES_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres, loopback only), dropped at the end.
 *
 * BENCH_ROUNDS (3) rounds, each the baseline then the server: autocannon in a child process
 * (bench/lib/load.ts), BENCH_CONNECTIONS (20) connections, a BENCH_WARMUP (3) s warm-up, then
 * BENCH_DURATION (10) s recorded. Every request carries a unique order_id. Each booking creates the
 * order, its items and shipment, prices 11 courier services, draws an AWB number, books the parcel
 * with the sandbox courier, writes its events and returns a signed label link. Printed per round:
 * bookings/s, latency, CPU per booking of the server's process and of its PostgreSQL backends (read
 * from /proc: unlike bookings/s they hardly move when other processes compete for the cores), and
 * what the busy backends waited on (pg_stat_activity sampled every 50 ms), and what the round left
 * for later: the wait until the delivery thread has turned every event into its e-mails and webhook
 * rows, and that work's CPU per booking; then the median and spread of the rounds, and whether the
 * target is met.
 *
 * Then the embedded database (a fresh DATA_DIR), one round: it runs one statement at a time in the
 * API process. Labels are drawn on demand when label_url is fetched, so they are timed apart:
 * BENCH_LABELS (default 100) fetches, one after another, of fresh bookings' label_url.
 *
 * Target (issue 27): ≥ 600 bookings/s on PostgreSQL, 20 clients.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openPglite, queryRows } from '../src/base/db/client.js';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { type BaselineProcess, startBaselineProcess } from './lib/baseline-process.js';
import {
  backendPids,
  bookingServerEnv,
  drainBacklog,
  ORCHESTRATE,
  ORDER_ID_TOKEN,
  prepareBookingServer,
  SANDBOX_QUIET,
} from './lib/booking-server.js';
import { benchSetting, formatLoadResult, type LoadResult, loadSettings, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { benchOrder } from './lib/order-body.js';
import { median, medianAndSpread, percentile } from './lib/stats.js';
import { type ServerProcess, startServerProcess } from '../test/server-process.js';

const TARGET_BOOKINGS_PER_SECOND = 600;
const COUNTS =
  'select count(*) filter (where awb is not null)::int as booked, count(distinct awb)::int as "distinct" from shipments';

// Twenty clients booking at once, as the booking benchmarks have always run.
const { rounds, ...settings } = loadSettings(3, 20);
const labelCount = benchSetting('BENCH_LABELS', 100);
const loadOf = (title: string, url: string, apiKey: string, warehouseId: string) => ({
  title,
  url,
  method: 'POST' as const,
  headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
  body: JSON.stringify(benchOrder(warehouseId, ORDER_ID_TOKEN)),
  uniqueToken: ORDER_ID_TOKEN,
  ...settings,
});

const startBaseline = (databaseUrl: string): Promise<BaselineProcess> =>
  startBaselineProcess('booking-baseline.ts', { DATABASE_URL: databaseUrl });

/** What the database's active backends wait on, sampled every 50 ms until stopped: share of samples per wait. */
function sampleWaits(client: pg.Client) {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ wait: string }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`,
      );
      for (const { wait } of rows) counts.set(wait, (counts.get(wait) ?? 0) + 1);
      samples++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    running = false;
    await loop;
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const top = [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([wait, n]) => `${wait} ${((n / Math.max(total, 1)) * 100).toFixed(0)} %`);
    return `${top.join(', ')} (${(total / Math.max(samples, 1)).toFixed(1)} busy backends on average)`;
  };
}

async function timeLabels(
  server: ServerProcess,
  book: (orderId: string) => Promise<{ payload: { label_url?: string } }>,
) {
  const paths: string[] = [];
  for (let i = 0; i < labelCount; i++) {
    const url = new URL((await book(`label-${i}-${randomBytes(3).toString('hex')}`)).payload.label_url!);
    paths.push(url.pathname + url.search);
  }
  // A few unrecorded fetches first, so fonts are parsed and the JIT is warm.
  for (const p of paths.slice(0, 5)) await (await fetch(`${server.url}${p}`)).arrayBuffer();
  const times: number[] = [];
  for (const p of paths) {
    const started = performance.now();
    const response = await fetch(`${server.url}${p}`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`label fetch answered ${response.status}`);
  }
  const sorted = times.sort((a, b) => a - b);
  return `labels:   ${times.length} fetched one after another   p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms`;
}

async function postgresRounds(databaseUrl: string): Promise<LoadResult[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const baseline = await startBaseline(databaseUrl);
  const server = await startServerProcess({
    warm: true,
    env: bookingServerEnv(databaseUrl),
  });
  try {
    const version = (
      await client.query<{ v: string }>("select current_setting('server_version') as v")
    ).rows[0]!.v.split(' ')[0];
    console.log(
      `server:   npm start (serving pid ${server.serverPid}) on PostgreSQL ${version}, ${(server.startupMs / 1000).toFixed(1)} s after spawn`,
    );
    const { apiKey, warehouseId, book } = await prepareBookingServer(server, 'Orders benchmark');
    const backends = backendPids(client);
    const results: { baseline: LoadResult; server: LoadResult; withBacklog: number }[] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`round ${round}: ${describeLoad()}`);
      const bare = await runLoad(loadOf(`  baseline (node:http + pg)`, baseline.url, 'none', warehouseId), {
        server: () => [baseline.pid],
        database: backends,
      });
      console.log(formatLoadResult(bare, 30));
      const waits = sampleWaits(client);
      const ours = await runLoad(loadOf('  Dakiya (npm start)', `${server.url}${ORCHESTRATE}`, apiKey, warehouseId), {
        server: () => [server.serverPid],
        database: backends,
      });
      console.log(formatLoadResult(ours, 30));
      console.log(`${''.padEnd(31)}PostgreSQL waits: ${await waits()}`);
      const backlog = await drainBacklog(client, async () => [server.serverPid, ...(await backends())]);
      const withBacklog =
        ours.serverCpuMicrosPerRequest + (ours.databaseCpuMicrosPerRequest ?? 0) + backlog.cpuMicros / ours.requests;
      console.log(
        `${''.padEnd(31)}left for later: drained ${backlog.seconds.toFixed(1)} s after the round, ${Math.round(backlog.cpuMicros / ours.requests)} µs of CPU per booking; ` +
          `API and PostgreSQL with it ${Math.round(withBacklog)} µs per booking`,
      );
      results.push({ baseline: bare, server: ours, withBacklog });
    }
    const counts = (await client.query<{ booked: number; distinct: number }>(COUNTS)).rows[0]!;
    if (counts.booked !== counts.distinct)
      throw new Error(`AWB numbers repeated: ${counts.booked} bookings, ${counts.distinct} distinct AWBs`);
    console.log(`database: ${counts.booked.toLocaleString('en-US')} booked shipments, as many distinct AWBs`);
    if (labelCount > 0) console.log(await timeLabels(server, book));

    const rate = (r: LoadResult) => r.requestsPerSecond;
    const ours = results.map((r) => r.server);
    console.log(`\nPostgreSQL, ${rounds} rounds, median (min–max):`);
    console.log(`  baseline  ${medianAndSpread(results.map((r) => rate(r.baseline)))} bookings/s`);
    console.log(
      `  Dakiya    ${medianAndSpread(ours.map(rate))} bookings/s, ${medianAndSpread(
        results.map((r) => rate(r.server) / rate(r.baseline)),
        2,
      )} × the baseline; ` +
        `CPU per booking: API ${medianAndSpread(ours.map((r) => r.serverCpuMicrosPerRequest))} µs, PostgreSQL ${medianAndSpread(ours.map((r) => r.databaseCpuMicrosPerRequest ?? 0))} µs; ` +
        `p99 ${medianAndSpread(ours.map((r) => r.latencyP99Ms))} ms`,
    );
    console.log(
      `  with what each round left for later: ${medianAndSpread(results.map((r) => r.withBacklog))} µs of CPU per booking (API and PostgreSQL)`,
    );
    return ours;
  } finally {
    await server.stop();
    await baseline.stop();
    await client.end();
    fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
  }
}

async function embeddedRound(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-orders-'));
  const server = await startServerProcess({
    warm: true,
    env: {
      DATA_DIR: dataDir,
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '100000000',
      SANDBOX_STEP_SECONDS: SANDBOX_QUIET,
    },
  });
  try {
    const { apiKey, warehouseId } = await prepareBookingServer(server, 'Orders benchmark');
    const result = await runLoad(
      loadOf('PGlite (npm start, data directory)', `${server.url}${ORCHESTRATE}`, apiKey, warehouseId),
      { server: () => [server.serverPid] },
    );
    console.log(formatLoadResult(result, 36));
    // The server holds the data directory while it runs: count once it has let go.
    await server.stop();
    const database = await openPglite(dataDir);
    try {
      const [counts] = await queryRows<{ booked: number; distinct: number }>(database.db, sql.raw(COUNTS));
      console.log(`${''.padEnd(37)}database: ${counts!.booked} booked shipments, ${counts!.distinct} distinct AWBs`);
      if (counts!.booked !== counts!.distinct) process.exitCode = 1;
    } finally {
      await database.close();
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
  }
}

async function main() {
  const adminUrl = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(adminUrl.hostname)) {
    throw new Error(`BENCH_POSTGRES_URL must point at this machine (127.0.0.1), not ${adminUrl.hostname}`);
  }
  const databaseName = `dakiya_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  const dropDatabase = () => admin.query(`drop database if exists ${databaseName} with (force)`);
  // Whatever happens, the run ends (and tries to leave no database behind).
  const deadline = setTimeout(
    () => {
      console.error('bench:orders: still running long after the planned time; giving up.');
      dropDatabase().finally(() => process.exit(2));
    },
    (rounds * 2 + 1) * (settings.warmupSeconds + settings.durationSeconds + 60) * 1000 + 300_000,
  );
  deadline.unref();

  console.log(`machine:  ${describeMachine()}`);
  console.log(
    `load:     autocannon in a child process, ${settings.connections} connections, ${settings.durationSeconds} s after a ${settings.warmupSeconds} s warm-up, 127.0.0.1`,
  );
  console.log(
    'request:  POST /custom/api/v1/forward-order-orchestration, COD, 2 items, unique order_id each; cheapest of 11 priced services booked',
  );
  console.log(`before:   ${describeLoad()}\n`);

  await admin.query(`create database ${databaseName}`);
  let ours: LoadResult[];
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    ours = await postgresRounds(url.toString());
  } finally {
    await dropDatabase();
    await admin.end();
  }
  console.log('');
  await embeddedRound();
  console.log(`\nafter:    ${describeLoad()}`);
  const rate = median(ours.map((r) => r.requestsPerSecond));
  console.log(
    `target:   ≥ ${TARGET_BOOKINGS_PER_SECOND} bookings/s on PostgreSQL (median of ${rounds}): ${rate >= TARGET_BOOKINGS_PER_SECOND ? 'met' : 'MISSED'} (${Math.round(rate)})`,
  );
  if (ours.some((r) => r.non2xx > 0 || r.errors > 0 || r.requests === 0)) {
    console.error('invalid run: errors or non-2xx answers');
    process.exitCode = 1;
  }
}

await main();
process.exit();
