/**
 * POST /custom/api/v1/shipments under load (issue 15): 50 connections asking for the first page of
 * 20 of an account with 100,000 shipments and their tracking events, against a bare baseline in
 * the same run.
 *
 *   npm run bench:listing-load                          PostgreSQL (with the baseline), then PGlite
 *   npm run bench:listing-load -- --engine=postgres     or --engine=pglite; --shipments=N (the account's)
 *   BENCH_CONNECTIONS=50 BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_ROUNDS=3   the defaults
 *   BENCH_KEEP=1 keeps the PostgreSQL database (its name is printed); BENCH_REUSE=<name> measures it again without building
 *
 * Data: bench/listing-data.ts's realistic shipments (orders, items, milestones, courier scans)
 * loaded by bulk COPY (bench/lib/listing-build.ts), the measured account plus 5 smaller ones. On
 * PostgreSQL a fresh database dakiya_bench_<random> on 127.0.0.1 (dropped at the end); on PGlite a
 * temporary DATA_DIR. The app runs as users run it: `npm start` in its own process, default
 * logging (to a log file). The baseline (bench/lib/listing-baseline.ts) is a node:http server with
 * a pg pool in its own process, running the app's own statement for the page (the same SQL) and
 * writing its rows' attributes into the answer as they come. Each
 * round loads the baseline, then the app; CPU per request is read from /proc for each server's
 * process and for the PostgreSQL backends. Targets (PostgreSQL, issue 27): app requests/s ≥ 0.9 ×
 * the baseline's, app p99 ≤ 1.3 × the baseline's (medians of the rounds).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { type BaselineProcess, startBaselineProcess } from './lib/baseline-process.js';
import { build, log, pgLoader, pgliteLoader, seconds } from './lib/listing-build.js';
import { formatLoadResult, type LoadResult, loadSettings, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { logVolume, type ServerProcess, startServerProcess } from '../test/server-process.js';
import { ListingDataGenerator, type Scale } from './listing-data.js';

const SERVER = 'postgres://postgres@127.0.0.1:5432/';
// Issue 27: requests/s ≥ 0.9 × the baseline's, p99 ≤ 1.3 × the baseline's.
const TARGET_RATIO = 0.9;
const TARGET_P99_OF_BASELINE = 1.3;

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const engines = (args.engine ?? 'both') === 'both' ? ['postgres', 'pglite'] : [args.engine!];
const { connections, durationSeconds, warmupSeconds, rounds } = loadSettings();
const bigAccount = Number(args.shipments ?? 100_000);
const scale: Scale = { shipments: bigAccount + 5 * 2_000, bigAccount, otherAccounts: 5, days: 180 };

const cleanups: (() => Promise<void>)[] = [];
const cleanUp = async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch((error) => log(`cleanup: ${error}`));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void cleanUp().then(() => process.exit(130)));
const watchdog = setTimeout(
  () => {
    log('watchdog: the benchmark ran far over its planned time; stopping');
    void cleanUp().then(() => process.exit(2));
  },
  (30 * 60 + 2 * rounds * (warmupSeconds + durationSeconds + 5)) * 1000,
);
watchdog.unref();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const startBaseline = (databaseUrl: string, accountId: string): Promise<BaselineProcess> =>
  startBaselineProcess('listing-baseline.ts', { DATABASE_URL: databaseUrl, ACCOUNT_ID: accountId });

async function apiKeyFor(server: ServerProcess, accountId: string): Promise<string> {
  const response = await fetch(`${server.url}/admin/v1/accounts/${accountId}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
  });
  if (response.status !== 201) throw new Error(`api key: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { api_key: string }).api_key;
}

interface Page {
  data: { id: string }[];
  meta: { total: number };
}

async function firstPage(url: string, apiKey: string): Promise<{ page: Page; bytes: number }> {
  const response = await fetch(`${url}/custom/api/v1/shipments`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body: '{}',
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`listing answered ${response.status}: ${text.slice(0, 500)}`);
  return { page: JSON.parse(text) as Page, bytes: Buffer.byteLength(text) };
}

interface EngineResult {
  engine: string;
  rounds: { baseline?: LoadResult; app: LoadResult }[];
  startupMs: number;
  log: { lines: number; bytes: number };
}

async function runPostgres(): Promise<EngineResult> {
  // BENCH_REUSE=<database> measures a database an earlier run kept (BENCH_KEEP=1) instead of
  // building 110,000 shipments again; neither drops it.
  const reuse = process.env.BENCH_REUSE;
  if (reuse !== undefined && !/^dakiya_bench_[0-9a-f]+$/.test(reuse))
    throw new Error('BENCH_REUSE must name a dakiya_bench_<hex> database');
  const name = reuse ?? `dakiya_bench_${randomBytes(5).toString('hex')}`;
  if (reuse === undefined) {
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  }
  if (reuse === undefined && process.env.BENCH_KEEP !== '1') {
    cleanups.push(async () => {
      const dropper = new pg.Client({ connectionString: SERVER });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
      log(`dropped database ${name}`);
    });
  } else {
    log(
      `postgres: database ${name} is kept: BENCH_REUSE=${name} measures it again; drop it with DROP DATABASE ${name}`,
    );
  }
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  const database = await openPostgres(databaseUrl, 2);
  await migrate(database.db);
  await database.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let accountId: string;
  if (reuse === undefined) {
    const generator = new ListingDataGenerator(scale, new Date());
    const built = await build(pgLoader(client), generator);
    log(
      `postgres: built ${built.shipments.toLocaleString('en-US')} shipments, ${built.events.toLocaleString('en-US')} events in ${seconds(built.loadMs + built.indexMs + built.countsMs + built.vacuumMs)}`,
    );
    accountId = generator.facts.bigAccountId;
  } else {
    // The measured account is the one with the most shipments.
    const biggest = await client.query<{ account_id: string }>(
      'select account_id from shipment_counts group by account_id order by sum(shipments) desc limit 1',
    );
    accountId = biggest.rows[0]!.account_id;
  }

  const baseline = await startBaseline(databaseUrl, accountId);
  cleanups.push(() => baseline.stop());
  const server = await startServerProcess({
    warm: true,
    env: { DATABASE_URL: databaseUrl, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  cleanups.push(async () => {
    await server.stop();
  });
  const apiKey = await apiKeyFor(server, accountId);

  // Both answer the same page before anything is timed.
  const [ours, bare] = await Promise.all([firstPage(server.url, apiKey), firstPage(baseline.url, apiKey)]);
  if (
    ours.page.meta.total !== bare.page.meta.total ||
    ours.page.data.map((r) => r.id).join() !== bare.page.data.map((r) => r.id).join()
  ) {
    throw new Error('the app and the baseline answer different pages');
  }
  log(
    `postgres: page of ${ours.page.data.length} of ${ours.page.meta.total.toLocaleString('en-US')}; app ${ours.bytes} bytes, baseline ${bare.bytes} bytes`,
  );

  const backends = async () =>
    (
      await client.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      )
    ).rows.map((row) => row.pid);
  const common = { method: 'POST' as const, body: '{}', connections, durationSeconds, warmupSeconds };
  const results: EngineResult['rounds'] = [];
  for (let round = 1; round <= rounds; round++) {
    console.log(`\nPostgreSQL round ${round} of ${rounds}`);
    const base = await runLoad(
      {
        ...common,
        title: 'bare node:http + pg, same SQL',
        url: `${baseline.url}/`,
        headers: { 'content-type': 'application/json' },
      },
      { server: () => [baseline.pid], database: backends },
    );
    console.log(formatLoadResult(base, 34));
    const app = await runLoad(
      {
        ...common,
        title: 'Dakiya POST /shipments (npm start)',
        url: `${server.url}/custom/api/v1/shipments`,
        headers: { authorization: apiKey, 'content-type': 'application/json' },
      },
      { server: () => [server.serverPid], database: backends },
    );
    console.log(formatLoadResult(app, 34));
    results.push({ baseline: base, app });
  }
  await client.end();
  return { engine: 'PostgreSQL', rounds: results, startupMs: server.startupMs, log: logVolume(server.logFile) };
}

async function runPglite(): Promise<EngineResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-listing-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const database = await openPglite(dataDir);
  await migrate(database.db);
  const generator = new ListingDataGenerator(scale, new Date());
  const built = await build(pgliteLoader((database.db as unknown as { $client: PGlite }).$client), generator);
  await database.close();
  log(
    `pglite: built ${built.shipments.toLocaleString('en-US')} shipments, ${built.events.toLocaleString('en-US')} events in ${seconds(built.loadMs + built.indexMs + built.countsMs + built.vacuumMs)}`,
  );

  const server = await startServerProcess({
    warm: true,
    env: { DATA_DIR: dataDir, ADMIN_TOKEN: BENCH_ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  cleanups.push(async () => {
    await server.stop();
  });
  const apiKey = await apiKeyFor(server, generator.facts.bigAccountId);
  const probe = await firstPage(server.url, apiKey);
  log(
    `pglite: page of ${probe.page.data.length} of ${probe.page.meta.total.toLocaleString('en-US')}, ${probe.bytes} bytes`,
  );
  const results: EngineResult['rounds'] = [];
  for (let round = 1; round <= rounds; round++) {
    console.log(`\nPGlite round ${round} of ${rounds}`);
    const app = await runLoad(
      {
        title: 'Dakiya POST /shipments (npm start)',
        url: `${server.url}/custom/api/v1/shipments`,
        method: 'POST',
        body: '{}',
        headers: { authorization: apiKey, 'content-type': 'application/json' },
        connections,
        durationSeconds,
        warmupSeconds,
      },
      { server: () => [server.serverPid] },
    );
    console.log(formatLoadResult(app, 34));
    results.push({ app });
  }
  return { engine: 'PGlite', rounds: results, startupMs: server.startupMs, log: logVolume(server.logFile) };
}

function summarise(result: EngineResult): void {
  const list = (values: number[], digits = 2) => values.map((v) => v.toFixed(digits)).join(', ');
  const app = result.rounds.map((r) => r.app);
  console.log(
    `\n${result.engine}: server serving ${seconds(result.startupMs)} after npm start; log ${result.log.lines.toLocaleString('en-US')} lines, ${(result.log.bytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  console.log(
    `  app:      median ${Math.round(median(app.map((r) => r.requestsPerSecond)))} req/s, p50 ${median(app.map((r) => r.latencyP50Ms))} ms, ` +
      `p99 ${median(app.map((r) => r.latencyP99Ms))} ms (worst ${Math.max(...app.map((r) => r.latencyP99Ms))}), ` +
      `API CPU ${median(app.map((r) => r.serverCpuMicrosPerRequest)).toFixed(0)} µs/request` +
      (app[0]!.databaseCpuMicrosPerRequest === undefined
        ? ''
        : `, PostgreSQL CPU ${median(app.map((r) => r.databaseCpuMicrosPerRequest!)).toFixed(0)} µs/request`),
  );
  const bases = result.rounds.flatMap((r) => (r.baseline ? [r.baseline] : []));
  if (bases.length === 0) return;
  console.log(
    `  baseline: median ${Math.round(median(bases.map((r) => r.requestsPerSecond)))} req/s, p50 ${median(bases.map((r) => r.latencyP50Ms))} ms, ` +
      `p99 ${median(bases.map((r) => r.latencyP99Ms))} ms, CPU ${median(bases.map((r) => r.serverCpuMicrosPerRequest)).toFixed(0)} µs/request, ` +
      `PostgreSQL CPU ${median(bases.map((r) => r.databaseCpuMicrosPerRequest!)).toFixed(0)} µs/request`,
  );
  const ratios = result.rounds.map((r) => r.app.requestsPerSecond / r.baseline!.requestsPerSecond);
  const ratio = median(ratios);
  const p99 = median(app.map((r) => r.latencyP99Ms));
  const p99Bound = TARGET_P99_OF_BASELINE * median(bases.map((r) => r.latencyP99Ms));
  console.log(
    `  ratio app/baseline, median of ${ratios.length} rounds: ${ratio.toFixed(2)} (${list(ratios)})   (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'})`,
  );
  console.log(
    `  app p99 ${p99} ms, ${(p99 / median(bases.map((r) => r.latencyP99Ms))).toFixed(2)} × the baseline's (rounds ${list(
      app.map((r) => r.latencyP99Ms),
      0,
    )})   ` + `(target ≤ ${TARGET_P99_OF_BASELINE} × the baseline's: ${p99 <= p99Bound ? 'met' : 'MISSED'})`,
  );
}

let failed = false;
try {
  console.log(`machine:  ${describeMachine()}`);
  console.log(
    `load:     autocannon in a child process, ${connections} connections, ${durationSeconds} s after a ${warmupSeconds} s warm-up, 127.0.0.1; ${rounds} rounds`,
  );
  console.log(
    `request:  POST /custom/api/v1/shipments {} (first page of 20, newest first) as an account of ${bigAccount.toLocaleString('en-US')} shipments`,
  );
  console.log(`before:   ${describeLoad()}`);
  const results: EngineResult[] = [];
  for (const engine of engines) {
    results.push(engine === 'postgres' ? await runPostgres() : await runPglite());
    await cleanUp();
  }
  console.log(`\nafter:    ${describeLoad()}`);
  for (const result of results) summarise(result);
  const invalid = results
    .flatMap((r) => r.rounds.flatMap((x) => [x.app, ...(x.baseline ? [x.baseline] : [])]))
    .filter((r) => r.non2xx > 0 || r.errors > 0);
  if (invalid.length > 0) {
    console.error(`invalid run: ${invalid.map((r) => r.title).join(', ')} had errors or non-2xx answers`);
    failed = true;
  }
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
  failed = true;
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
