// Listing benchmark (issue 5): builds a realistic dataset (bench/listing-data.ts) by bulk COPY,
// starts the real app on 127.0.0.1 and measures POST /custom/api/v1/shipments as the big account.
//
//   npm run bench:listing                       both engines: PostgreSQL 1,000,000 and PGlite 200,000
//   npm run bench:listing -- --engine=postgres  (or --engine=pglite)
//   options: --shipments=N --big=N --requests=N;  BENCH_KEEP=1 keeps the PostgreSQL database,
//            BENCH_REUSE=<database> measures an already built one (new migrations are applied).
//
// PostgreSQL: a fresh database dakiya_bench_<random> on postgres://postgres@127.0.0.1:5432/,
// dropped at the end. PGlite: in memory. Nothing but 127.0.0.1 is touched, and the run ends by
// itself (a watchdog stops it after 40 minutes).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { benchSettings } from './lib/app.js';
import { type Database, type Db, openPglite, openPostgres } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import * as schema from '../src/base/db/schema.js';
import { withStoreIds } from '../src/readers/shipments/shipment-filters.repository.js';
import * as repo from '../src/readers/shipments/shipments.repository.js';
import { toFilters } from '../src/readers/shipments/shipments.service.js';
import { type Facts, ListingDataGenerator, type Scale } from './listing-data.js';
import { type BuildReport, build, log, pgLoader, pgliteLoader, seconds } from './lib/listing-build.js';

const SERVER = 'postgres://postgres@127.0.0.1:5432/';
const WATCHDOG_MS = 40 * 60_000;

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const engines = (args.engine ?? 'both') === 'both' ? ['postgres', 'pglite'] : [args.engine!];
const REQUESTS = Number(args.requests ?? 200);
const WARMUP = 10;

// --- Requests ---

interface Case {
  name: string;
  kind: 'page' | 'filter' | 'combo' | 'search' | 'deep';
  target?: number;
  body: (i: number) => Record<string, unknown>;
}

/** Depth of the search_after page: 100,000 rows, or two thirds of a smaller account. */
const deepOffset = (scale: Scale) => Math.min(100_000, Math.floor((scale.bigAccount * 2) / 3));

function cases(facts: Facts, now: Date, deepCursor: [string, string], deep: number): Case[] {
  const sec = (daysAgo: number) => Math.floor(now.getTime() / 1000) - daysAgo * 86_400;
  const filter = (name: string, body: Record<string, unknown>): Case => ({
    name,
    kind: 'filter',
    target: 25,
    body: () => body,
  });
  const phoneFragment = (i: number) => facts.samplePhones[i % facts.samplePhones.length]!.slice(2, 8);
  return [
    { name: 'first page, unfiltered', kind: 'page', target: 25, body: () => ({}) },
    { name: 'first page, sort_order asc', kind: 'page', target: 25, body: () => ({ sort_order: 'asc' }) },
    filter('status = delivered', { status: 'delivered' }),
    filter('status = in_transit', { status: 'in_transit' }),
    filter('granular_status[] = delivered', { 'granular_status[]': ['delivered'] }),
    filter('carrier_id[] = top courier', { 'carrier_id[]': [facts.topCarrierId] }),
    filter('warehouse_ids[] = main warehouse', { 'warehouse_ids[]': [facts.bigWarehouseId] }),
    filter('channel[] = manual_order (every row)', { 'channel[]': ['manual_order'] }),
    filter('zone[] = zone_c', { 'zone[]': ['zone_c'] }),
    filter('is_cod = true', { is_cod: true }),
    filter('sku[] = best seller', { 'sku[]': [facts.bigTopSku] }),
    filter('tags[] = gift', { 'tags[]': ['gift'] }),
    filter('ndr_reason[] = customer_unavailable', { 'ndr_reason[]': ['customer_unavailable'] }),
    filter('rto_reason[] = customer_refused', { 'rto_reason[]': ['customer_refused'] }),
    filter('applied_weight 500–1000 g', { applied_weight_min: 500, applied_weight_max: 1000 }),
    filter('attempts_count__gte = 2', { attempts_count__gte: 2 }),
    filter('store_name[] = main store', { 'store_name[]': [facts.bigStoreName] }),
    filter('created_at, last 30 days', { date_field: 'created_at', start_time: sec(30), end_time: sec(0) }),
    filter('order_date, last 30 days', { date_field: 'order_date', start_time: sec(30), end_time: sec(0) }),
    filter('picked_up_at, last 7 days', { date_field: 'picked_up_at', start_time: sec(7), end_time: sec(0) }),
    filter('delivered_at, last 30 days (ms)', {
      date_field: 'delivered_at',
      start_time: sec(30) * 1000,
      end_time: sec(0) * 1000,
    }),
    {
      name: '4 filters: delivered + COD + zone c/d + courier',
      kind: 'combo',
      target: 25,
      body: () => ({
        status: 'delivered',
        is_cod: true,
        'zone[]': ['zone_c', 'zone_d'],
        'carrier_id[]': [facts.topCarrierId],
      }),
    },
    {
      name: 'search: exact AWB',
      kind: 'search',
      target: 25,
      body: (i) => ({ search: facts.sampleAwbs[i % facts.sampleAwbs.length] }),
    },
    {
      name: 'search: partial phone (6 digits)',
      kind: 'search',
      target: 60,
      body: (i) => ({ search: phoneFragment(i) }),
    },
    { name: 'search: common surname "sharma"', kind: 'search', target: 60, body: () => ({ search: 'sharma' }) },
    {
      name: `search_after at depth ${deep.toLocaleString('en-US')}`,
      kind: 'deep',
      body: () => ({ search_after: deepCursor }),
    },
    { name: 'page=500 (offset 9,980)', kind: 'deep', body: () => ({ page: 500 }) },
  ];
}

interface Measured {
  name: string;
  kind: Case['kind'];
  target?: number;
  p50: number;
  p95: number;
  mean: number;
  total: number;
  body: Record<string, unknown>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;

async function measure(
  baseUrl: string,
  apiKey: string,
  c: Case,
  requests = REQUESTS,
  warmup = WARMUP,
): Promise<Measured> {
  const times: number[] = [];
  let total = -1;
  for (let i = 0; i < warmup + requests; i++) {
    const body = c.body(i);
    const t = performance.now();
    const response = await fetch(`${baseUrl}/custom/api/v1/shipments`, {
      method: 'POST',
      headers: { authorization: apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { meta?: { total: number }; errors?: string[] };
    const elapsed = performance.now() - t;
    if (response.status !== 200) throw new Error(`${c.name}: ${response.status} ${JSON.stringify(json)}`);
    if (i >= warmup) times.push(elapsed);
    if (i === 0) total = json.meta!.total;
  }
  times.sort((a, b) => a - b);
  return {
    name: c.name,
    kind: c.kind,
    ...(c.target !== undefined && { target: c.target }),
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    total,
    body: c.body(0),
  };
}

// --- EXPLAIN of what the app runs ---

interface Captured {
  sql: string;
  params: unknown[];
}

async function explain(
  engine: 'postgres' | 'pglite',
  raw: pg.Pool | PGlite,
  accountId: string,
  body: Record<string, unknown>,
): Promise<{ count: string; page: string }> {
  const captured: Captured[] = [];
  const logger = { logQuery: (sql: string, params: unknown[]) => captured.push({ sql, params }) };
  const db = (engine === 'postgres'
    ? drizzlePostgres(raw as pg.Pool, { schema, logger })
    : drizzlePglite(raw as PGlite, { schema, logger })) as unknown as Db;
  // The same calls, with the same arguments, as shipments.service.ts list().
  const filters = await withStoreIds(db, accountId, toFilters(body as Parameters<typeof toFilters>[0]));
  const perPage = (body.per_page as number | undefined) ?? 20;
  const after = body.search_after as [string, string] | undefined;
  const countWithPage = filters.search !== undefined && !after;
  await repo.findPage(db, accountId, filters, {
    limit: perPage + 1,
    descending: body.sort_order !== 'asc',
    ...(after
      ? { after: { createdAt: new Date(Number(after[0])), id: after[1] } }
      : { offset: (((body.page as number) ?? 1) - 1) * perPage }),
    countMatches: countWithPage,
  });
  const run = async ({ sql, params }: Captured) => {
    const text = `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`;
    const rows =
      engine === 'postgres'
        ? (await (raw as pg.Pool).query(text, params)).rows
        : (await (raw as PGlite).query<Record<string, string>>(text, params)).rows;
    return rows.map((row) => Object.values(row)[0]).join('\n');
  };
  // Leave out the store-name lookup; the page query is the one built around page_ids.
  const relevant = captured.filter((q) => q.sql.includes('shipment'));
  const page = relevant.find((q) => q.sql.includes('page_ids'))!;
  const count = relevant.find((q) => q !== page);
  return {
    count: count
      ? await run(count)
      : '(no separate count: the page statement counts, in a subquery or over the materialised matches)',
    page: await run(page),
  };
}

// --- One engine, end to end ---

interface EngineReport {
  engine: string;
  scale: Scale;
  build?: BuildReport;
  results: Measured[];
  plans: { name: string; count: string; page: string }[];
  indexes: { name: string; def: string }[];
  /** 1-minute load average when the measurements started and ended (other work on the machine). */
  load: [number, number];
}

async function runEngine(engine: 'postgres' | 'pglite'): Promise<EngineReport> {
  const scale: Scale =
    engine === 'postgres'
      ? {
          shipments: Number(args.shipments ?? 1_000_000),
          bigAccount: Number(args.big ?? 300_000),
          otherAccounts: 50,
          days: 180,
        }
      : {
          shipments: Number(args.shipments ?? 200_000),
          bigAccount: Number(args.big ?? 150_000),
          otherAccounts: 50,
          days: 180,
        };
  const now = new Date();
  log(
    `${engine}: ${scale.shipments.toLocaleString()} shipments, ${scale.bigAccount.toLocaleString()} in the big account`,
  );

  let database: Database;
  let raw: pg.Pool | PGlite;
  let cleanup = async () => {};
  let built: BuildReport | undefined;
  let facts: Facts;
  let benchDb = '';
  if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    const reuse = process.env.BENCH_REUSE;
    benchDb = reuse ?? `dakiya_bench_${randomBytes(5).toString('hex')}`;
    if (!/^dakiya_bench_[a-z0-9]+$/.test(benchDb)) throw new Error(`refusing database name ${benchDb}`);
    if (!reuse) await admin.query(`CREATE DATABASE ${benchDb}`);
    await admin.end();
    const url = new URL(SERVER);
    url.pathname = `/${benchDb}`;
    cleanup = async () => {
      if (process.env.BENCH_KEEP || reuse) {
        log(`kept database ${benchDb}`);
        return;
      }
      const dropper = new pg.Client({ connectionString: SERVER });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${benchDb} WITH (FORCE)`);
      await dropper.end();
      log(`dropped database ${benchDb}`);
    };
    activeCleanups.add(cleanup);
    database = await openPostgres(url.toString(), 10);
    await migrate(database.db);
    raw = new pg.Pool({ connectionString: url.toString(), max: 2 });
    if (reuse) {
      facts = await factsFromDatabase(pgRows(raw as pg.Pool));
    } else {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const generator = new ListingDataGenerator(scale, now);
      built = await build(pgLoader(client), generator);
      facts = generator.facts;
      await client.end();
    }
  } else {
    database = await openPglite();
    await migrate(database.db);
    raw = (database.db as unknown as { $client: PGlite }).$client;
    const generator = new ListingDataGenerator(scale, now);
    built = await build(pgliteLoader(raw), generator);
    facts = generator.facts;
  }

  const adminToken = randomBytes(24).toString('hex');
  const app = await buildApp({ db: database.db, settings: benchSettings({ server: { adminToken } }), logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  try {
    const keyResponse = await fetch(`${baseUrl}/admin/v1/accounts/${facts.bigAccountId}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (keyResponse.status !== 201) throw new Error(`api key: ${keyResponse.status} ${await keyResponse.text()}`);
    const apiKey = ((await keyResponse.json()) as { api_key: string }).api_key;

    const rows =
      engine === 'postgres'
        ? pgRows(raw as pg.Pool)
        : async <T>(sql: string, p: unknown[] = []) => (await (raw as PGlite).query<T>(sql, p)).rows;
    const [cursor] = await rows<{ ms: string; id: string }>(
      `select (extract(epoch from created_at) * 1000)::bigint::text as ms, id::text as id from shipments
        where account_id = $1 order by created_at desc, id desc offset $2 limit 1`,
      [facts.bigAccountId, deepOffset(scale) - 1],
    );
    const indexes = await rows<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes where tablename = 'shipments' order by indexname`,
    );
    const results: Measured[] = [];
    const all = cases(facts, now, [cursor!.ms, cursor!.id], deepOffset(scale));
    // One pass over every case first, so the first one measured does not pay for cold caches.
    for (const c of all) await measure(baseUrl, apiKey, c, 0, 3);
    const loadBefore = os.loadavg()[0]!;
    for (const c of all) {
      const m = await measure(baseUrl, apiKey, c);
      results.push(m);
      log(
        `  ${m.name.padEnd(48)} p50 ${m.p50.toFixed(1).padStart(6)} ms  p95 ${m.p95.toFixed(1).padStart(6)} ms  total ${m.total}`,
      );
    }
    const load = [loadBefore, os.loadavg()[0]!] as [number, number];
    const slowest = [...results].sort((a, b) => b.p95 - a.p95).slice(0, 4);
    const plans = [];
    for (const m of slowest) plans.push({ name: m.name, ...(await explain(engine, raw, facts.bigAccountId, m.body)) });
    return { engine, scale, ...(built && { build: built }), results, plans, indexes, load };
  } finally {
    await app.close();
    if (engine === 'postgres') await (raw as pg.Pool).end();
    await database.close();
    await cleanup();
    activeCleanups.delete(cleanup);
  }
}

function pgRows(pool: pg.Pool) {
  return async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[];
}

/** For BENCH_REUSE: the facts the cases need, read back from a database built earlier. */
async function factsFromDatabase(rows: <T>(sql: string, params?: unknown[]) => Promise<T[]>): Promise<Facts> {
  const [big] = await rows<{ account_id: string }>(
    `select account_id from shipments group by account_id order by count(*) desc limit 1`,
  );
  const accountId = big!.account_id;
  const one = async (sql: string) => Object.values((await rows<Record<string, string>>(sql, [accountId]))[0]!)[0]!;
  return {
    bigAccountId: accountId,
    bigWarehouseId: await one(
      `select warehouse_id from shipments where account_id = $1 group by 1 order by count(*) desc limit 1`,
    ),
    bigStoreName: await one(
      `select s.store_name from shipments sh join stores s on s.id = sh.store_id where sh.account_id = $1 group by 1 order by count(*) desc limit 1`,
    ),
    bigTopSku: await one(
      `select unnest(skus) from shipments where account_id = $1 group by 1 order by count(*) desc limit 1`,
    ),
    topCarrierId: 'CARDELHSURF01',
    sampleAwbs: (
      await rows<{ awb: string }>(
        `select awb from shipments where account_id = $1 and awb is not null order by id limit 600`,
        [accountId],
      )
    ).map((r) => r.awb),
    samplePhones: (
      await rows<{ phone: string }>(
        `select o.shipping_phone as phone from orders o where account_id = $1 order by id limit 600`,
        [accountId],
      )
    ).map((r) => r.phone),
    statusCounts: {},
    events: 0,
    milestones: 0,
    items: 0,
  };
}

// --- Report ---

function report(r: EngineReport) {
  const lines: string[] = [];
  const first = r.results.find((m) => m.name === 'first page, unfiltered')!;
  lines.push(
    `### ${r.engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${r.scale.shipments.toLocaleString('en-US')} shipments, ${r.scale.bigAccount.toLocaleString('en-US')} in the measured account`,
  );
  lines.push('');
  if (r.build) {
    const b = r.build;
    lines.push(
      `Built: ${b.shipments.toLocaleString('en-US')} shipments and orders, ${b.items.toLocaleString('en-US')} items, ${b.events.toLocaleString('en-US')} tracking events, ${b.milestones.toLocaleString('en-US')} milestones; ` +
        `COPY ${seconds(b.loadMs)}, indexes ${seconds(b.indexMs)}, counters ${seconds(b.countsMs)}, VACUUM ANALYZE ${seconds(b.vacuumMs)}. ` +
        `The measured account has ${b.bigAccountCounterRows.combinations.toLocaleString('en-US')} shipment_counts rows and ${b.bigAccountCounterRows.facets.toLocaleString('en-US')} shipment_facet_counts rows.`,
    );
    lines.push('');
  }
  lines.push(
    `Load average (1 min) ${r.load[0].toFixed(1)} when the measurements began, ${r.load[1].toFixed(1)} when they ended.`,
    '',
  );
  const targets = r.engine === 'postgres';
  if (!targets) lines.push('(The targets are for PostgreSQL at 1M; none is set for PGlite.)', '');
  lines.push(`| request (${REQUESTS} each, sequential) | matches | p50 ms | p95 ms | target p95 | |`);
  lines.push('|---|---:|---:|---:|---:|---|');
  for (const m of r.results) {
    let target = m.target !== undefined && targets ? `≤ ${m.target}` : '';
    let ok = m.target !== undefined ? m.p95 <= m.target : true;
    if (m.name.startsWith('search_after') && targets) {
      target = `≤ ${(first.p95 * 1.5).toFixed(1)} (1.5× first page)`;
      ok = m.p95 <= first.p95 * 1.5;
    }
    if (m.name.startsWith('page=500')) target = `(first page ${first.p95.toFixed(1)})`;
    lines.push(
      `| ${m.name} | ${m.total.toLocaleString('en-US')} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} | ${target} | ${target && !target.startsWith('(') ? (ok ? 'ok' : '**missed**') : ''} |`,
    );
  }
  lines.push('');
  if (r.build) {
    lines.push('Index build times:', '');
    for (const t of r.build.indexTimes) lines.push(`- ${t.name}: ${seconds(t.ms)}`);
    lines.push('', 'Sizes:', '');
    for (const s of r.build.sizes) lines.push(`- ${s.name}: ${s.size}`);
    lines.push('');
  }
  lines.push('Indexes on shipments:', '', '```sql', ...r.indexes.map((i) => `${i.def};`), '```', '');
  lines.push('EXPLAIN (ANALYZE, BUFFERS) of the slowest cases, as the app runs them (count, then page):', '');
  for (const p of r.plans) lines.push(`**${p.name}**`, '', '```', p.count, '', p.page, '```', '');
  return lines.join('\n');
}

// --- Main ---

const activeCleanups = new Set<() => Promise<void>>();
const watchdog = setTimeout(async () => {
  log('watchdog: the benchmark ran over 40 minutes; stopping');
  for (const cleanup of activeCleanups) await cleanup().catch(() => {});
  process.exit(2);
}, WATCHDOG_MS);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    for (const cleanup of activeCleanups) await cleanup().catch(() => {});
    process.exit(130);
  });
}

const startedAll = performance.now();
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const out: string[] = [
  `Machine: ${os.cpus().length} CPUs (nproc ${os.availableParallelism()}), ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}.`,
  '',
];
try {
  for (const engine of engines) {
    const r = await runEngine(engine as 'postgres' | 'pglite');
    out.push(report(r));
  }
  out.push(`Total run time: ${seconds(performance.now() - startedAll)}.`);
  process.stdout.write(`${out.join('\n')}\n`);
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
  for (const cleanup of activeCleanups) await cleanup().catch(() => {});
  process.exitCode = 1;
}
clearTimeout(watchdog);
