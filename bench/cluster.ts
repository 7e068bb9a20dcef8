/**
 * Bookings per second with one server process and with WEB_CONCURRENCY=2, on PostgreSQL, in the
 * same run (issue 54: two processes never slower than one, ≥ 0.95× here, where PostgreSQL shares
 * the two cores; issue 27 had asked for 1.3×, which one process's CPU per booking rules out).
 *
 *   npm run bench:cluster
 *
 * Both are started as users start them, `npm start` and `WEB_CONCURRENCY=2 npm start`, each on a
 * fresh database `dakiya_bench_<random>` of BENCH_POSTGRES_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres, loopback only), dropped at the end, default logging
 * to a file, an account made through the operator API. Then BENCH_ROUNDS rounds (default 3), each
 * loading one and then the other (the order alternates from round to round, so that neither always
 * runs on the warmer or quieter machine): autocannon in a child process, 20 connections
 * (BENCH_CONNECTIONS), a 3 s warm-up (BENCH_WARMUP), 8 s recorded (BENCH_DURATION), every request
 * a POST /custom/api/v1/forward-order-orchestration with its own order_id; before the first round,
 * BENCH_SETTLE seconds (default 20) of the same load on each side, not counted (main() says why).
 *
 * For each run it prints bookings/s, the load average beside it, and where the machine's CPU went
 * per booking, read from /proc: the API processes (the primary and its server processes), the
 * PostgreSQL backends of that database, and the load generator, which shares the cores; and what
 * the database's busy backends waited on.
 *
 * BENCH_ASYNC_COMMIT=1 sets synchronous_commit = off on both databases: a diagnosis, not a figure as
 * users run it. When other work on the machine keeps its disk busy, every commit waits for its WAL
 * flush, and that wait, not the CPU, bounds both configurations alike.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { bookingServerEnv, ORCHESTRATE, ORDER_ID_TOKEN, prepareBookingServer } from './lib/booking-server.js';
import { benchSetting, type LoadResult, processCpuMicros, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { benchOrder } from './lib/order-body.js';
import {
  type ClusterProcess,
  type ServerProcess,
  startClusterProcess,
  startServerProcess,
} from '../test/server-process.js';

const TARGET_RATIO = 0.95;

interface Setup {
  title: string;
  processes: number;
  server: ServerProcess | ClusterProcess;
  apiKey: string;
  warehouseId: string;
  client: pg.Client;
  databaseName: string;
}

interface Run {
  load: LoadResult;
  loadAverage: number;
  /** What the database's busy backends were doing, sampled through the run: wait event (or "on CPU") → share of samples. */
  waits: Map<string, number>;
  /** CPU of a cluster's primary per booking (warm-up included), in ms: what handing out connections costs. */
  primaryMs?: number;
}

const isCluster = (server: ServerProcess | ClusterProcess): server is ClusterProcess => 'workerPids' in server;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: number[], digits = 0) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function admin(adminUrl: URL, statement: string) {
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function start(adminUrl: URL, processes: number, databaseName: string): Promise<Setup> {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  // The sandbox's scans would start coming a minute after the first round's bookings, and the poller
  // would then be busy with them during later rounds: a day keeps every round to bookings alone.
  const env = { ...bookingServerEnv(url.toString()), DATA_DIR: '', REDIS_URL: '' };
  const server: ServerProcess | ClusterProcess =
    processes === 1
      ? await startServerProcess({ env, warm: true })
      : await startClusterProcess(processes, { env, warm: true });
  const { apiKey, warehouseId } = await prepareBookingServer(server, 'Cluster benchmark');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const title = processes === 1 ? 'npm start (1 process)' : `WEB_CONCURRENCY=${processes} npm start`;
  const pids = isCluster(server)
    ? `primary ${server.serverPid}, server processes ${server.workerPids.join(', ')}`
    : `pid ${server.serverPid}`;
  console.log(`server:   ${title}: ${pids}, serving ${(server.startupMs / 1000).toFixed(1)} s after spawn`);
  return { title, processes, server, apiKey, warehouseId, client, databaseName };
}

/** The API processes: the one server, or the primary and the server processes serving now. */
const apiPids = (setup: Setup) =>
  isCluster(setup.server) ? [setup.server.serverPid, ...setup.server.workerPids] : [setup.server.serverPid];

/**
 * Samples pg_stat_activity every 100 ms until stopped: of the backends running a statement of the
 * benchmark's database, what each waits on (a lock, the WAL, the client) or none (on CPU).
 */
function sampleWaits(setup: Setup): { stop(): Promise<Map<string, number>> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await setup.client.query<{ wait: string }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'on CPU') as wait from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`,
      );
      for (const { wait } of rows) counts.set(wait, (counts.get(wait) ?? 0) + 1);
      samples += rows.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return new Map([...counts].map(([wait, n]) => [wait, n / Math.max(1, samples)]));
    },
  };
}

async function load(
  setup: Setup,
  settings: { connections: number; warmupSeconds: number; durationSeconds: number },
): Promise<Run> {
  const sampler = sampleWaits(setup);
  const primary = isCluster(setup.server) ? setup.server.serverPid : undefined;
  const primaryBefore = primary === undefined ? 0 : (processCpuMicros([primary]).get(primary) ?? 0);
  const result = await runLoad(
    {
      title: setup.title,
      url: `${setup.server.url}${ORCHESTRATE}`,
      method: 'POST',
      headers: { authorization: `Bearer ${setup.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(benchOrder(setup.warehouseId, ORDER_ID_TOKEN)),
      uniqueToken: ORDER_ID_TOKEN,
      ...settings,
    },
    {
      server: () => apiPids(setup),
      database: async () =>
        (
          await setup.client.query<{ pid: number }>(
            'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          )
        ).rows.map((r) => r.pid),
    },
  );
  const primaryMs =
    primary === undefined
      ? undefined
      : ((processCpuMicros([primary]).get(primary) ?? 0) - primaryBefore) / 1000 / Math.max(1, result.requests);
  return { load: result, loadAverage: os.loadavg()[0]!, waits: await sampler.stop(), primaryMs };
}

const cpuPerBooking = (r: LoadResult) =>
  (r.serverCpuMicrosPerRequest + (r.databaseCpuMicrosPerRequest ?? 0) + (r.loadGeneratorCpuMicrosPerRequest ?? 0)) /
  1000;

function describeRun(setup: Setup, run: Run): string {
  const { load: r } = run;
  const api = r.serverCpuMicrosPerRequest / 1000;
  const database = (r.databaseCpuMicrosPerRequest ?? 0) / 1000;
  const generator = (r.loadGeneratorCpuMicrosPerRequest ?? 0) / 1000;
  const total = api + database + generator;
  const share = (part: number) => `${Math.round((100 * part) / total)}%`;
  // The CPU the three used of the machine's cores during the recorded seconds.
  const busy = (total * r.requests) / 1000 / r.durationSeconds;
  const problems =
    r.non2xx + r.errors + r.timeouts > 0 ? `   !! ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts` : '';
  return (
    `${setup.title.padEnd(26)} ${Math.round(r.requestsPerSecond).toString().padStart(5)} bookings/s   p50 ${String(r.latencyP50Ms).padStart(3)} ms   p99 ${String(r.latencyP99Ms).padStart(4)} ms` +
    `   load avg ${run.loadAverage.toFixed(1).padStart(5)}   CPU per booking: API ${api.toFixed(2)} ms (${share(api)}${run.primaryMs === undefined ? '' : `; the primary ${run.primaryMs.toFixed(2)} ms`}), PostgreSQL ${database.toFixed(2)} ms (${share(database)}),` +
    ` load generator ${generator.toFixed(2)} ms (${share(generator)}); ${busy.toFixed(2)} of ${os.availableParallelism()} cores busy${problems}\n` +
    `${''.padEnd(35)}busy PostgreSQL backends: ${[...run.waits]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([wait, share]) => `${wait} ${Math.round(100 * share)}%`)
      .join(', ')}`
  );
}

async function main() {
  const settings = {
    connections: benchSetting('BENCH_CONNECTIONS', 20),
    warmupSeconds: benchSetting('BENCH_WARMUP', 3),
    durationSeconds: benchSetting('BENCH_DURATION', 8),
  };
  // Each side is loaded once, uncounted, before the first round. Without it the first round timed
  // the two processes' warming: each JIT and each pool's connections saw half the load of the one
  // process's, and their first round cost 2.2-2.5 ms of API CPU per booking against 1.2-1.5 by the
  // third (the ratio by round 0.74/0.93/0.94 and 0.86/0.83/1.03 on machine AC, 2026-11-29 08:55
  // and 08:58). A server serves for days; the target is about that server, not its first minute.
  const settleSeconds = benchSetting('BENCH_SETTLE', 20);
  const rounds = Math.max(1, Math.round(benchSetting('BENCH_ROUNDS', 3)));
  const asyncCommit = process.env.BENCH_ASYNC_COMMIT === '1';
  const adminUrl = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(adminUrl.hostname)) {
    throw new Error(`BENCH_POSTGRES_URL must point at this machine (127.0.0.1), not ${adminUrl.hostname}`);
  }
  const names = [1, 2].map(() => `dakiya_bench_${randomBytes(6).toString('hex')}`);
  const dropAll = () =>
    Promise.all(names.map((name) => admin(adminUrl, `drop database if exists ${name} with (force)`)));
  const deadline = setTimeout(
    () => {
      console.error('bench:cluster: still running long after the planned time; giving up.');
      dropAll().finally(() => process.exit(2));
    },
    (600 + 2 * settleSeconds + 2 * rounds * (settings.warmupSeconds + settings.durationSeconds + 30)) * 1000,
  );
  deadline.unref();

  console.log(`machine:  ${describeMachine()}`);
  console.log(
    `load:     autocannon in a child process on the same machine, ${settings.connections} connections, ${settings.durationSeconds} s after a ${settings.warmupSeconds} s warm-up, 127.0.0.1; ${rounds} rounds, after ${settleSeconds} s of load on each side uncounted`,
  );
  console.log(
    'request:  POST /custom/api/v1/forward-order-orchestration, COD, 2 items, unique order_id each; cheapest of 11 priced services booked',
  );
  if (asyncCommit)
    console.log(
      'database: synchronous_commit = off (BENCH_ASYNC_COMMIT=1): commits do not wait for the WAL flush; not as users run it',
    );
  console.log(`before:   ${describeLoad()}`);

  const setups: Setup[] = [];
  try {
    for (const [i, name] of names.entries()) {
      await admin(adminUrl, `create database ${name}`);
      if (asyncCommit) await admin(adminUrl, `alter database ${name} set synchronous_commit = off`);
      setups.push(await start(adminUrl, i + 1, name));
    }
    const [one, two] = setups as [Setup, Setup];
    console.log('');
    if (settleSeconds > 0)
      for (const setup of setups) {
        const run = await load(setup, { ...settings, warmupSeconds: 0, durationSeconds: settleSeconds });
        console.log(`settling: ${describeRun(setup, run)} (not counted)`);
      }
    const ratios: number[] = [];
    const byProcesses = new Map<number, number[]>([
      [1, []],
      [2, []],
    ]);
    /** CPU per booking, API + PostgreSQL + load generator, in ms, per run. */
    const perBooking = new Map<number, number[]>([
      [1, []],
      [2, []],
    ]);
    let invalid = false;
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? [one, two] : [two, one];
      const runs = new Map<Setup, Run>();
      for (const setup of order) {
        const run = await load(setup, settings);
        runs.set(setup, run);
        perBooking.get(setup.processes)!.push(cpuPerBooking(run.load));
        console.log(`round ${round}: ${describeRun(setup, run)}`);
        if (run.load.non2xx + run.load.errors + run.load.timeouts > 0 || run.load.requests === 0) invalid = true;
      }
      const single = runs.get(one)!.load.requestsPerSecond;
      const double = runs.get(two)!.load.requestsPerSecond;
      byProcesses.get(1)!.push(single);
      byProcesses.get(2)!.push(double);
      ratios.push(double / single);
      console.log(`round ${round}: ratio ${(double / single).toFixed(2)}×`);
    }
    const counts = await Promise.all(
      setups.map(
        async (s) =>
          (await s.client.query<{ n: number }>('select count(*)::int as n from shipments where awb is not null'))
            .rows[0]!.n,
      ),
    );
    console.log('');
    console.log(`after:    ${describeLoad()}`);
    console.log(
      `1 process:   median ${median(byProcesses.get(1)!).toFixed(0)} bookings/s (spread ${spread(byProcesses.get(1)!)}), ${counts[0]} shipments booked in all`,
    );
    console.log(
      `2 processes: median ${median(byProcesses.get(2)!).toFixed(0)} bookings/s (spread ${spread(byProcesses.get(2)!)}), ${counts[1]} shipments booked in all`,
    );
    // Were the machine's cores ours alone, bookings/s could not pass cores ÷ the CPU a booking costs
    // all three (API, PostgreSQL, load generator), however many processes serve.
    const singleRuns = perBooking.get(1)!;
    const ceiling = median(singleRuns.map((cpuMs) => (os.availableParallelism() * 1000) / cpuMs));
    console.log(
      `ceiling:     ${os.availableParallelism()} cores ÷ ${median(singleRuns).toFixed(2)} ms of CPU per booking (1 process, median) = ${ceiling.toFixed(0)} bookings/s for the whole machine,` +
        ` ${(ceiling / median(byProcesses.get(1)!)).toFixed(2)}× the 1-process median`,
    );
    const ratio = median(ratios);
    console.log(
      `ratio:       median ${ratio.toFixed(2)}× (spread ${spread(ratios, 2)}); target ≥ ${TARGET_RATIO}×: ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`,
    );
    if (invalid) {
      console.error('invalid run: errors, non-2xx answers or time-outs');
      process.exitCode = 1;
    }
  } finally {
    for (const setup of setups) {
      await setup.client.end();
      await setup.server.stop();
    }
    await dropAll();
  }
}

await main();
process.exit();
