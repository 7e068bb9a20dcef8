/**
 * Bookings against the same rows written bare (issue 54):
 *
 *   npm run bench:bookings
 *
 * `npm start` on a fresh PostgreSQL database `dakiya_bench_<random>` (as bench:orders starts it:
 * default logging, the workers in the process), then:
 * 1. **What a booking writes.** After a warm-up, BENCH_PROFILE (5) s of bookings at
 *    BENCH_CONNECTIONS (20) connections; once the delivery thread has done all they set off and
 *    the backends have reported their counters, PostgreSQL's own statistics give the rows inserted,
 *    updated and deleted per booking in each table (triggers' rows included) and the transactions
 *    committed per booking, reads included; the workers' idle rounds over the same span (measured
 *    just before, with nothing to do) are left out.
 * 2. **The same rows, bare** (bench/lib/same-rows.ts, same-rows-baseline.ts): `node:http` + `pg`
 *    servers that per request write those rows and updates into clones of the same tables (same
 *    columns and indexes) in one transaction: one sends its prepared statements one at a time (a
 *    table's rows in one INSERT), as a bare server would: the target's baseline; the other makes
 *    one call of a PL/pgSQL function that runs them all (one round trip: what the rows cost
 *    PostgreSQL alone, the floor).
 * 3. BENCH_ROUNDS (3) rounds, each the two baselines then Dakiya, autocannon in a child process,
 *    BENCH_WARMUP (3) s unrecorded then BENCH_DURATION (10) s; bookings/s, p99, and CPU per booking
 *    of the server's process and of the database's backends; the ratio per round.
 * Last, the baselines' own writes per request, read the same way, to show they wrote the same rows.
 *
 * Target (issue 54): Dakiya at ≥ 0.8× the statements baseline's bookings/s.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startServerProcess } from '../test/server-process.js';
import { startBaselineProcess } from './lib/baseline-process.js';
import {
  backendPids,
  bookingServerEnv,
  drainBacklog,
  ORCHESTRATE,
  ORDER_ID_TOKEN,
  prepareBookingServer,
} from './lib/booking-server.js';
import { formatWrites, STATS_SETTLE_MS, writeSnapshot, writesPerBooking } from './lib/booking-writes.js';
import { benchSetting, formatLoadResult, type LoadResult, loadSettings, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { benchOrder } from './lib/order-body.js';
import { buildSameRows } from './lib/same-rows.js';
import { scratchDatabase } from './lib/scratch-database.js';
import { median, medianAndSpread } from './lib/stats.js';

const TARGET = 0.8;
// Twenty clients booking at once, as the booking benchmarks have always run.
const { rounds, ...settings } = loadSettings(3, 20);
const profileSeconds = benchSetting('BENCH_PROFILE', 5);
/** The target's baseline first: a bare server's statements; then the floor, every write in one call. */
const MODES = ['statements', 'function'] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const shipmentCount = async (client: pg.Client, schema: string) =>
  Number((await client.query<{ n: string }>(`select count(*) as n from ${schema}.shipments`)).rows[0]!.n);

async function main() {
  const started = Date.now();
  const database = await scratchDatabase(console.log);
  const deadline = setTimeout(
    () => {
      console.error('bench:bookings: still running long after the planned time; giving up.');
      void database.drop().finally(() => process.exit(2));
    },
    (rounds * 3 * (settings.warmupSeconds + settings.durationSeconds + 60) + 300) * 1000,
  );
  deadline.unref();
  console.log(`machine:  ${describeMachine()}`);
  console.log(`before:   ${describeLoad()}`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const server = await startServerProcess({ warm: true, env: bookingServerEnv(database.url) });
  const baselines: Awaited<ReturnType<typeof startBaselineProcess>>[] = [];
  try {
    const { apiKey, warehouseId, probeAnswer } = await prepareBookingServer(server, 'Bookings benchmark');
    const backends = backendPids(client);
    const load = (title: string, url: string, seconds: number, warmup: number) =>
      runLoad(
        {
          title,
          url,
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(benchOrder(warehouseId, ORDER_ID_TOKEN)),
          uniqueToken: ORDER_ID_TOKEN,
          connections: settings.connections,
          durationSeconds: seconds,
          warmupSeconds: warmup,
        },
        { server: () => [server.serverPid], database: backends },
      );
    const ours = `${server.url}${ORCHESTRATE}`;

    // 1. What a booking writes, with the workers' idle transactions over the same span left out.
    await load('warm-up', ours, settings.warmupSeconds, 0);
    await drainBacklog(client, async () => []);
    await sleep(STATS_SETTLE_MS);
    const idleFrom = await writeSnapshot(client, 'public');
    const idleStarted = performance.now();
    await sleep(STATS_SETTLE_MS);
    const idleTo = await writeSnapshot(client, 'public');
    const idlePerSecond =
      (idleTo.transactions - idleFrom.transactions - idleTo.ownStatements) / ((performance.now() - idleStarted) / 1000);
    const before = idleTo;
    const profileStarted = performance.now();
    const shipmentsBefore = await shipmentCount(client, 'public');
    console.log(formatLoadResult(await load('bookings counted', ours, profileSeconds, 0), 30));
    const drained = await drainBacklog(client, async () => []);
    const bookings = (await shipmentCount(client, 'public')) - shipmentsBefore;
    await sleep(STATS_SETTLE_MS);
    const after = await writeSnapshot(client, 'public');
    const span = (performance.now() - profileStarted) / 1000;
    // Statements of this benchmark in the span: two shipment counts, the drain's polls, the load's backend list.
    const writes = writesPerBooking(before, after, bookings, 2 + drained.statements + 1, idlePerSecond * span);
    console.log(
      `\n${bookings.toLocaleString('en-US')} bookings; the workers' idle rounds: ${idlePerSecond.toFixed(1)} transactions/s, ${(idlePerSecond * span).toFixed(0)} over the ${span.toFixed(0)} s left out`,
    );
    for (const line of formatWrites('Dakiya', writes)) console.log(line);

    // 2. The same rows, bare: the target's baseline (statements) and the floor (one call).
    const sameRows = await buildSameRows(client, writes.tables);
    for (const mode of MODES) {
      const started = await startBaselineProcess('same-rows-baseline.ts', {
        DATABASE_URL: database.url,
        SAME_ROWS_PLAN: JSON.stringify(sameRows),
        SAME_ROWS_MODE: mode,
        ANSWER_BYTES: String(Buffer.byteLength(probeAnswer)),
      });
      baselines.push(started);
      // Check it writes before timing it.
      const probe = await fetch(started.url, { method: 'POST', body: '{}' });
      if (probe.status !== 200) throw new Error(`the ${mode} baseline answered ${probe.status}: ${await probe.text()}`);
    }
    await sleep(STATS_SETTLE_MS);
    const bareBefore = await writeSnapshot(client, 'bare');
    const bareShipmentsBefore = await shipmentCount(client, 'bare');

    // 3. Rounds.
    const results: { bare: LoadResult[]; ours: LoadResult }[] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`\nround ${round}: ${describeLoad()}`);
      const bare: LoadResult[] = [];
      for (const [at, mode] of MODES.entries()) {
        const baseline = baselines[at]!;
        const result = await runLoad(
          {
            title: `  same rows, ${mode === 'function' ? 'one call' : 'statements'}`,
            url: baseline.url,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(benchOrder(warehouseId, ORDER_ID_TOKEN)),
            uniqueToken: ORDER_ID_TOKEN,
            ...settings,
          },
          { server: () => [baseline.pid], database: backends },
        );
        console.log(formatLoadResult(result, 30));
        bare.push(result);
      }
      const dakiya = await load('  Dakiya (npm start)', ours, settings.durationSeconds, settings.warmupSeconds);
      console.log(formatLoadResult(dakiya, 30));
      const backlog = await drainBacklog(client, async () => [server.serverPid, ...(await backends())]);
      console.log(
        `${''.padEnd(31)}ratio ${bare.map((b, at) => `${(dakiya.requestsPerSecond / b.requestsPerSecond).toFixed(2)} (${MODES[at]})`).join(', ')}; ` +
          `left for later: ${backlog.seconds.toFixed(1)} s, ${Math.round(backlog.cpuMicros / dakiya.requests)} µs of CPU per booking`,
      );
      results.push({ bare, ours: dakiya });
    }

    await sleep(STATS_SETTLE_MS);
    const bareAfter = await writeSnapshot(client, 'bare');
    const bareRequests = (await shipmentCount(client, 'bare')) - bareShipmentsBefore;
    const bareWrites = writesPerBooking(bareBefore, bareAfter, bareRequests, 0);
    console.log('');
    const bareLabel = 'the same-rows baselines, per request (their transactions: 1 per request, by construction)';
    for (const line of formatWrites(bareLabel, { ...bareWrites, transactions: 1 })) console.log(line);

    const cpu = (r: LoadResult) => r.serverCpuMicrosPerRequest + (r.databaseCpuMicrosPerRequest ?? 0);
    const rate = (r: LoadResult) => r.requestsPerSecond;
    console.log(`\n${rounds} rounds, median (min–max):`);
    for (const [at, mode] of MODES.entries()) {
      const runs = results.map((r) => r.bare[at]!);
      console.log(
        `  same rows, ${mode.padEnd(10)}  ${medianAndSpread(runs.map(rate))} bookings/s, CPU ${medianAndSpread(runs.map(cpu))} µs per booking (server and PostgreSQL); ` +
          `Dakiya ${medianAndSpread(
            results.map((r) => rate(r.ours) / rate(r.bare[at]!)),
            2,
          )}× it`,
      );
    }
    console.log(
      `  Dakiya                 ${medianAndSpread(results.map((r) => rate(r.ours)))} bookings/s, CPU ${medianAndSpread(results.map((r) => cpu(r.ours)))} µs per booking; p99 ${medianAndSpread(results.map((r) => r.ours.latencyP99Ms))} ms`,
    );
    const ratio = median(results.map((r) => rate(r.ours) / rate(r.bare[0]!)));
    console.log(
      `target:   ≥ ${TARGET}× the same rows written bare (statements): ${ratio >= TARGET ? 'met' : 'MISSED'} (${ratio.toFixed(2)})`,
    );
    if (results.some((r) => [r.ours, ...r.bare].some((x) => x.non2xx + x.errors > 0))) {
      console.error('invalid run: errors or non-2xx answers');
      process.exitCode = 1;
    }
  } finally {
    for (const baseline of baselines) await baseline.stop();
    await server.stop();
    await client.end();
    await database.drop();
    fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    console.log(`after:    ${describeLoad()}; ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

await main();
process.exit();
