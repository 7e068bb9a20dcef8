/**
 * What the address checks and the RTO risk score add to a booking (issue 29: under 2 ms at p99):
 * POST /custom/api/v1/forward-order-orchestration on two `npm start` servers on one PostgreSQL
 * database, one with RTO_CHECKS=true (the default) and one with RTO_CHECKS=false.
 *
 *   npm run bench:risk
 *
 * Both servers run as users run them (their own processes, default logging to a file, the workers
 * running). One account books on both; before timing, its rto_history is filled with BENCH_HISTORY
 * (200,000) rows of other buyers and areas plus the bench order's own buyer, pincode and district,
 * so the booking's history read finds real rows in a real-sized index.
 *
 * The claim is about a booking's latency, so the bookings are not queued behind one another: one
 * client sends them one at a time on a kept-alive connection to each server, alternating between
 * the two (checks on, off, off, on, ...), so a change in the machine's load falls on both sides
 * alike; each is timed with performance.now() from the request's first byte to the answer's last
 * (microseconds, where autocannon's histogram counts whole milliseconds). BENCH_ROUNDS (3) rounds
 * of BENCH_BOOKINGS (1,000) per side after BENCH_WARMUP_BOOKINGS (200) per side untimed. Printed
 * per round: each side's p50, p99 and p99.9, and each server's CPU per booking (from /proc);
 * then the medians of the rounds and the difference. What the checks cost a saturated server is
 * the CPU line, and `npm run bench:orders` measures throughput.
 *
 * A fresh database `dakiya_bench_<random>` on BENCH_POSTGRES_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres, loopback only), dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { benchSetting, processCpuMicros } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { ORCHESTRATE, post } from './lib/booking-server.js';
import { BENCH_WAREHOUSE, benchOrder } from './lib/order-body.js';
import { median, percentile } from './lib/stats.js';
import { createAccount, type ServerProcess, startServerProcess } from '../test/server-process.js';

/** The probe bookings' fields this benchmark reads. */
interface Probe {
  payload: { rto_risk: string | null; rto_risk_score: number | null; address_validity: string | null };
}
const BUDGET_MS = 2;
/** A day between sandbox scans: no tracking update lands in the timed bookings. */
const SANDBOX_QUIET = '86400';

const rounds = Math.max(1, Math.round(benchSetting('BENCH_ROUNDS', 3)));
const bookingsPerSide = Math.max(100, Math.round(benchSetting('BENCH_BOOKINGS', 1_000)));
const warmupPerSide = Math.max(0, Math.round(benchSetting('BENCH_WARMUP_BOOKINGS', 200)));
const historyRows = Math.round(benchSetting('BENCH_HISTORY', 200_000));

const startServer = (databaseUrl: string, checks: boolean) =>
  startServerProcess({
    warm: true,
    env: {
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '100000000',
      SANDBOX_STEP_SECONDS: SANDBOX_QUIET,
      RTO_CHECKS: String(checks),
    },
  });

/** A server and the connection the bookings reach it on. */
interface Side {
  name: string;
  server: ServerProcess;
  agent: http.Agent;
}

/** One booking on the side's kept-alive connection; its time in milliseconds (microsecond resolution). */
function timedBooking(side: Side, apiKey: string, body: string): Promise<number> {
  const url = new URL(`${side.server.url}${ORCHESTRATE}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: side.agent,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const elapsed = performance.now() - started;
          if (res.statusCode !== 200)
            reject(new Error(`${side.name}: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8')}`));
          else resolve(elapsed);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface SideRound {
  p50: number;
  p99: number;
  p999: number;
  cpuMicrosPerBooking: number;
}

/**
 * `count` bookings per side, alternating on, off, off, on, ... so neither side is always first;
 * returns each side's latencies (sorted) and its server's CPU per booking over the round.
 */
async function alternate(sides: [Side, Side], apiKey: string, warehouseId: string, count: number, label: string) {
  const times: [number[], number[]] = [[], []];
  const cpuBefore = sides.map((side) => processCpuMicros([side.server.serverPid]).get(side.server.serverPid) ?? 0);
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) {
      const body = JSON.stringify(benchOrder(warehouseId, `${label}-${which}-${i}-${randomBytes(3).toString('hex')}`));
      times[which]!.push(await timedBooking(sides[which]!, apiKey, body));
    }
  }
  return sides.map((side, which): SideRound => {
    const sorted = times[which]!.sort((a, b) => a - b);
    const cpu = (processCpuMicros([side.server.serverPid]).get(side.server.serverPid) ?? 0) - cpuBefore[which]!;
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      p999: percentile(sorted, 99.9),
      cpuMicrosPerBooking: cpu / count,
    };
  }) as [SideRound, SideRound];
}

const ms = (value: number) => `${value.toFixed(2).padStart(6)} ms`;
const formatSide = (name: string, r: SideRound) =>
  `  ${name.padEnd(18)} p50 ${ms(r.p50)}   p99 ${ms(r.p99)}   p99.9 ${ms(r.p999)}   server CPU ${r.cpuMicrosPerBooking.toFixed(0).padStart(5)} µs/booking`;

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
    rounds * 2 * (bookingsPerSide + warmupPerSide) * 100 + 300_000,
  );
  deadline.unref();
  const agents: http.Agent[] = [];

  console.log(`machine:  ${describeMachine()}`);
  console.log(
    `load:     one client, one booking at a time, alternating between the servers on kept-alive connections, 127.0.0.1`,
  );
  console.log(
    `request:  POST ${ORCHESTRATE}, COD, unique order_id each; ${rounds} rounds of ${bookingsPerSide.toLocaleString('en-US')} per side after ${warmupPerSide} per side untimed; rto_history ${historyRows.toLocaleString('en-US')} rows`,
  );
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
    const warehouse = await post(`${on.url}/custom/api/v1/warehouse`, apiKey, BENCH_WAREHOUSE);
    const warehouseId = warehouse.json.payload.warehouse_id!;
    const probeOn = await post<Probe>(
      `${on.url}${ORCHESTRATE}`,
      apiKey,
      benchOrder(warehouseId, `probe-on-${randomBytes(3).toString('hex')}`),
    );
    const probeOff = await post<Probe>(
      `${off.url}${ORCHESTRATE}`,
      apiKey,
      benchOrder(warehouseId, `probe-off-${randomBytes(3).toString('hex')}`),
    );
    // Check each server does what its side claims before timing it.
    if (probeOn.json.payload.rto_risk === null || probeOff.json.payload.rto_risk !== null) {
      throw new Error(
        `probe bookings: checks on gave ${probeOn.json.payload.rto_risk}, checks off gave ${probeOff.json.payload.rto_risk}`,
      );
    }
    console.log(
      `probe:    checks on: ${probeOn.json.payload.rto_risk} risk, score ${probeOn.json.payload.rto_risk_score}, address ${probeOn.json.payload.address_validity}\n`,
    );

    const sides: [Side, Side] = [
      { name: 'RTO_CHECKS=true', server: on, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) },
      { name: 'RTO_CHECKS=false', server: off, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) },
    ];
    agents.push(...sides.map((side) => side.agent));
    await alternate(sides, apiKey, warehouseId, warmupPerSide, 'warmup');
    const results: [SideRound, SideRound][] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`round ${round}: ${describeLoad()}`);
      const result = await alternate(sides, apiKey, warehouseId, bookingsPerSide, `round${round}`);
      for (const [which, side] of sides.entries()) console.log(formatSide(side.name, result[which]!));
      console.log(
        `  ${'added'.padEnd(18)} p50 ${ms(result[0].p50 - result[1].p50)}   p99 ${ms(result[0].p99 - result[1].p99)}`,
      );
      results.push(result);
    }
    const m = (which: 0 | 1, key: keyof SideRound) => median(results.map((r) => r[which][key]));
    console.log(`\n${rounds} rounds, medians:`);
    console.log(
      formatSide('checks off', {
        p50: m(1, 'p50'),
        p99: m(1, 'p99'),
        p999: m(1, 'p999'),
        cpuMicrosPerBooking: m(1, 'cpuMicrosPerBooking'),
      }),
    );
    console.log(
      formatSide('checks on', {
        p50: m(0, 'p50'),
        p99: m(0, 'p99'),
        p999: m(0, 'p999'),
        cpuMicrosPerBooking: m(0, 'cpuMicrosPerBooking'),
      }),
    );
    const added = m(0, 'p99') - m(1, 'p99');
    console.log(
      `  added              p50 ${ms(m(0, 'p50') - m(1, 'p50'))}   p99 ${ms(added)}   server CPU ${(m(0, 'cpuMicrosPerBooking') - m(1, 'cpuMicrosPerBooking')).toFixed(0)} µs/booking` +
        `   (target: under ${BUDGET_MS} ms at p99: ${added < BUDGET_MS ? 'met' : 'NOT met'})`,
    );
  } finally {
    for (const agent of agents) agent.destroy();
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
