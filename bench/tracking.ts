/**
 * Tracking by AWB against a bare server reading the same rows (issue 54: the hot reads the checkout
 * and the panel use):
 *
 *   npm run bench:tracking
 *
 * `npm start` on a fresh PostgreSQL database `dakiya_bench_<random>` (default logging, the workers
 * in the process), one parcel booked on the sandbox courier and carried to delivery by the tracking
 * poller (a step of half a second), so its tracking has the scans a delivered parcel has. Then
 * BENCH_ROUNDS (3) rounds at BENCH_CONNECTIONS (20), each BENCH_WARMUP (3) s unrecorded and
 * BENCH_DURATION (10) s recorded, autocannon in a child process:
 * - the bare baseline (bench/lib/tracking-baseline.ts: `node:http` + `pg`, three prepared
 *   statements, the answer written with JSON.stringify), `POST {"awbs": [awb]}`;
 * - Dakiya's `POST /custom/api/v1/order-tracking` with the same body;
 * - Dakiya's tracking page, `GET /t/<token>` (no baseline: the page is HTML of our own).
 * Requests/s, p99 and CPU per request of the server's process and the database's backends; the
 * ratio of Dakiya's requests/s to the baseline's, per round and its median.
 */
import pg from 'pg';
import { createAccount, startServerProcess } from '../test/server-process.js';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { startBaselineProcess } from './lib/baseline-process.js';
import { backendPids, ORCHESTRATE, post } from './lib/booking-server.js';
import { formatLoadResult, type LoadResult, loadSettings, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { BENCH_WAREHOUSE, benchOrder } from './lib/order-body.js';
import { scratchDatabase } from './lib/scratch-database.js';
import { median, medianAndSpread } from './lib/stats.js';

const { rounds, ...settings } = loadSettings(3, 20);
const STEP_SECONDS = '0.5';
const DELIVERED_WITHIN_MS = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const database = await scratchDatabase(console.log);
  const deadline = setTimeout(
    () => {
      console.error('bench:tracking: still running long after the planned time; giving up.');
      void database.drop().finally(() => process.exit(2));
    },
    (rounds * 3 * (settings.warmupSeconds + settings.durationSeconds + 30) + 600) * 1000,
  );
  deadline.unref();
  console.log(`machine:  ${describeMachine()}`);
  console.log(`before:   ${describeLoad()}`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const server = await startServerProcess({
    warm: true,
    env: {
      DATABASE_URL: database.url,
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '100000000',
      SANDBOX_STEP_SECONDS: STEP_SECONDS,
      TRACKING_POLL_SECONDS: STEP_SECONDS,
      SANDBOX_SCENARIOS: Array(10).fill('delivered').join(','),
      // The page's limit per client address (300 a minute) is what a load from one address meets first.
      TRACKING_PAGE_RATE_PER_MINUTE: '0',
    },
  });
  let baseline: Awaited<ReturnType<typeof startBaselineProcess>> | undefined;
  try {
    const { accountId, apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, 'Tracking benchmark');
    const warehouse = await post(`${server.url}/custom/api/v1/warehouse`, apiKey, BENCH_WAREHOUSE);
    const booked = await post<{ payload: { awb_code: string; shipment_id: string } }>(
      `${server.url}${ORCHESTRATE}`,
      apiKey,
      benchOrder(warehouse.json.payload.warehouse_id!, 'TRACK-1'),
    );
    const awb = booked.json.payload.awb_code;
    const waitedFrom = performance.now();
    let parcel: { status: string; track_token: string; scans: number } | undefined;
    while (parcel?.status !== 'delivered') {
      if (performance.now() - waitedFrom > DELIVERED_WITHIN_MS)
        throw new Error(`the parcel was not delivered within ${DELIVERED_WITHIN_MS / 1000} s: ${parcel?.status}`);
      await sleep(500);
      [parcel] = (
        await client.query(
          `select s.status, s.track_token, (select count(*)::int from tracking_events t where t.shipment_id = s.id) as scans
             from shipments s where s.awb = $1`,
          [awb],
        )
      ).rows;
    }
    const body = JSON.stringify({ awbs: [awb] });
    const ours = await post(`${server.url}/custom/api/v1/order-tracking`, apiKey, { awbs: [awb] });
    baseline = await startBaselineProcess('tracking-baseline.ts', {
      DATABASE_URL: database.url,
      ACCOUNT_ID: accountId,
    });
    const bare = await (await fetch(baseline.url, { method: 'POST', body })).text();
    console.log(
      `parcel:   ${awb} delivered with ${parcel.scans} scans; answers ${Buffer.byteLength(ours.text)} bytes (Dakiya), ${Buffer.byteLength(bare)} (baseline)`,
    );
    console.log(`server:   npm start (serving pid ${server.serverPid}), PostgreSQL, default logging to a file\n`);

    const backends = backendPids(client);
    const load = (title: string, url: string, pid: number, method: 'GET' | 'POST' = 'POST') =>
      runLoad(
        {
          title,
          url,
          method,
          headers:
            method === 'POST' ? { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } : undefined,
          body: method === 'POST' ? body : undefined,
          ...settings,
        },
        { server: () => [pid], database: backends },
      );
    const results: { bare: LoadResult; ours: LoadResult; page: LoadResult }[] = [];
    for (let round = 1; round <= rounds; round++) {
      console.log(`round ${round}: ${describeLoad()}`);
      const result = {
        bare: await load('  bare node:http + pg', baseline.url, baseline.pid),
        ours: await load('  POST /order-tracking', `${server.url}/custom/api/v1/order-tracking`, server.serverPid),
        page: await load('  GET /t/<token> (page)', `${server.url}/t/${parcel.track_token}`, server.serverPid, 'GET'),
      };
      for (const run of Object.values(result)) {
        if (run.non2xx > 0 || run.errors > 0)
          throw new Error(`${run.title}: ${run.non2xx} non-2xx, ${run.errors} errors`);
        console.log(formatLoadResult(run, 30));
      }
      console.log(`  ratio ${(result.ours.requestsPerSecond / result.bare.requestsPerSecond).toFixed(2)}×`);
      results.push(result);
    }
    const ratios = results.map((r) => r.ours.requestsPerSecond / r.bare.requestsPerSecond);
    const cpu = (pick: (r: (typeof results)[number]) => LoadResult) =>
      `${median(results.map((r) => pick(r).serverCpuMicrosPerRequest)).toFixed(0)} µs server + ${median(
        results.map((r) => pick(r).databaseCpuMicrosPerRequest ?? 0),
      ).toFixed(0)} µs PostgreSQL`;
    console.log(`\nafter:    ${describeLoad()}`);
    console.log(`POST /order-tracking / bare: ${medianAndSpread(ratios, 2)}× (median of ${rounds} rounds)`);
    console.log(
      `CPU per request: Dakiya ${cpu((r) => r.ours)}; bare ${cpu((r) => r.bare)}; page ${cpu((r) => r.page)}`,
    );
  } finally {
    await baseline?.stop();
    await server.stop();
    await client.end();
    await database.drop();
  }
}

await main();
