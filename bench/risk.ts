/**
 * What the address checks and the RTO risk score add to a booking (issue 29: under 2 ms at p99):
 * POST /custom/api/v1/forward-order-orchestration on two `npm start` servers on one PostgreSQL
 * database, one with RTO_CHECKS=true (the default) and one with RTO_CHECKS=false, alternating.
 *
 *   npm run bench:risk
 *
 * Both servers run as users run them (their own processes, default logging to a file, the workers
 * running). One account books on both; before timing, its rto_history is filled with BENCH_HISTORY
 * (200,000) rows of other buyers and areas plus the bench order's own buyer, pincode and district,
 * so the booking's history read finds real rows in a real-sized index. BENCH_ROUNDS (3) rounds,
 * each checks off then on: autocannon in a child process, BENCH_CONNECTIONS (4) connections (a
 * latency measure, not a throughput one: few enough that the queue does not hide the difference),
 * BENCH_WARMUP (3) s, BENCH_DURATION (10) s recorded. Printed per round: each side's bookings/s
 * and latency; then the medians of p50 and p99 with checks on and off and their difference.
 *
 * A fresh database `dakiya_bench_<random>` on BENCH_POSTGRES_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres, loopback only), dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { benchSetting, formatLoadResult, type LoadResult, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { benchOrder } from './lib/order-body.js';
import { median } from './lib/stats.js';
import { createAccount, type ServerProcess, startServerProcess } from '../test/server-process.js';

const ORCHESTRATE = '/custom/api/v1/forward-order-orchestration';
const ORDER_ID_TOKEN = '__ORDER_ID__';
const BUDGET_MS = 2;
/** A day between sandbox scans: no tracking update lands in the timed bookings. */
const SANDBOX_QUIET = '86400';

const settings = {
  connections: benchSetting('BENCH_CONNECTIONS', 4),
  warmupSeconds: benchSetting('BENCH_WARMUP', 3),
  durationSeconds: benchSetting('BENCH_DURATION', 10),
};
const rounds = Math.max(1, Math.round(benchSetting('BENCH_ROUNDS', 3)));
const historyRows = Math.round(benchSetting('BENCH_HISTORY', 200_000));

async function post(url: string, apiKey: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

const startServer = (databaseUrl: string, checks: boolean) =>
  startServerProcess({
    env: {
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '100000000',
      SANDBOX_STEP_SECONDS: SANDBOX_QUIET,
      RTO_CHECKS: String(checks),
    },
  });

/** Other buyers' and areas' outcomes, and the bench order's own (its buyer had one RTO), so every lookup finds a row. */
async function fillHistory(client: pg.Client, accountId: string) {
  await client.query(
    `insert into rto_history (account_id, kind, key, delivered, rto, refused)
     select $1, (array['phone', 'pincode', 'district'])[1 + i % 3], 'k' || i, i % 7, i % 3, i % 2 from generate_series(1, $2) i`,
    [accountId, historyRows],
  );
  await client.query(
    `insert into rto_history (account_id, kind, key, delivered, rto, refused)
     values ($1, 'phone', '9123456780', 3, 1, 1), ($1, 'pincode', '400001', 40, 9, 4), ($1, 'district', 'Maharashtra|Mumbai', 900, 150, 60)`,
    [accountId],
  );
  await client.query('analyze rto_history');
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
  const deadline = setTimeout(
    () => {
      console.error('bench:risk: still running long after the planned time; giving up.');
      dropDatabase().finally(() => process.exit(2));
    },
    rounds * 2 * (settings.warmupSeconds + settings.durationSeconds + 60) * 1000 + 300_000,
  );
  deadline.unref();

  console.log(`machine:  ${describeMachine()}`);
  console.log(`load:     autocannon in a child process, ${settings.connections} connections, ${settings.durationSeconds} s after a ${settings.warmupSeconds} s warm-up, 127.0.0.1`);
  console.log(`request:  POST ${ORCHESTRATE}, COD, unique order_id each; RTO_CHECKS=false then true each round; rto_history ${historyRows.toLocaleString('en-US')} rows`);
  console.log(`before:   ${describeLoad()}\n`);

  await admin.query(`create database ${databaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.toString();
  const servers: ServerProcess[] = [];
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    // The first server migrates the database; the second starts on it.
    const on = await startServer(databaseUrl, true);
    servers.push(on);
    const off = await startServer(databaseUrl, false);
    servers.push(off);
    await client.connect();
    const { apiKey, accountId } = await createAccount(on, BENCH_ADMIN_TOKEN, 'Risk benchmark');
    await fillHistory(client, accountId);
    const warehouse = await post(`${on.url}/custom/api/v1/warehouse`, apiKey, {
      name: 'Koramangala Fulfilment',
      phone_number: '080 4123 4567',
      address_attributes: { street_address: '80 Feet Road', zip: '560001', city: 'Bengaluru', state: 'Karnataka', country: 'India' },
    });
    const warehouseId = warehouse.payload.warehouse_id as string;
    const probeOn = await post(`${on.url}${ORCHESTRATE}`, apiKey, benchOrder(warehouseId, `probe-on-${randomBytes(3).toString('hex')}`));
    const probeOff = await post(`${off.url}${ORCHESTRATE}`, apiKey, benchOrder(warehouseId, `probe-off-${randomBytes(3).toString('hex')}`));
    // Check each server does what its side claims before timing it.
    if (probeOn.payload.rto_risk === null || probeOff.payload.rto_risk !== null) {
      throw new Error(`probe bookings: checks on gave ${probeOn.payload.rto_risk}, checks off gave ${probeOff.payload.rto_risk}`);
    }
    console.log(`probe:    checks on: ${probeOn.payload.rto_risk} risk, score ${probeOn.payload.rto_risk_score}, address ${probeOn.payload.address_validity}\n`);

    const load = (title: string, server: ServerProcess) => ({
      title,
      url: `${server.url}${ORCHESTRATE}`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(benchOrder(warehouseId, ORDER_ID_TOKEN)),
      uniqueToken: ORDER_ID_TOKEN,
      ...settings,
    });
    const results: { off: LoadResult; on: LoadResult }[] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`round ${round}: ${describeLoad()}`);
      const withoutChecks = await runLoad(load('  RTO_CHECKS=false', off), { server: () => [off.serverPid] });
      console.log(formatLoadResult(withoutChecks, 24));
      const withChecks = await runLoad(load('  RTO_CHECKS=true', on), { server: () => [on.serverPid] });
      console.log(formatLoadResult(withChecks, 24));
      results.push({ off: withoutChecks, on: withChecks });
    }
    const p = (side: 'on' | 'off', key: 'latencyP50Ms' | 'latencyP99Ms') => median(results.map((r) => r[side][key]));
    const added = p('on', 'latencyP99Ms') - p('off', 'latencyP99Ms');
    console.log(`\n${rounds} rounds, medians:`);
    console.log(`  checks off  p50 ${p('off', 'latencyP50Ms').toFixed(2)} ms   p99 ${p('off', 'latencyP99Ms').toFixed(2)} ms`);
    console.log(`  checks on   p50 ${p('on', 'latencyP50Ms').toFixed(2)} ms   p99 ${p('on', 'latencyP99Ms').toFixed(2)} ms`);
    console.log(`  added       p50 ${(p('on', 'latencyP50Ms') - p('off', 'latencyP50Ms')).toFixed(2)} ms   p99 ${added.toFixed(2)} ms   (target: under ${BUDGET_MS} ms at p99: ${added < BUDGET_MS ? 'met' : 'NOT met'})`);
  } finally {
    for (const server of servers) {
      await server.stop();
      fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    }
    await client.end().catch(() => undefined);
    await dropDatabase();
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
