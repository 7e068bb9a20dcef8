/**
 * How fast webhooks arrive while bookings run, and what they cost the bookings, on PostgreSQL:
 *
 *   npm run bench:webhooks
 *
 * The server runs as users run it (`npm start`, its own process, default logging, the webhook worker
 * in the API process as by default) against a fresh database `dakiya_bench_<random>` on
 * BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped at the end,
 * with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE set so it may POST to a receiver on 127.0.0.1
 * (in this process, answering 204 at once). The booking load is bench:orders's: autocannon in a
 * child process, BENCH_CONNECTIONS (20) clients booking orders (forward-order-orchestration,
 * unique order ids) for BENCH_WARMUP (3) + BENCH_DURATION (10) s.
 *
 * BENCH_ROUNDS (3) rounds, each two loads: the account with no webhook endpoint (the baseline),
 * then with one endpoint subscribed to every event. Each booking writes two events either way; with
 * the endpoint the worker also fans them out and POSTs each, signed, to the receiver. Per round:
 * bookings/s of both loads, and for the events of the second, event-to-delivery latency (the
 * receiver's arrival time minus the event's created_at, one clock) and how many arrived while the
 * load still ran, and where the wait went: from the event to its delivery row (the fan-out), and
 * from the row to the recorded answer (picking, queueing behind the endpoint's sends, the send).
 * Then the median and spread of the rounds, and whether the target is met.
 *
 * The machine's load moves these figures a lot: to compare two versions, run both in one sitting
 * (each from its own checkout) and compare their ratios, not figures from different days.
 *
 * BENCH_WORKER=apart runs the webhook worker as operators may: `WEBHOOK_WORKER=false` on the API
 * process and one `npm run worker` beside it (woken by the API's NOTIFY), so that deliveries do not
 * share the API's event loop.
 *
 * Target (issue 27): p50 < 100 ms and p99 < 500 ms under the booking load, deliveries arriving
 * during it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { benchSetting, formatLoadResult, type LoadResult, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { BENCH_WAREHOUSE, benchOrder } from './lib/order-body.js';
import { median, medianAndSpread, percentile } from './lib/stats.js';
import {
  createAccount,
  type NpmProcess,
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
} from '../test/server-process.js';

const ORCHESTRATE = '/custom/api/v1/forward-order-orchestration';
const TARGET_P50_MS = 100;
const TARGET_P99_MS = 500;
const settings = {
  connections: benchSetting('BENCH_CONNECTIONS', 20),
  warmupSeconds: benchSetting('BENCH_WARMUP', 3),
  durationSeconds: benchSetting('BENCH_DURATION', 10),
};
const rounds = Math.max(1, Math.round(benchSetting('BENCH_ROUNDS', 3)));
const workerApart = process.env.BENCH_WORKER === 'apart';
/**
 * The sandbox courier's first scan comes a step after each booking (60 s by default): in a run of a
 * few minutes, earlier rounds' bookings would be picked up, moved and delivered during later ones,
 * and their tracking events would be timed instead of the bookings'. A day's step keeps the load
 * what the benchmark names.
 */
const SANDBOX_QUIET = '86400';

async function post(server: ServerProcess, apiKey: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** A receiver on 127.0.0.1 that notes when each event arrived and when it was recorded. */
async function startReceiver() {
  const arrivals = new Map<string, { arrived: number; created: number }>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const arrived = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; created_at: string };
      if (!arrivals.has(event.id)) arrivals.set(event.id, { arrived, created: Date.parse(event.created_at) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dakiya`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Round {
  without: LoadResult;
  with: LoadResult;
  events: number;
  duringLoad: number;
  p50: number;
  p99: number;
  max: number;
  /** Of the events, the share that arrived while the load ran (0 to 1). */
  during: number;
  stages: { fanout50: number; fanout99: number; send50: number; send99: number };
}

async function main() {
  const adminUrl = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (adminUrl.hostname !== '127.0.0.1' && adminUrl.hostname !== 'localhost') {
    throw new Error(`BENCH_POSTGRES_URL must point at this machine (127.0.0.1), not ${adminUrl.hostname}`);
  }
  const databaseName = `dakiya_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const receiver = await startReceiver();
  const env = {
    DATABASE_URL: databaseUrl.toString(),
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SANDBOX_STEP_SECONDS: SANDBOX_QUIET,
    ...(workerApart && { WEBHOOK_WORKER: 'false' }),
  };
  const server = await startServerProcess({ env, warm: true });
  const worker: NpmProcess | undefined = workerApart ? await startWorkerProcess({ env }) : undefined;
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  try {
    const { apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, 'Webhooks benchmark');
    console.log(`machine:  ${describeMachine()}`);
    console.log(
      `load:     autocannon in a child process, ${settings.connections} connections booking, ${settings.durationSeconds} s after a ${settings.warmupSeconds} s warm-up`,
    );
    console.log(
      `server:   npm start (serving pid ${server.serverPid}) on PostgreSQL, ${(server.startupMs / 1000).toFixed(1)} s after spawn, default logging to a file`,
    );
    console.log(
      `worker:   ${worker ? `npm run worker (pid ${worker.serverPid}), WEBHOOK_WORKER=false on the API process` : 'in the API process'}\n`,
    );
    const warehouse = await post(server, apiKey, '/custom/api/v1/warehouse', BENCH_WAREHOUSE);
    const warehouseId = warehouse.payload.warehouse_id as string;
    const load = (title: string) => ({
      title,
      url: `${server.url}${ORCHESTRATE}`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(benchOrder(warehouseId, '__ORDER_ID__')),
      uniqueToken: '__ORDER_ID__',
      ...settings,
    });
    const backends = async () =>
      (
        await client.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        )
      ).rows.map((r) => r.pid);
    const sources = { server: () => [server.serverPid], database: backends };
    const pending = async () =>
      (await client.query<{ n: number }>("select count(*)::int as n from webhook_deliveries where status = 'pending'"))
        .rows[0]!.n;

    // Where an event's wait goes: until the fan-out wrote its delivery row, then until its answer was recorded.
    const stagesOf = async (endpointId: string) =>
      (
        await client.query<{ fanout50: number; fanout99: number; send50: number; send99: number }>(
          `select percentile_disc(0.5) within group (order by f) as fanout50, percentile_disc(0.99) within group (order by f) as fanout99,
                  percentile_disc(0.5) within group (order by s) as send50, percentile_disc(0.99) within group (order by s) as send99
           from (select extract(epoch from d.created_at - e.created_at) * 1000 as f, extract(epoch from a.attempted_at - d.created_at) * 1000 as s
                 from webhook_deliveries d join events e on e.id = d.event_id join webhook_attempts a on a.delivery_id = d.id
                 where d.endpoint_id = $1) t`,
          [endpointId],
        )
      ).rows[0]!;

    const results: Round[] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`round ${round}: ${describeLoad()}`);
      const without = await runLoad(load('  no endpoint'), sources);
      console.log(formatLoadResult(without, 22));
      const endpointId = (await post(server, apiKey, '/custom/api/v1/webhooks', { url: receiver.url, events: ['*'] }))
        .data.id as string;
      const since = Date.now();
      receiver.arrivals.clear();
      const withOne = await runLoad(load('  one endpoint'), sources);
      const loadEnded = Date.now();
      console.log(formatLoadResult(withOne, 22));
      // Every event of this load delivered before the next round is timed.
      const deadline = Date.now() + 120_000;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const stages = await stagesOf(endpointId);
      await fetch(`${server.url}/custom/api/v1/webhooks/${endpointId}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const arrivals = [...receiver.arrivals.values()].filter((a) => a.created >= since);
      const latencies = arrivals.map((a) => a.arrived - a.created).sort((a, b) => a - b);
      const duringLoad = arrivals.filter((a) => a.arrived <= loadEnded).length;
      const result = {
        without,
        with: withOne,
        events: arrivals.length,
        duringLoad,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? 0,
        during: duringLoad / Math.max(arrivals.length, 1),
        stages,
      };
      results.push(result);
      const ms = (n: number) => `${Math.round(n)} ms`;
      console.log(
        `${''.padEnd(23)}event → delivery row (fan-out) p50 ${ms(stages.fanout50)}, p99 ${ms(stages.fanout99)}; delivery row → answer recorded p50 ${ms(stages.send50)}, p99 ${ms(stages.send99)}`,
      );
      console.log(
        `${''.padEnd(23)}${result.events} events delivered, ${duringLoad} of them while the load ran; event → webhook p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms`,
      );
    }
    const p50 = median(results.map((r) => r.p50));
    const p99 = median(results.map((r) => r.p99));
    const during = Math.min(...results.map((r) => r.during));
    console.log(`\n${rounds} rounds, median (min–max):`);
    console.log(
      `  bookings/s without an endpoint ${medianAndSpread(results.map((r) => r.without.requestsPerSecond))}, with one ${medianAndSpread(results.map((r) => r.with.requestsPerSecond))}`,
    );
    console.log(
      `  API CPU per booking with the endpoint ${medianAndSpread(results.map((r) => r.with.serverCpuMicrosPerRequest))} µs, without ${medianAndSpread(results.map((r) => r.without.serverCpuMicrosPerRequest))} µs`,
    );
    console.log(
      `  event → webhook p50 ${medianAndSpread(results.map((r) => r.p50))} ms, p99 ${medianAndSpread(results.map((r) => r.p99))} ms`,
    );
    console.log(
      `  delivered while the load ran ${medianAndSpread(results.map((r) => Math.round(r.during * 100)))} % of each round's events`,
    );
    console.log(
      `  event → delivery row (fan-out) p50 ${medianAndSpread(results.map((r) => Math.round(r.stages.fanout50)))} ms; delivery row → answer recorded p50 ${medianAndSpread(results.map((r) => Math.round(r.stages.send50)))} ms, p99 ${medianAndSpread(results.map((r) => Math.round(r.stages.send99)))} ms`,
    );
    console.log(`after:    ${describeLoad()}`);
    const met = p50 < TARGET_P50_MS && p99 < TARGET_P99_MS && during > 0;
    console.log(
      `target:   p50 < ${TARGET_P50_MS} ms, p99 < ${TARGET_P99_MS} ms, deliveries during the load: ${met ? 'met' : 'MISSED'} (p50 ${p50} ms, p99 ${p99} ms)`,
    );
    if (results.some((r) => r.with.non2xx > 0 || r.without.non2xx > 0 || r.events === 0)) {
      console.error('invalid run: non-2xx answers, or no event delivered');
      process.exitCode = 1;
    }
  } finally {
    await client.end();
    await server.stop();
    await worker?.stop();
    fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    if (worker) fs.rmSync(path.dirname(worker.logFile), { recursive: true, force: true });
    await receiver.close();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
process.exit();
