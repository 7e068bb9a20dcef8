/**
 * The statements one booking sends to PostgreSQL, counted and listed:
 *
 *   npm run bench:round-trips                 POST /custom/api/v1/forward-order-orchestration
 *
 * The app runs in this process (as main.ts wires it, logger off) on a fresh database
 * `dakiya_bench_<random>` on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres,
 * loopback only), dropped at the end. Every statement any pooled client sends is recorded (the
 * driver's Client.query, so BEGIN and COMMIT count too): a few warm-up bookings, then BENCH_BOOKINGS
 * (default 5) bookings one after another, with and without an Idempotency-Key. Each statement is a
 * round trip the booking waits for; the workers (webhook fan-out, e-mails) are counted with them.
 * Then BENCH_CPU_BOOKINGS (default 300) bookings from 4 clients at once, and the CPU time they
 * cost this process (the app, its workers and the HTTP clients) and the PostgreSQL backends, per
 * booking: a comparison of two versions of the code that a busy machine disturbs less than bookings/s;
 * and the statements sent meanwhile, per booking (the workers batch under load).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { benchSetting, processCpuMicros } from './lib/load.js';
import { BENCH_WAREHOUSE, benchOrder } from './lib/order-body.js';
import { startApp } from './lib/app.js';

const seen: { text: string; at: number }[] = [];
let recording = false;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function recordingQuery(this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string; name?: string };
  if (recording)
    seen.push({ text: typeof first === 'string' ? first : (first.text ?? first.name ?? '?'), at: performance.now() });
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const adminUrl = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
if (!['127.0.0.1', 'localhost', '[::1]'].includes(adminUrl.hostname))
  throw new Error('BENCH_POSTGRES_URL must point at 127.0.0.1');
const name = `dakiya_bench_${randomBytes(6).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const running = await startApp({ databaseUrl: url.toString(), accountName: 'Round trips' });
const count = benchSetting('BENCH_BOOKINGS', 5);

try {
  const headers = { authorization: `Bearer ${running.apiKey}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
    const response = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { ...headers, ...extra },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return JSON.parse(text);
  };
  const warehouse = await post('/custom/api/v1/warehouse', BENCH_WAREHOUSE);
  const warehouseId = warehouse.payload.warehouse_id as string;
  for (let i = 0; i < 3; i++)
    await post('/custom/api/v1/forward-order-orchestration', benchOrder(warehouseId, `warm-${i}`));

  for (const keyed of [false, true]) {
    // Let the workers woken by the warm-up finish, so their statements are not counted as the booking's.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    seen.length = 0;
    recording = true;
    for (let i = 0; i < count; i++) {
      const extra: Record<string, string> = keyed
        ? { 'idempotency-key': `rt-${i}-${randomBytes(4).toString('hex')}` }
        : {};
      await post('/custom/api/v1/forward-order-orchestration', benchOrder(warehouseId, `rt-${keyed}-${i}`), extra);
    }
    recording = false;
    const texts = seen.map((s) => s.text.replace(/\s+/g, ' ').trim());
    console.log(
      `\n${keyed ? 'with' : 'without'} Idempotency-Key: ${texts.length} statements for ${count} bookings = ${(texts.length / count).toFixed(1)} per booking (workers included)`,
    );
    const byText = new Map<string, number>();
    for (const text of texts) byText.set(text.slice(0, 150), (byText.get(text.slice(0, 150)) ?? 0) + 1);
    for (const [text, n] of byText) console.log(`${(n / count).toFixed(1).padStart(5)}  ${text}`);
  }

  const cpuBookings = benchSetting('BENCH_CPU_BOOKINGS', 300);
  const backends = async () =>
    (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name])).rows.map(
      (r) => r.pid,
    );
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const pids = await backends();
  const dbBefore = processCpuMicros(pids);
  seen.length = 0;
  recording = true;
  const before = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < cpuBookings)
        await post('/custom/api/v1/forward-order-orchestration', benchOrder(warehouseId, `cpu-${next++}`));
    }),
  );
  const used = process.cpuUsage(before);
  recording = false;
  const dbAfter = processCpuMicros(pids);
  const dbUsed = sum(dbAfter) - sum(new Map([...dbBefore].filter(([pid]) => dbAfter.has(pid))));
  console.log(
    `\nCPU per booking over ${cpuBookings} (4 clients): this process ${((used.user + used.system) / cpuBookings).toFixed(0)} µs, ` +
      `PostgreSQL backends ${(dbUsed / cpuBookings).toFixed(0)} µs`,
  );
  // Under concurrent load the workers take events in batches: their statements per booking here,
  // not in the one-at-a-time runs above, are what a busy server pays.
  console.log(
    `statements during those ${cpuBookings} bookings: ${seen.length} = ${(seen.length / cpuBookings).toFixed(1)} per booking (workers included)`,
  );
  const underLoad = new Map<string, number>();
  for (const { text } of seen) {
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 150);
    underLoad.set(key, (underLoad.get(key) ?? 0) + 1);
  }
  for (const [text, n] of [...underLoad].sort((a, b) => b[1] - a[1]))
    console.log(`${(n / cpuBookings).toFixed(2).padStart(6)}  ${text}`);
} finally {
  await running.close();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
process.exit();
