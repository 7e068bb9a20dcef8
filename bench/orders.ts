/**
 * Courier bookings per second through POST /custom/api/v1/forward-order-orchestration, on the
 * embedded database (in-memory PGlite) and on PostgreSQL, then label rendering time.
 *
 *   npm run bench:orders
 *
 * For each engine the real app (bench/lib/app.ts: logger off, an account made through the operator
 * API) listens on 127.0.0.1 on a random port. PostgreSQL gets a fresh database
 * `dakiya_bench_<random>` on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres,
 * loopback only), migrated first and dropped at the end. autocannon runs in a child process (this
 * file again, with --load-child) so the load generator does not share the server's event loop: 20
 * connections, a 3 s warm-up, then 10 s recorded (BENCH_CONNECTIONS, BENCH_WARMUP, BENCH_DURATION).
 * Every request carries a unique order_id. Each booking creates the order, its items and shipment,
 * prices 11 courier services, draws an AWB number from the database and returns a signed label link.
 *
 * Labels are drawn on demand when label_url is fetched (see labels.service.ts), so they are timed
 * separately: BENCH_LABELS (default 200) fetches, one after another, of fresh bookings' label_url.
 *
 * Target (issue 4): ≥ 500 bookings/s on PostgreSQL.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows } from '../src/db/client.js';
import { type RunningApp, startApp } from './lib/app.js';
import { benchOrder } from './lib/order-body.js';
import { describeLoad, describeMachine } from './lib/machine.js';

const LOAD_CHILD = '--load-child';
const TARGET_POSTGRES_BOOKINGS_PER_SECOND = 500;
const ORCHESTRATE = '/custom/api/v1/forward-order-orchestration';

interface LoadRequest {
  url: string;
  apiKey: string;
  /** The order body as JSON with `__ORDER_ID__` where each request's unique order_id goes. */
  template: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

interface LoadSummary {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

// ------------------------------------------------------------------ load generator (child process)

async function loadChild(): Promise<void> {
  process.on('disconnect', () => process.exit(1));
  const options = await new Promise<LoadRequest>((resolve) => process.once('message', (m) => resolve(m as LoadRequest)));
  const prefix = `B${randomBytes(4).toString('hex')}`;
  let counter = 0;
  const run = (seconds: number) =>
    autocannon({
      url: options.url,
      connections: options.connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: ORCHESTRATE,
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: options.template.replace('__ORDER_ID__', `${prefix}-${++counter}`) }),
        },
      ],
    });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  await new Promise<void>((resolve) => process.send!({ type: 'recording' }, () => resolve()));
  const r = await run(options.durationSeconds);
  const summary: LoadSummary = {
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
  process.send!({ type: 'result', summary }, () => process.exit(0));
}

type ChildMessage = { type: 'recording' } | { type: 'result'; summary: LoadSummary };

/** CPU ticks (1/100 s) used so far by the given processes, read from /proc; null off Linux. */
function cpuTicks(pids: number[]): number | null {
  try {
    let ticks = 0;
    for (const pid of pids) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks;
  } catch {
    return null;
  }
}

/**
 * Runs the load from a child process and measures, over the recorded run only, the CPU time this
 * process (the API server, and with PGlite the database too) and the PostgreSQL backends serving it
 * used: unlike requests/s, CPU time per booking barely moves when other work shares the machine.
 */
function runLoad(options: LoadRequest, databasePids: () => Promise<number[]>): Promise<LoadSummary & { serverCpuMs: number; databaseCpuMs: number | null }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [LOAD_CHILD], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const limitMs = (options.warmupSeconds + options.durationSeconds + 30) * 1000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the load generator did not finish within ${limitMs / 1000} s`));
    }, limitMs);
    let summary: LoadSummary | undefined;
    let cpuStart: NodeJS.CpuUsage | undefined;
    let ticksStart: { pids: number[]; ticks: number | null } | undefined;
    let measured: { serverCpuMs: number; databaseCpuMs: number | null } | undefined;
    child.on('message', (raw) => {
      const message = raw as ChildMessage;
      if (message.type === 'recording') {
        cpuStart = process.cpuUsage();
        void databasePids().then((pids) => {
          ticksStart = { pids, ticks: cpuTicks(pids) };
        });
        return;
      }
      summary = message.summary;
      const cpu = process.cpuUsage(cpuStart);
      const requests = Math.max(1, summary.requests);
      const startTicks = ticksStart?.pids.length ? ticksStart.ticks : null;
      const endTicks = startTicks === null ? null : cpuTicks(ticksStart!.pids);
      measured = {
        serverCpuMs: (cpu.user + cpu.system) / 1000 / requests,
        databaseCpuMs: startTicks === null || endTicks === null ? null : ((endTicks - startTicks) * 10) / requests,
      };
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (summary && measured) resolve({ ...summary, ...measured });
      else reject(new Error(`the load generator exited with ${code} before reporting`));
    });
    child.send(options);
  });
}

// ------------------------------------------------------------------ driver

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (value: number) => `${value.toFixed(2).padStart(7)} ms`;

/** The booking every request makes, with `__ORDER_ID__` where each request's unique order_id goes. */
const orderTemplate = (warehouseId: string): string => JSON.stringify(benchOrder(warehouseId, '__ORDER_ID__'));

async function api(running: RunningApp, path: string, body: unknown) {
  const response = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

interface EngineResult {
  engine: string;
  load: LoadSummary & { serverCpuMs: number; databaseCpuMs: number | null };
  bookedRows: number;
  distinctAwbs: number;
  labels: { count: number; p50: number; p99: number; mean: number; bytes: number };
}

async function benchEngine(engine: string, running: RunningApp, settings: Omit<LoadRequest, 'url' | 'apiKey' | 'template'>, labelCount: number): Promise<EngineResult> {
  const warehouse = await api(running, '/custom/api/v1/warehouse', {
    name: 'Koramangala Fulfilment',
    phone_number: '080 4123 4567',
    address_attributes: { street_address: '80 Feet Road', zip: '560001', city: 'Bengaluru', state: 'Karnataka', country: 'India' },
  });
  const template = orderTemplate(warehouse.payload.warehouse_id);
  const book = (orderId: string) => api(running, ORCHESTRATE, JSON.parse(template.replace('__ORDER_ID__', orderId)));

  const slug = engine.split(' ')[0]!.toLowerCase();
  // Check the request is what we claim before timing it.
  const probe = await book(`probe-${slug}`);
  if (probe.payload.awb_generated !== 1) throw new Error(`probe booking did not book: ${JSON.stringify(probe)}`);

  const databasePids = async () =>
    running.database.engine === 'postgres'
      ? (
          await queryRows<{ pid: number }>(
            running.database.db,
            sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
          )
        ).map((row) => Number(row.pid))
      : [];
  const load = await runLoad({ ...settings, url: running.url, apiKey: running.apiKey, template }, databasePids);

  const [counts] = await queryRows<{ booked: number | string; distinct_awbs: number | string }>(
    running.database.db,
    sql`select count(*) filter (where awb is not null) as booked, count(distinct awb) as distinct_awbs from shipments`,
  );

  // Labels: fresh bookings, then each label_url fetched in turn (rendered on demand, read in full).
  const paths: string[] = [];
  for (let i = 0; i < labelCount; i++) {
    const url = new URL((await book(`label-${slug}-${i}`)).payload.label_url);
    paths.push(url.pathname + url.search);
  }
  // A few unrecorded fetches first, so fonts are parsed and the JIT is warm.
  for (const path of paths.slice(0, 5)) await (await fetch(`${running.url}${path}`)).arrayBuffer();
  const times: number[] = [];
  let bytes = 0;
  for (const path of paths) {
    const started = performance.now();
    const response = await fetch(`${running.url}${path}`);
    const body = await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200 || response.headers.get('content-type') !== 'application/pdf') {
      throw new Error(`label fetch answered ${response.status} ${response.headers.get('content-type')}`);
    }
    bytes += body.byteLength;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    engine,
    load,
    bookedRows: Number(counts!.booked),
    distinctAwbs: Number(counts!.distinct_awbs),
    labels: {
      count: times.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      mean: times.reduce((a, b) => a + b, 0) / times.length,
      bytes: labelCount ? Math.round(bytes / labelCount) : 0,
    },
  };
}

function report(result: EngineResult) {
  const { load } = result;
  const problems = [
    load.non2xx ? `${load.non2xx} non-2xx` : '',
    load.errors ? `${load.errors} errors` : '',
    load.timeouts ? `${load.timeouts} timeouts` : '',
  ].filter(Boolean);
  console.log(
    `${result.engine.padEnd(22)} ${Math.round(load.requestsPerSecond).toLocaleString('en-US').padStart(6)} bookings/s` +
      `   p50 ${ms(load.p50)}   p99 ${ms(load.p99)}   max ${ms(load.max)}   ${load.requests.toLocaleString('en-US')} recorded` +
      (problems.length ? `   !! ${problems.join(', ')}` : ''),
  );
  const database = load.databaseCpuMs === null ? '' : `, PostgreSQL backends ${load.databaseCpuMs.toFixed(2)} ms`;
  console.log(`${''.padEnd(22)} CPU per booking: API process ${load.serverCpuMs.toFixed(2)} ms${database}`);
  console.log(
    `${''.padEnd(22)} database: ${result.bookedRows.toLocaleString('en-US')} booked shipments, ${result.distinctAwbs.toLocaleString('en-US')} distinct AWBs` +
      (result.bookedRows === result.distinctAwbs ? '' : '   !! AWB numbers repeated'),
  );
  console.log(
    `${''.padEnd(22)} labels:   ${result.labels.count} fetched one after another   p50 ${ms(result.labels.p50)}   p99 ${ms(result.labels.p99)}` +
      `   mean ${ms(result.labels.mean)}   ${(result.labels.bytes / 1024).toFixed(1)} KiB each`,
  );
}

async function main() {
  const settings = {
    connections: setting('BENCH_CONNECTIONS', 20),
    warmupSeconds: setting('BENCH_WARMUP', 3),
    durationSeconds: setting('BENCH_DURATION', 10),
  };
  const labelCount = setting('BENCH_LABELS', 200);
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
  const perEngineSeconds = settings.warmupSeconds + settings.durationSeconds + 60 + labelCount * 0.1;
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
  console.log(
    'request:  POST /custom/api/v1/forward-order-orchestration, COD, 2 items, unique order_id each; cheapest of 11 priced services booked',
  );
  console.log(`before:   ${describeLoad()}`);
  console.log('');

  const results: EngineResult[] = [];
  const embedded = await startApp({ accountName: 'Orders benchmark' });
  try {
    const result = await benchEngine('PGlite (in memory)', embedded, settings, labelCount);
    report(result);
    results.push(result);
  } finally {
    await embedded.close();
  }

  await admin(`create database ${databaseName}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    const server = await startApp({ databaseUrl: url.toString(), accountName: 'Orders benchmark' });
    try {
      const result = await benchEngine(`PostgreSQL ${await serverVersion(server)}`, server, settings, labelCount);
      report(result);
      results.push(result);
    } finally {
      await server.close();
    }
  } finally {
    await dropDatabase();
  }

  console.log('');
  console.log(`after:    ${describeLoad()}`);
  const postgres = results[1]!;
  const met = postgres.load.requestsPerSecond >= TARGET_POSTGRES_BOOKINGS_PER_SECOND;
  console.log('');
  console.log(
    `target:   ≥ ${TARGET_POSTGRES_BOOKINGS_PER_SECOND} bookings/s on PostgreSQL: ${met ? 'met' : 'MISSED'} (${Math.round(postgres.load.requestsPerSecond)})`,
  );
  const invalid = results.filter((r) => r.load.non2xx > 0 || r.load.errors > 0 || r.load.requests === 0 || r.bookedRows !== r.distinctAwbs);
  if (invalid.length > 0) {
    console.error(`invalid run: ${invalid.map((r) => r.engine).join(', ')} had errors, non-2xx answers or repeated AWBs`);
    process.exitCode = 1;
  }
}

async function serverVersion(running: RunningApp): Promise<string> {
  const [row] = await queryRows<{ v: string }>(running.database.db, sql`select current_setting('server_version') as v`);
  return row!.v.split(' ')[0]!;
}

if (process.argv[2] === LOAD_CHILD) {
  await loadChild();
} else {
  await main();
  process.exit();
}
