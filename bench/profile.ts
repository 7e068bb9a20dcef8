/**
 * Where the server's CPU goes under load, as `npm start` runs it plus V8's sampling profiler:
 *
 *   npm run bench:profile -- rates          POST /rates, embedded database, 50 connections
 *   npm run bench:profile -- bookings       forward-order-orchestration, PostgreSQL, 20 connections
 *                                            (BENCH_CONNECTIONS: with fewer, fewer samples are time the
 *                                            process spent waiting for a core)
 *   BENCH_REUSE=<database> npm run bench:profile -- listing
 *                                            POST /shipments {}, 50 connections, on a database kept by
 *                                            `BENCH_KEEP=1 npm run bench:listing-load -- --engine=postgres`
 *
 * Builds dist/ as `npm start` does, starts `node --cpu-prof dist/main.js` (its own process, default
 * logging to a file) on a fresh data directory or PostgreSQL database, drives it for BENCH_WARMUP +
 * BENCH_DURATION seconds (3 + 10), stops it with SIGTERM (which writes the profile), and prints the
 * self time of the recorded seconds by package and by function. The .cpuprofile is kept (its path is
 * printed) for Chrome DevTools or speedscope.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { benchSetting, formatLoadResult, type LoadOptions, runLoad } from './lib/load.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { BENCH_WAREHOUSE, benchOrder } from './lib/order-body.js';
import { BENCH_RATES_INPUT } from './lib/rates-request.js';
import { formatParts, type Profile, timeByPart } from './lib/profile-components.js';
import { createAccount, ROOT } from '../test/server-process.js';

const scenario = process.argv[2] ?? 'rates';
if (scenario !== 'rates' && scenario !== 'bookings' && scenario !== 'listing')
  throw new Error('usage: npm run bench:profile -- rates|bookings|listing');
const reuse = process.env.BENCH_REUSE;
if (scenario === 'listing' && !/^dakiya_bench_[0-9a-f]+$/.test(reuse ?? '')) {
  throw new Error(
    'the listing profile needs BENCH_REUSE=<a database kept by BENCH_KEEP=1 npm run bench:listing-load -- --engine=postgres>',
  );
}
const warmupSeconds = benchSetting('BENCH_WARMUP', 3);
const durationSeconds = benchSetting('BENCH_DURATION', 10);
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-profile-'));
const cleanups: (() => Promise<void>)[] = [];

/** The package a frame belongs to (a node_modules name, node:…, or our own file under dist/). */
function bucketOf(url: string, functionName: string): string {
  if (!url) return functionName;
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.includes('/dist/')) return `dakiya ${url.split('/dist/')[1]}`;
  return url;
}

/** Self time per package and per function over the samples taken after `fromMs`. */
function summarise(profile: Profile, fromMs: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let clock = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    clock += delta;
    if (clock < fromMs * 1000) return;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const bucket = bucketOf(url, functionName || '(anonymous)');
    packages.set(bucket, (packages.get(bucket) ?? 0) + delta);
    const name = `${functionName || '(anonymous)'}  ${bucket}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
    total += delta;
  });
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(
        ([key, micros]) =>
          `${(micros / 1000).toFixed(0).padStart(7)} ms ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
      )
      .join('\n');
  return `recorded ${(total / 1e6).toFixed(1)} s of samples\n\nby package (self time)\n${top(packages, 20)}\n\nby function (self time)\n${top(functions, 30)}`;
}

async function main() {
  execFileSync('node', ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const env: Record<string, string> = {
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '100000000',
    HOST: '127.0.0.1',
    PORT: '0',
  };
  const postgresUrl = (database: string) => {
    const url = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    url.pathname = `/${database}`;
    return url.toString();
  };
  if (scenario === 'listing') {
    env.DATABASE_URL = postgresUrl(reuse!);
  } else if (scenario === 'bookings') {
    const name = `dakiya_profile_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({
      connectionString: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    await admin.connect();
    await admin.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    env.DATABASE_URL = postgresUrl(name);
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-profile-data-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    env.DATA_DIR = dataDir;
  }
  const logFile = path.join(profileDir, 'server.log');
  const out = fs.openSync(logFile, 'w');
  const started = Date.now();
  const server = spawn(
    'node',
    ['--max-semi-space-size=32', '--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'dist/main.js'],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', out, out] },
  );
  const exited = new Promise((resolve) => server.once('exit', resolve));
  cleanups.unshift(async () => {
    server.kill('SIGTERM');
    await exited;
  });
  // Profiled once its route schemas are compiled (in the background, after it starts serving):
  // the compilers' seconds would otherwise fill the profile.
  let port: string | undefined;
  while (!port) {
    if (Date.now() - started > 120_000)
      throw new Error('the server did not start and compile its route schemas within 2 minutes');
    const log = fs.readFileSync(logFile, 'utf8');
    if (log.includes('"route schemas compiled"')) port = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const base = `http://127.0.0.1:${port}`;
  const apiKey =
    scenario === 'listing'
      ? await biggestAccountKey(base, env.DATABASE_URL!)
      : (await createAccount({ url: base }, BENCH_ADMIN_TOKEN, 'Profile')).apiKey;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  let load: LoadOptions;
  if (scenario === 'listing') {
    load = {
      title: 'POST /shipments {}',
      url: `${base}/custom/api/v1/shipments`,
      method: 'POST',
      headers,
      body: '{}',
      connections: 50,
    };
  } else if (scenario === 'rates') {
    load = {
      title: 'POST /rates',
      url: `${base}/custom/api/v1/rates`,
      method: 'POST',
      headers,
      body: JSON.stringify(BENCH_RATES_INPUT),
      connections: 50,
    };
  } else {
    const warehouse = await fetch(`${base}/custom/api/v1/warehouse`, {
      method: 'POST',
      headers,
      body: JSON.stringify(BENCH_WAREHOUSE),
    }).then((r) => r.json() as Promise<{ payload: { warehouse_id: string } }>);
    load = {
      title: 'POST /forward-order-orchestration',
      url: `${base}/custom/api/v1/forward-order-orchestration`,
      method: 'POST',
      headers,
      body: JSON.stringify(benchOrder(warehouse.payload.warehouse_id, '__ORDER_ID__')),
      uniqueToken: '__ORDER_ID__',
      connections: benchSetting('BENCH_CONNECTIONS', 20),
    };
  }
  console.log(`machine:  ${describeMachine()}\nbefore:   ${describeLoad()}`);
  const loadStartedMs = Date.now() - started;
  const result = await runLoad({ ...load, warmupSeconds, durationSeconds }, { server: () => [server.pid!] });
  console.log(formatLoadResult(result, 34));
  console.log(`after:    ${describeLoad()}`);
  await cleanups.shift()!();
  const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no profile');
  const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as Profile;
  // Only the recorded run: the profile starts with the process, so skip start-up and the warm-up.
  const recordedFromMs = loadStartedMs + warmupSeconds * 1000;
  console.log(`\n${summarise(profile, recordedFromMs)}`);
  const parts = timeByPart(profile, recordedFromMs, recordedFromMs + durationSeconds * 1000);
  console.log(
    `\nby part of the request, CPU per request (${result.serverCpuMicrosPerRequest.toFixed(0)} µs in all, by /proc)\n${formatParts(parts, result.serverCpuMicrosPerRequest)}`,
  );
  console.log(`\nprofile: ${path.join(profileDir, file)}`);
}

/** A new API key of the account with the most shipments, as bench:listing-load measures it. */
async function biggestAccountKey(base: string, databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const biggest = await client.query<{ account_id: string }>(
    'select account_id from shipment_counts group by account_id order by sum(shipments) desc limit 1',
  );
  await client.end();
  const response = await fetch(`${base}/admin/v1/accounts/${biggest.rows[0]!.account_id}/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
  });
  if (response.status !== 201) throw new Error(`api key: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { api_key: string }).api_key;
}

try {
  await main();
} finally {
  for (const cleanup of cleanups) await cleanup();
}
process.exit();
