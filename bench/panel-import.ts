// The panel's bulk import with 500 rows (issue 28: "500 rows must work").
//
//   npm run bench:panel-import                    500 rows (5 bad), the embedded database
//   options: --rows=N --engine=postgres
//
// Starts the server exactly as `npm start` does (its panel built and served at /app) on a fresh
// data directory (or, with --engine=postgres, a fresh database dakiya_bench_<random> on
// postgres://postgres@127.0.0.1:5432/, dropped at the end), makes an account with a username and a
// warehouse through the API, and drives Debian's chromium (CHROMIUM_PATH, /usr/bin/chromium by
// default) through the Bulk import screen as a user would: the CSV chosen, "Check rows" (timed
// until the summary shows), "Book N valid rows" (timed until every row is booked; the progress
// bar read as it moves), "Download all labels" (timed; the PDF's pages counted with pdfinfo).
// Prints each figure, the server's peak RSS and the machine; a watchdog stops it after 20 minutes.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from 'playwright-core';
import { startServerProcess } from '../test/server-process.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { scratchDatabase } from './lib/scratch-database.js';

const ADMIN_TOKEN = `bench-admin-${randomBytes(8).toString('hex')}`;
const PASSWORD = `bench-${randomBytes(8).toString('hex')}`;
const WATCHDOG_MS = 20 * 60_000;

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const ROWS = Number(args.rows ?? 500);
const ENGINE = args.engine === 'postgres' ? 'postgres' : 'pglite';
const BAD = [3, 97, 211, 333, 450].filter((row) => row < ROWS);

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse())
    await Promise.resolve(cleanup()).catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
}
const watchdog = setTimeout(async () => {
  log('watchdog: the benchmark ran over 20 minutes; stopping');
  await cleanUp();
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

const HEADER =
  'order_id,order_date,billing_customer_name,billing_last_name,billing_address,billing_city,billing_state,billing_pincode,billing_phone,billing_email,item_name,sku,units,selling_price,payment_method,length,breadth,height,weight';
/** Every fifth row COD; the bad rows a pincode no post office has. */
const csvRow = (n: number) =>
  `BULK-${n},2026-11-20 14:30,Asha,Menon,"12, Marine Drive",Mumbai,Maharashtra,${BAD.includes(n) ? '12' : '400001'},9123456780,asha@example.com,Cotton Kurta,KURTA-M,2,499,${n % 5 === 0 ? 'COD' : 'Prepaid'},10,10,10,0.5`;

async function database(): Promise<Record<string, string>> {
  if (ENGINE === 'pglite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dakiya-bench-import-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    return { DATA_DIR: dataDir };
  }
  const scratch = await scratchDatabase(log);
  cleanups.push(scratch.drop);
  return { DATABASE_URL: scratch.url };
}

async function api(
  base: string,
  method: string,
  route: string,
  authorization: string,
  body?: unknown,
): Promise<Record<string, string>> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 400) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, string>;
}

/** The server's resident memory now, in MiB (Linux). */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function timed<T>(what: string, work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  const ms = performance.now() - started;
  log(`${what}: ${(ms / 1000).toFixed(1)} s`);
  return { value, ms };
}

const statusText = (page: Page) => page.getByRole('status').textContent();
async function waitForStatus(page: Page, matches: (text: string) => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await page.getByRole('status').count()) > 0 ? ((await statusText(page)) ?? '') : '';
    if (await matches(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out; the status says "${text}"`);
    await page.waitForTimeout(50);
  }
}

async function main() {
  log(`bulk import: ${ROWS} rows (${BAD.length} bad) on ${ENGINE}; ${describeMachine()}`);
  const server = await startServerProcess({
    env: { ...(await database()), ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0' },
    timeoutMs: 600_000,
  });
  cleanups.push(async () => {
    await server.stop();
  });
  log(`npm start served in ${(server.startupMs / 1000).toFixed(1)} s at ${server.url}`);
  let peakRss = rssMiB(server.serverPid);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMiB(server.serverPid));
  }, 200);
  cleanups.push(() => clearInterval(sampler));

  const username = `bench-import-${randomBytes(3).toString('hex')}`;
  const account = await api(server.url, 'POST', '/admin/v1/accounts', `Bearer ${ADMIN_TOKEN}`, {
    name: 'Bench Imports',
    username,
    password: PASSWORD,
  });
  await api(server.url, 'POST', '/custom/api/v1/warehouse', account.api_key!, {
    name: 'Okhla Hub',
    phone_number: '9876543210',
    email: 'hub@example.com',
    contact_person: 'Ravi',
    address_attributes: {
      street_address: 'Plot 14, Okhla Phase III',
      zip: '110020',
      city: 'New Delhi',
      state: 'Delhi',
      country: 'India',
    },
  });

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  cleanups.push(() => browser.close());
  const page = await (
    await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  ).newPage();
  await page.goto(`${server.url}/app/bulk`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Bulk import' }).waitFor();

  const rows = Array.from({ length: ROWS }, (_, i) => csvRow(i + 1));
  const good = ROWS - BAD.length;
  await page
    .getByLabel('Orders CSV')
    .setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from([HEADER, ...rows].join('\r\n')) });
  const check = await timed('check rows', async () => {
    await page.getByRole('button', { name: 'Check rows' }).click();
    return waitForStatus(page, (text) => text.startsWith(`${good} of ${ROWS} rows can be booked`), 300_000);
  });
  const rowErrors = (await page.getByRole('table', { name: 'Row errors' }).getByRole('row').count()) - 1;

  const progress: number[] = [];
  const booking = await timed(`book ${good} rows`, async () => {
    await page.getByRole('button', { name: `Book ${good} valid rows` }).click();
    const bar = page.locator('progress');
    return waitForStatus(
      page,
      async (text) => {
        // The bar goes when the booking ends: a read that misses it is no count.
        const value = Number(await bar.getAttribute('value', { timeout: 100 }).catch(() => Number.NaN));
        if (Number.isFinite(value) && progress.at(-1) !== value) progress.push(value);
        return text === `Booked ${good} shipments. Find them under Shipments.`;
      },
      900_000,
    );
  });

  const labels = await timed('download all labels', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 600_000 }),
      page.getByRole('button', { name: 'Download all labels' }).click(),
    ]);
    return download.path();
  });
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [labels.value!], { encoding: 'utf8' }))?.[1]);
  const megabytes = readFileSync(labels.value!).length / 1024 / 1024;

  console.log(
    [
      `Bulk import of ${ROWS} rows (${BAD.length} bad) in the panel, ${ENGINE}, npm start, chromium:`,
      `  checked in ${(check.ms / 1000).toFixed(1)} s (${check.value}; ${rowErrors} row errors listed)`,
      `  booked ${good} in ${(booking.ms / 1000).toFixed(1)} s (${(good / (booking.ms / 1000)).toFixed(1)} rows/s; the progress bar seen at ${progress.length} counts, last ${progress.at(-1) ?? 'none'} of ${good})`,
      `  labels: one PDF of ${pages} pages, ${megabytes.toFixed(1)} MiB, in ${(labels.ms / 1000).toFixed(1)} s`,
      `  server peak RSS ${peakRss.toFixed(0)} MiB; ${describeMachine()}; ${describeLoad()}`,
    ].join('\n'),
  );
  if (rowErrors !== BAD.length || pages !== good) process.exitCode = 1;
}

main()
  .then(cleanUp)
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exitCode = 1;
  });
