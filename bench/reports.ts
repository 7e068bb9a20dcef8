// Summary report benchmark (issue 12): POST /custom/api/v1/reports as the big account of the
// listing benchmark's dataset (bench/listing-data.ts: 1,000,000 shipments, 300,000 in one account,
// created over 180 days), on PostgreSQL.
//
//   BENCH_KEEP=1 npx tsx bench/listing.ts --engine=postgres --requests=1   builds and keeps dakiya_bench_<x>
//   BENCH_REUSE=dakiya_bench_<x> npx tsx bench/reports.ts [--requests=200]
//
// Applies new migrations to that database, checks the answer against a plain count, then times
// sequential requests through the real app on 127.0.0.1 and prints each case's percentiles and the
// plan of the widest one. The database is left as found (plus migrations); drop it when done.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { openPostgres } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import { benchSettings } from './lib/app.js';

const SERVER = 'postgres://postgres@127.0.0.1:5432/';
const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
    return [key!, value];
  }),
);
const REQUESTS = Number(args.requests ?? 200);
const WARMUP = 10;
const reuse = process.env.BENCH_REUSE;
if (!reuse || !/^dakiya_bench_[a-z0-9]+$/.test(reuse)) {
  throw new Error('BENCH_REUSE=dakiya_bench_<x> must name a database built by bench/listing.ts with BENCH_KEEP=1');
}
const url = new URL(SERVER);
url.pathname = `/${reuse}`;

const database = await openPostgres(url.toString(), 10);
await migrate(database.db);
const raw = new pg.Pool({ connectionString: url.toString(), max: 2 });
const rows = async <T>(sql: string, params: unknown[] = []) => (await raw.query(sql, params)).rows as T[];
// Keeps the visibility map current, so the index-only scan need not visit the heap.
await raw.query('VACUUM (ANALYZE) shipments');

const [big] = await rows<{ account_id: string; n: string; first: Date; last: Date }>(
  'select account_id, count(*) as n, min(created_at) as first, max(created_at) as last from shipments group by 1 order by 2 desc limit 1',
);
const accountId = big!.account_id;
const [total] = await rows<{ n: string }>('select count(*) as n from shipments');

const adminToken = randomBytes(24).toString('hex');
const app = await buildApp({ db: database.db, settings: benchSettings({ server: { adminToken } }), logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no address');
const baseUrl = `http://127.0.0.1:${address.port}`;
const keyResponse = await fetch(`${baseUrl}/admin/v1/accounts/${accountId}/api-keys`, {
  method: 'POST',
  headers: { authorization: `Bearer ${adminToken}` },
});
const apiKey = ((await keyResponse.json()) as { api_key: string }).api_key;

const last = big!.last.getTime();
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;
const cases = [
  { name: 'whole dataset (180 days, every shipment of the account)', from: big!.first.getTime(), to: last },
  { name: 'last 30 days', from: last - 30 * DAY, to: last },
  { name: 'last day', from: last - DAY, to: last },
];

async function report(body: Record<string, unknown>) {
  const response = await fetch(`${baseUrl}/custom/api/v1/reports`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`reports: ${response.status} ${await response.text()}`);
  return (await response.json()) as {
    payload: {
      summary: Record<string, { count: number; sum_of_prepaid_orders: number; sum_of_cod_orders: number } | number>;
    };
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const lines: string[] = [
  `database: ${reuse}, ${Number(total!.n).toLocaleString('en-US')} shipments, ${Number(big!.n).toLocaleString('en-US')} in the measured account`,
  `requests: ${REQUESTS} sequential per case after ${WARMUP} warm-up, through HTTP on 127.0.0.1`,
  '',
  '| case | rows counted | p50 ms | p95 ms | p99 ms | max ms |',
  '|---|---|---|---|---|---|',
];
for (const c of cases) {
  const body = { start_date_time: iso(c.from), end_date_time: iso(c.to), shipment_type: 'forward' };
  // Exact: the answer equals a plain count and sum of the same rows.
  const answer = await report(body);
  const [check] = await rows<{ n: string; value: string }>(
    'select count(*) as n, coalesce(sum(total_price_paise), 0) as value from shipments where account_id = $1 and created_at between $2 and $3',
    [accountId, iso(c.from), iso(c.to)],
  );
  const summary = answer.payload.summary;
  const paise = Object.values(summary)
    .filter(
      (v): v is { count: number; sum_of_prepaid_orders: number; sum_of_cod_orders: number } => typeof v === 'object',
    )
    .reduce((sum, v) => sum + Math.round(v.sum_of_prepaid_orders * 100) + Math.round(v.sum_of_cod_orders * 100), 0);
  if (summary.total_shipments !== Number(check!.n) || paise !== Number(check!.value)) {
    throw new Error(`${c.name}: report ${summary.total_shipments} / ${paise} != count ${check!.n} / ${check!.value}`);
  }
  for (let i = 0; i < WARMUP; i++) await report(body);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    await report(body);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const f = (ms: number) => ms.toFixed(1);
  lines.push(
    `| ${c.name} | ${Number(check!.n).toLocaleString('en-US')} | ${f(pct(times, 50))} | ${f(pct(times, 95))} | ${f(pct(times, 99))} | ${f(times.at(-1)!)} |`,
  );
}

const plan = await rows<{ 'QUERY PLAN': string }>(
  `explain (analyze, buffers) select status, is_cod, count(*)::int, sum(total_price_paise)::text from shipments
    where account_id = $1 and created_at >= $2 and created_at <= $3 group by status, is_cod`,
  [accountId, iso(cases[0]!.from), iso(cases[0]!.to)],
);
lines.push('', 'plan of the whole-dataset query:', ...plan.map((r) => `    ${r['QUERY PLAN']}`));
process.stdout.write(`${lines.join('\n')}\n`);

await app.close();
await raw.end();
await database.close();
