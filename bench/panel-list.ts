// The panel's Shipments page with 100,000 shipments (issue 28: its first page in under 1 second).
//
//   npm run bench:panel                          100,000 shipments in the signed-in account, 7 loads
//   options: --shipments=N --loads=N
//
// Seeds a fresh PostgreSQL database dakiya_bench_<random> on postgres://postgres@127.0.0.1:5432/
// by bulk COPY (bench/listing-data.ts, as bench:listing does), gives its big account a username and
// password, starts the server exactly as `npm start` does (its panel built and served at /app), and
// drives Debian's chromium (CHROMIUM_PATH, /usr/bin/chromium by default): signed in, each load
// opens /app/shipments in a fresh browser context (no cached assets, the session cookie only) and
// times until the first row of the table is visible. Prints each load and the median. The
// database is dropped at the end; a watchdog stops the run after 30 minutes.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { migrate } from '../src/base/db/migrate.js';
import { openPostgres } from '../src/base/db/client.js';
import { DEFAULT_PASSWORD_HASH_COST, passwordHasher } from '../src/tenancy/accounts/credentials.js';
import { startServerProcess } from '../test/server-process.js';
import { ListingDataGenerator } from './listing-data.js';
import { build, log, pgLoader, seconds } from './lib/listing-build.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { scratchDatabase } from './lib/scratch-database.js';
import { median } from './lib/stats.js';

const WATCHDOG_MS = 30 * 60_000;
const USERNAME = 'bench-panel';
const PASSWORD = `bench-${randomBytes(8).toString('hex')}`;
const TARGET_MS = 1000;

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const SHIPMENTS = Number(args.shipments ?? 100_000);
const LOADS = Number(args.loads ?? 7);

const cleanups: (() => Promise<void>)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse())
    await cleanup().catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
}
const watchdog = setTimeout(async () => {
  log('watchdog: the benchmark ran over 30 minutes; stopping');
  await cleanUp();
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

async function seed(url: string): Promise<string> {
  const database = await openPostgres(url, 2);
  await migrate(database.db);
  await database.close();
  // The signed-in account holds SHIPMENTS; a few others share a tenth as many, as on a shared server.
  const generator = new ListingDataGenerator(
    { shipments: Math.round(SHIPMENTS * 1.1), bigAccount: SHIPMENTS, otherAccounts: 10, days: 180 },
    new Date(),
  );
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    await build(pgLoader(client), generator);
    log(`seeded in ${seconds(performance.now() - started)}`);
    await client.query('update accounts set username = $1, password_hash = $2 where id = $3', [
      USERNAME,
      await passwordHasher(DEFAULT_PASSWORD_HASH_COST).hash(PASSWORD),
      generator.facts.bigAccountId,
    ]);
  } finally {
    await client.end();
  }
  return generator.facts.bigAccountId;
}

async function main() {
  log(
    `panel: ${SHIPMENTS.toLocaleString('en-US')} shipments in the signed-in account, ${LOADS} loads; ${describeMachine()}`,
  );
  const scratch = await scratchDatabase(log);
  cleanups.push(scratch.drop);
  await seed(scratch.url);

  const server = await startServerProcess({
    env: { DATABASE_URL: scratch.url, RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_WORKER: 'false' },
    timeoutMs: 600_000,
  });
  cleanups.push(async () => {
    await server.stop();
  });
  log(`npm start served in ${seconds(server.startupMs)} at ${server.url}`);

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  cleanups.push(() => browser.close());
  const signIn = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await signIn.newPage();
  await page.goto(`${server.url}/app/shipments`);
  await page.getByLabel('Username').fill(USERNAME);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await firstRow(page).waitFor({ timeout: 60_000 });
  const session = await signIn.storageState();
  await signIn.close();

  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    // A fresh context: no cached script or answers, as a merchant's first visit of the day.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: session });
    const tab = await context.newPage();
    const started = performance.now();
    await tab.goto(`${server.url}/app/shipments`);
    await firstRow(tab).waitFor({ timeout: 60_000 });
    const ms = performance.now() - started;
    times.push(ms);
    log(`load ${i + 1}: first row visible after ${ms.toFixed(0)} ms`);
    await context.close();
  }
  times.sort((a, b) => a - b);
  const middle = median(times);
  console.log(
    [
      `Shipments page, ${SHIPMENTS.toLocaleString('en-US')} shipments in the account (PostgreSQL, npm start, chromium, fresh context per load):`,
      `  median ${middle.toFixed(0)} ms, fastest ${times[0]!.toFixed(0)} ms, slowest ${times.at(-1)!.toFixed(0)} ms over ${LOADS} loads (target < ${TARGET_MS} ms: ${middle < TARGET_MS ? 'met' : 'missed'})`,
      `  ${describeMachine()}; ${describeLoad()}`,
    ].join('\n'),
  );
}

const firstRow = (page: import('playwright-core').Page) =>
  page.getByRole('table', { name: 'Shipments, newest first' }).getByRole('row').nth(1);

main()
  .then(cleanUp)
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exitCode = 1;
  });
