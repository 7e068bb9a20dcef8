// Bloat after a month of updates (issue 52): a month of an account's parcels booked through the API
// of a server started as `npm start` runs it, on a scratch PostgreSQL database that already holds a
// year (dakiya_bench_year_bloat_*, dropped at the end; BENCH_KEEP=1 keeps it after a run that
// succeeded). Each parcel goes through its sandbox scenario (delivered, NDR then delivered, RTO,
// lost: by its order id's last digit), its scans pulled by the tracking poller, its e-mail and
// webhooks written and sent; the retention and anonymisation jobs do a month's work on the year.
// Autovacuum acts as on a live install; then every table's size is read as autovacuum left it and
// again compacted (VACUUM FULL): the difference is the month's bloat.
//
//   npm run bench:bloat                                       200 parcels a day for 30 days on a year of 200 a day
//   npm run bench:bloat -- --base-days=0 --days=3             600 parcels on an empty database: a quick check
//   options: --parcels-per-day=200 --days=30 --base-days=365 --rate=4 --connections=4 --step-seconds=60
//            --poll-seconds=0.5 --seed=20261127 --month-jobs=0 (no retention and anonymisation month)
//
// The base year is filled by fillYear (bench/lib/year-traffic.ts) with the server stopped, pruned to
// the default periods by the server (as bench/year.ts catches up), then compacted and vacuumed, so
// the month starts from tight tables and every byte of free space after it is the month's.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { type ServerProcess, startServerProcess } from '../test/server-process.js';
import {
  anonymisedSince,
  bookMonth,
  monthPeriods,
  scansPerPull,
  waitDrained,
  waitFinished,
} from './lib/bloat-month.js';
import {
  describeMonth,
  describeTotals,
  keepAutovacuum,
  overThreshold,
  readSettings,
  readSnapshot,
} from './lib/bloat-stats.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import {
  benchArgs,
  cleanupStack,
  log,
  bookShipments,
  makeMerchant,
  settle,
  startReceiver,
  withClient,
  yearDatabase,
} from './lib/year-setup.js';
import { describeFill, fillYear } from './lib/year-traffic.js';
import { compact, pruneOnce } from './lib/year-prune.js';

const args = benchArgs();
const PER_DAY = Number(args['parcels-per-day'] ?? 200);
const DAYS = Number(args.days ?? 30);
const BASE_DAYS = Number(args['base-days'] ?? 365);
const SEED = Number(args.seed ?? 20261127);
/**
 * Bookings a second, and the sandbox's seconds between scans. The sandbox asks about a parcel once
 * a step, so a pull that comes late brings two scans (and updates the shipment once for both); a
 * live month's pulls (every 15–60 min) come between scans hours apart. The poller keeps up with
 * about 5 pulls a parcel (its scans) times the rate, plus the lost parcels (never final) once a
 * step each: at 10 a second and 20 s steps, 60–80 pulls a second, more than a loaded 2-CPU machine
 * gave (28 a second; 1.91 scans a pull). At 4 a second and 60 s steps, about 30. The run prints
 * the scans per pull it got.
 */
const RATE = Number(args.rate ?? 4);
const CONNECTIONS = Number(args.connections ?? 4);
const STEP_SECONDS = Number(args['step-seconds'] ?? 60);
const POLL_SECONDS = Number(args['poll-seconds'] ?? 0.5);
const MONTH = PER_DAY * DAYS;
/** Retention and anonymisation need a year under the month, and a period of at least 30 days left. */
const MONTH_JOBS = args['month-jobs'] !== '0' && BASE_DAYS >= DAYS + 30;
const ANONYMISE_DAYS = MONTH_JOBS ? BASE_DAYS - DAYS : undefined;
const FINISH_MS = 20 * 60_000;
const DRAIN_MS = 15 * 60_000;
const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString('hex')}`;
const WATCHDOG_MS = 2 * 60 * 60_000;

const { cleanups, cleanUp } = cleanupStack();

async function start(url: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({
    env: {
      DATABASE_URL: url,
      ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '100000000',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // A sandbox parcel is due again a step after each pull, whatever TRACKING_POLL_SECONDS says
      // (that spaces real couriers' pulls); the poller looks for due rows at the shorter of the two.
      SANDBOX_STEP_SECONDS: String(STEP_SECONDS),
      TRACKING_POLL_SECONDS: String(POLL_SECONDS),
      ...env,
    },
    warm: true,
    timeoutMs: 600_000,
  });
  const stop = async () => {
    await server.stop();
    rmSync(path.dirname(server.logFile), { recursive: true, force: true });
  };
  cleanups.push(stop);
  return { ...server, stop: () => stop().then(() => ({ serverExited: true, exitCode: 0 })) };
}

const pruned = (report: Record<string, number>) =>
  Object.entries(report)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
    .join(', ') || 'nothing';

async function main() {
  const watchdog = setTimeout(() => {
    log(`watchdog: ${WATCHDOG_MS / 60_000} minutes passed; cleaning up`);
    void cleanUp().finally(() => process.exit(2));
  }, WATCHDOG_MS);
  watchdog.unref();
  log(
    `a month: ${PER_DAY} parcels a day for ${DAYS} days (${MONTH.toLocaleString('en-US')} shipments) at ${RATE} bookings/s from ${CONNECTIONS} clients, sandbox step ${STEP_SECONDS} s, poller every ${POLL_SECONDS} s; ` +
      `base: ${BASE_DAYS > 0 ? `${PER_DAY} a day for ${BASE_DAYS} days` : 'none'}; month's retention and anonymisation: ${MONTH_JOBS ? 'yes' : 'no'}`,
  );
  log(`machine: ${describeMachine()}`);
  log(`before:  ${describeLoad()}`);
  const receiver = await startReceiver();
  cleanups.push(receiver.close);
  const database = await yearDatabase('bloat');
  let succeeded = false;
  cleanups.push(() =>
    succeeded && process.env.BENCH_KEEP === '1' ? log(`kept: ${database.name} (drop it yourself)`) : database.drop(),
  );
  log(`database ${database.name}`);
  // Nothing of the year is anonymised before the month: its month of due buyers is made due then.
  const yearEnv = { BUYER_DATA_ANONYMISE_DAYS: '3650' };
  let server = await start(database.url, yearEnv);
  const merchant = await makeMerchant(server, ADMIN_TOKEN, receiver.url);
  await bookShipments(server, merchant, 5, 'SEED');
  await settle(database.url, merchant.accountId, log);
  await server.stop();
  if (BASE_DAYS > 0) {
    const report = await withClient(database.url, (client) =>
      fillYear(client, {
        accountId: merchant.accountId,
        warehouseId: merchant.warehouseId,
        storeId: merchant.storeId,
        parcelsPerDay: PER_DAY,
        days: BASE_DAYS,
        seed: SEED,
        log,
      }),
    );
    for (const line of describeFill(report)) log(`base: ${line}`);
    // Where a live install stands after its year: pruned to the default periods (the first call
    // takes over the run the server starts at boot, the second finds what is left).
    server = await start(database.url, yearEnv);
    const first = await pruneOnce(server.url, ADMIN_TOKEN);
    const second = await pruneOnce(server.url, ADMIN_TOKEN);
    log(`base pruned to the default periods in ${(first.ms / 1000).toFixed(1)} s: ${pruned(first.pruned)}`);
    log(`  again in ${(second.ms / 1000).toFixed(1)} s: ${pruned(second.pruned)}`);
    await server.stop();
  }
  // Compacted, then vacuumed (visibility map and statistics as autovacuum leaves them), so that
  // no free space of the year's pruning is there for the month to fill.
  const compactMs = await compact(database.url);
  await withClient(database.url, (c) => c.query('vacuum analyze'));
  log(`compacted and vacuumed before the month in ${(compactMs / 1000).toFixed(1)} s`);
  const settings = await withClient(database.url, readSettings);
  const before = await readSnapshot(database.url);

  const monthEnv: Record<string, string> = MONTH_JOBS
    ? { ...monthPeriods(DAYS), BUYER_DATA_ANONYMISE_DAYS: String(ANONYMISE_DAYS) }
    : yearEnv;
  const autovacuum = await keepAutovacuum(database.url, log);
  cleanups.push(autovacuum.stop);
  if (autovacuum.emulated)
    log(
      `!! autovacuum is off on this server: its rule is applied from here every ${autovacuum.naptimeSeconds} s (bench/lib/bloat-stats.ts)`,
    );
  const monthStarted = new Date();
  const startedAt = performance.now();
  server = await start(database.url, monthEnv);
  log(`month: server started in ${(server.startupMs / 1000).toFixed(1)} s; ${describeLoad()}`);
  const run = randomBytes(3).toString('hex');
  // The month's pruning runs beside its bookings, as the hourly job would over the month.
  const [bookings, monthPrune] = await Promise.all([
    bookMonth(server, merchant, { count: MONTH, rate: RATE, connections: CONNECTIONS, prefix: `MONTH-${run}` }),
    MONTH_JOBS ? pruneOnce(server.url, ADMIN_TOKEN) : undefined,
  ]);
  log(
    `month: ${bookings.booked} booked in ${(bookings.ms / 1000).toFixed(0)} s (${(bookings.booked / (bookings.ms / 1000)).toFixed(1)}/s), ${bookings.failed} failed`,
  );
  // The route answers its own share: the server's start-up run of the job prunes beside it.
  if (monthPrune)
    log(`month: the route pruned in ${(monthPrune.ms / 1000).toFixed(1)} s: ${pruned(monthPrune.pruned)}`);
  const finished = await waitFinished(database.url, merchant.accountId, monthStarted, FINISH_MS);
  const pulls = await scansPerPull(database.url, merchant.accountId, monthStarted);
  const drained = await waitDrained(
    database.url,
    merchant.accountId,
    ANONYMISE_DAYS === undefined ? undefined : { days: ANONYMISE_DAYS, at: monthStarted },
    DRAIN_MS,
  );
  if (MONTH_JOBS) log(`month: pruned again: ${pruned((await pruneOnce(server.url, ADMIN_TOKEN)).pruned)}`);
  const anonymised = await anonymisedSince(database.url, merchant.accountId, monthStarted);
  const monthSeconds = (performance.now() - startedAt) / 1000;
  log(`month over after ${(monthSeconds / 60).toFixed(1)} min; ${describeLoad()}`);
  // The month ends with its server: lost parcels stay in the poller's queue, asked every step.
  await server.stop();

  const settleStarted = performance.now();
  const settleMs = (autovacuum.naptimeSeconds * 3 + 30) * 1000;
  let left = await overThreshold(database.url);
  while (left.length > 0 && performance.now() - settleStarted < settleMs) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    left = await overThreshold(database.url);
  }
  log(
    left.length === 0
      ? `autovacuum caught up ${((performance.now() - settleStarted) / 1000).toFixed(0)} s after the month`
      : `!! still over autovacuum's threshold after ${settleMs / 1000} s: ${left.map((t) => `${t.table} (${t.dead} dead > ${t.threshold})`).join(', ')}`,
  );
  await autovacuum.stop();
  const after = await readSnapshot(database.url);
  const compactAfterMs = await compact(database.url);
  const compacted = await readSnapshot(database.url);
  log(`compacted after the month in ${(compactAfterMs / 1000).toFixed(1)} s`);

  console.log(`\nmachine: ${describeMachine()}`);
  console.log(`after:   ${describeLoad()}`);
  console.log(
    `PostgreSQL: ${Object.entries(settings)
      .map(([name, value]) => `${name} ${value}`)
      .join(', ')}${autovacuum.emulated ? ' (autovacuum off: its rule applied by the benchmark)' : ''}`,
  );
  console.log(
    `month: ${bookings.booked.toLocaleString('en-US')} shipments (${PER_DAY} a day for ${DAYS} days) in ${(monthSeconds / 60).toFixed(1)} min, ` +
      `${Math.floor(monthSeconds / autovacuum.naptimeSeconds)} autovacuum naptimes (a real month has ${Math.floor((DAYS * 86_400) / autovacuum.naptimeSeconds).toLocaleString('en-US')}); ` +
      `ends: ${Object.entries(finished.statuses)
        .map(([s, n]) => `${s} ${n}`)
        .join(', ')}`,
  );
  console.log(
    `scans: ${pulls.scans.toLocaleString('en-US')} in ${pulls.pulls.toLocaleString('en-US')} pulls (${(pulls.scans / pulls.pulls).toFixed(2)} a pull; a live month's about 1)`,
  );
  if (BASE_DAYS > 0)
    console.log(
      `base: ${(PER_DAY * BASE_DAYS).toLocaleString('en-US')} shipments over ${BASE_DAYS} days; ` +
        (MONTH_JOBS
          ? `${anonymised.toLocaleString('en-US')} buyers anonymised in the month; its server ran with ${Object.entries(
              monthEnv,
            )
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : 'no retention or anonymisation month'),
    );
  console.log('');
  for (const line of describeMonth(before, after, compacted)) console.log(line);
  console.log('');
  for (const line of describeTotals(before, after, compacted, bookings.booked)) console.log(line);
  if (!finished.ok || !drained || bookings.failed > 0) {
    process.exitCode = 1;
    log('!! the month did not finish cleanly (above): its figures are not a month');
    return;
  }
  succeeded = true;
}

try {
  await main();
} finally {
  await cleanUp();
}
