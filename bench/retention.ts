// Issue 52: pruning must not slow requests ("no long locks, no burst that slows requests;
// measured"). This fills a database with a backlog past its periods (finished webhook deliveries
// with their attempts, and audit log entries: what an install that kept everything for a year
// holds), then measures another account's requests, asked 20 times a second throughout, on the
// server as `npm start` runs it:
//
//   baseline     a server whose periods keep everything: nothing to prune
//   the job      a server with the default periods, which prunes at start in batches of
//                PRUNE_BATCH_ROWS with its 200 ms pauses (the hourly job's first run on such an install)
//   on demand    the same backlog again on that server, pruned by POST /admin/v1/retention/prune
//                (no pauses), the observer asking from a second before to a second after
//
//   npm run bench:retention                         200,000 deliveries (2 attempts each), 100,000 audit entries
//   npm run bench:retention -- --deliveries=20000   a short check
//   options: --baseline-seconds=10
//
// On PostgreSQL (a fresh database on 127.0.0.1, dropped after): where a year of traffic lives, and
// the one engine whose tables the benchmark can count while a server runs on them.
//
// Prints per phase the observer's p50, p99 and worst latency and the rows pruned per second; for the
// job, also its p99 over runs of as many asks as the baseline had (a fair comparison); and, as a
// diagnosis, the asks split by what PostgreSQL was doing while each waited (a delete, an autovacuum
// worker, a checkpoint, or none of them), sampled every 20 ms on a connection of its own.
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createAccount, type ServerProcess, startServerProcess } from '../test/server-process.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { attribute, sampleActivity } from './lib/db-activity.js';
import { observe } from './lib/observer.js';
import { scratchDatabase } from './lib/scratch-database.js';
import { percentile } from './lib/stats.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const DELIVERIES = Number(args.deliveries ?? 200_000);
const AUDIT_ENTRIES = Math.round(DELIVERIES / 2);
const BASELINE_MS = Number(args['baseline-seconds'] ?? 10) * 1000;
const ADMIN_TOKEN = `bench-admin-${randomBytes(8).toString('hex')}`;
/** What keeps everything for the baseline: the settings' longest periods. */
const KEEP_ALL = { WEBHOOK_DELIVERIES_RETENTION_DAYS: '3650', AUDIT_LOG_RETENTION_DAYS: '3650' };

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse())
    await Promise.resolve(cleanup()).catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
}

/** SQL on the benchmark's database, beside or between servers. */
interface Sql {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function openSql(url: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { query: async (text, params) => (await client.query(text, params)).rows, close: () => client.end() };
}

/**
 * The backlog, written as the webhook worker and the audit log write them, all of it past the
 * default periods: deliveries finished 60 days ago and more (one in ten given up), two attempts
 * each, and audit entries of 400 days ago and more. One statement each (generate_series).
 */
async function fillBacklog(sql: Sql, accountId: string, endpointId: string, eventId: string) {
  await sql.query(
    `insert into webhook_deliveries (account_id, endpoint_id, event_id, status, attempts, created_at, updated_at)
     select $1, $2, $3, case when i % 10 = 0 then 'failed' else 'succeeded' end, 2,
            now() - interval '60 days' - make_interval(secs => i), now() - interval '60 days' - make_interval(secs => i)
     from generate_series(1, $4::int) i`,
    [accountId, endpointId, eventId, DELIVERIES],
  );
  await sql.query(
    `insert into webhook_attempts (account_id, delivery_id, status_code, duration_ms, attempted_at)
     select d.account_id, d.id, code, 40, d.updated_at
     from webhook_deliveries d, (values (503), (200)) as a(code)
     where d.account_id = $1 and d.status <> 'pending'`,
    [accountId],
  );
  await sql.query(
    `insert into audit_log (account_id, at, actor_type, actor_name, action, object_type)
     select $1, now() - interval '400 days' - make_interval(secs => i), 'operator', 'bench', 'webhook.created', 'webhook'
     from generate_series(1, $2::int) i`,
    [accountId, AUDIT_ENTRIES],
  );
}

async function backlogLeft(sql: Sql, accountId: string) {
  const [row] = await sql.query<{ deliveries: number; attempts: number; audit: number }>(
    `select (select count(*) from webhook_deliveries where account_id = $1)::int as deliveries,
            (select count(*) from webhook_attempts where account_id = $1)::int as attempts,
            (select count(*) from audit_log where account_id = $1 and action = 'webhook.created' and actor_name = 'bench')::int as audit`,
    [accountId],
  );
  return row!;
}

/** Far past the job's two minutes on a 700,000-row backlog: a job that never says it ended ends the benchmark. */
const JOB_END_WAIT_MS = 20 * 60_000;

/**
 * The pruning job's first run, as the server logs it when it ends (retention.register.ts): what it
 * removed. A failing statement (`pruning failed`, with the reason) ends the benchmark, and so does no
 * line within JOB_END_WAIT_MS.
 */
async function jobEnd(logFile: string): Promise<unknown> {
  const giveUpAt = performance.now() + JOB_END_WAIT_MS;
  while (performance.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      if (line.includes('"pruning failed"')) throw new Error(`the job failed: ${line}`);
      if (line.includes('"pruning job: rows past their periods removed"')) return JSON.parse(line);
    }
  }
  throw new Error(
    `the job said nothing in ${JOB_END_WAIT_MS / 60_000} minutes; the server's last lines:\n` +
      readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join('\n'),
  );
}

/**
 * A p99 over thirteen times the asks reaches delays a short baseline's never could: the longer
 * phase's asks cut into runs of the baseline's count, each run's p99, the median and the worst.
 */
function windowedP99(asked: readonly { ms: number }[], size: number) {
  const inOrder = asked.map((ask) => ask.ms);
  const p99s: number[] = [];
  for (let i = 0; i + size <= inOrder.length; i += size)
    p99s.push(
      percentile(
        [...inOrder.slice(i, i + size)].sort((a, b) => a - b),
        99,
      ),
    );
  p99s.sort((a, b) => a - b);
  return `; p99 per ${size} asks (the baseline's count), ${p99s.length} runs: median ${percentile(p99s, 50).toFixed(1)} ms, worst ${(p99s.at(-1) ?? Number.NaN).toFixed(1)} ms`;
}

/** The observer's asks, with PostgreSQL's activity sampled beside them (bench/lib/db-activity.ts). */
async function watch(serverUrl: string, apiKey: string, databaseUrl: string) {
  const stopSampling = await sampleActivity(databaseUrl);
  const stopObserving = observe(serverUrl, apiKey);
  return async () => {
    const seen = await stopObserving();
    return { ...seen, activity: attribute(seen.asked, await stopSampling()) };
  };
}

const report = (phase: string, seen: { latencies: number[]; failures: number; activity: string }, extra = '') => {
  log(
    `${phase.padEnd(12)} observer p50 ${percentile(seen.latencies, 50).toFixed(1)} ms, p99 ${percentile(seen.latencies, 99).toFixed(1)} ms, ` +
      `worst ${(seen.latencies.at(-1) ?? Number.NaN).toFixed(0)} ms over ${seen.latencies.length} asks, ${seen.failures} failed${extra}`,
  );
  log(`${''.padEnd(12)} asks by what PostgreSQL was doing meanwhile: ${seen.activity}`);
};

async function main() {
  log(`retention under load: ${DELIVERIES} deliveries, ${AUDIT_ENTRIES} audit entries, npm start on PostgreSQL`);
  log(`machine: ${describeMachine()}`);
  log(`before:  ${describeLoad()}`);
  const database = await scratchDatabase(log);
  cleanups.push(database.drop);
  const baseEnv = { ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_URL: database.url };
  const start = async (env: Record<string, string>) => {
    const server = await startServerProcess({ env: { ...baseEnv, ...env }, warm: true });
    const stop = async () => {
      await server.stop();
      rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    };
    cleanups.push(stop);
    return { server, stop: () => stop().finally(() => cleanups.splice(cleanups.indexOf(stop), 1)) };
  };

  // The accounts and the endpoint, through the API of a server that keeps everything.
  let current = await start(KEEP_ALL);
  const observer = await createAccount(current.server, ADMIN_TOKEN, 'Observer');
  const owner = await createAccount(current.server, ADMIN_TOKEN, 'Backlog');
  const endpoint = await api(current.server, owner.apiKey, 'POST', '/webhooks', {
    url: 'https://hooks.example.com/dakiya',
    events: ['shipment.delivered'],
  });
  await current.stop();

  const accountId = owner.accountId;
  let sql = await openSql(database.url);
  // One event for the deliveries to be of: a kind no consumer acts on.
  const [{ id: eventId }] = (await sql.query<{ id: string }>(
    `insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at)
     values ($1, 'bench.backlog', 'webhook', $2, 1, '{}', now() - interval '61 days') returning id`,
    [accountId, endpoint.id],
  )) as [{ id: string }];
  const filling = performance.now();
  await fillBacklog(sql, accountId, endpoint.id as string, eventId);
  const filled = await backlogLeft(sql, accountId);
  log(
    `backlog: ${filled.deliveries} deliveries, ${filled.attempts} attempts, ${filled.audit} audit entries in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
  );
  await sql.close();

  current = await start(KEEP_ALL);
  let stopObserving = await watch(current.server.url, observer.apiKey, database.url);
  await new Promise((resolve) => setTimeout(resolve, BASELINE_MS));
  const baseline = await stopObserving();
  report('baseline', baseline);
  await current.stop();

  // The job prunes at start; the observer runs from the first answer until the backlog is gone.
  const jobStarted = performance.now();
  current = await start({});
  stopObserving = await watch(current.server.url, observer.apiKey, database.url);
  // The job's end is read from the server's log, not by counting the tables as it goes: counting
  // 700,000 rows four times a second was load of the benchmark's own, charged to the job.
  const jobRun = await jobEnd(current.server.logFile);
  sql = await openSql(database.url);
  const left = await backlogLeft(sql, accountId);
  if (left.deliveries + left.attempts + left.audit > 0)
    throw new Error(`the job's run ended with rows left: ${JSON.stringify(left)}; it said ${JSON.stringify(jobRun)}`);
  const jobSeconds = (performance.now() - jobStarted) / 1000;
  const rows = filled.deliveries + filled.attempts + filled.audit;
  const job = await stopObserving();
  report(
    'the job',
    job,
    `; ${rows} rows pruned in ${jobSeconds.toFixed(1)} s from spawn (${(rows / jobSeconds).toFixed(0)} rows/s)` +
      windowedP99(job.asked, baseline.latencies.length),
  );

  // The same backlog again on the same server, whose job's next run is an hour away: pruned on
  // demand by the operator's route, without the job's pauses.
  await fillBacklog(sql, accountId, endpoint.id as string, eventId);
  await sql.close();
  stopObserving = await watch(current.server.url, observer.apiKey, database.url);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const asked = performance.now();
  const pruned = await api(current.server, `Bearer ${ADMIN_TOKEN}`, 'POST', '/retention/prune', undefined, '/admin/v1');
  const onDemandSeconds = (performance.now() - asked) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  report(
    'on demand',
    await stopObserving(),
    `; answered after ${onDemandSeconds.toFixed(1)} s (${(rows / onDemandSeconds).toFixed(0)} rows/s): ${JSON.stringify((pruned as { pruned: unknown }).pruned)}`,
  );
  await current.stop();
  log(`after:   ${describeLoad()}`);
}

async function api(
  server: ServerProcess,
  credential: string,
  method: string,
  route: string,
  body?: unknown,
  prefix = '/custom/api/v1',
): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${prefix}${route}`, {
    method,
    headers: {
      authorization: credential,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

try {
  await main();
} finally {
  await cleanUp();
}
