import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { createAccount, type ServerProcess } from '../../test/server-process.js';
import { BENCH_ADMIN_TOKEN } from './app.js';
import { processCpuMicros } from './load.js';
import { BENCH_WAREHOUSE, benchOrder } from './order-body.js';

// What the booking benchmarks (bench:orders, bench:bookings) share: the request, the account it
// needs on a running server, and the wait for the work a round of bookings leaves behind.

export const ORCHESTRATE = '/custom/api/v1/forward-order-orchestration';
/** Replaced by a fresh value in each request's body (bench/lib/load.ts): every booking has its own order_id. */
export const ORDER_ID_TOKEN = '__ORDER_ID__';

/**
 * The sandbox courier's first scan comes a step after each booking (60 s by default): in a run of a
 * few minutes, earlier rounds' bookings would be picked up and moved by the tracking poller during
 * later ones, which would be charged their tracking updates. A day's step keeps the load bookings.
 */
export const SANDBOX_QUIET = '86400';

/** The environment `npm start` gets in the booking benchmarks. */
export const bookingServerEnv = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
  RATE_LIMIT_PER_MINUTE: '100000000',
  SANDBOX_STEP_SECONDS: SANDBOX_QUIET,
});

/** The fields of the operator API's and the booking's answers these benchmarks read. */
interface Answer {
  payload: { warehouse_id?: string; awb_generated?: number; label_url?: string };
}

/** POSTs JSON with the API key; the answer's text and its JSON, or an error naming the status. */
export async function post<T = Answer>(url: string, apiKey: string, body: unknown): Promise<{ text: string; json: T }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return { text, json: JSON.parse(text) as T };
}

/**
 * An account with a warehouse on a running server: what each booking needs. One probe booking
 * checks the request books a parcel before anything is timed; its answer is kept (`probeAnswer`).
 */
export async function prepareBookingServer(server: ServerProcess, accountName: string) {
  const { apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, accountName);
  const warehouse = await post(`${server.url}/custom/api/v1/warehouse`, apiKey, BENCH_WAREHOUSE);
  const warehouseId = warehouse.json.payload.warehouse_id!;
  const book = async (orderId: string) =>
    (await post(`${server.url}${ORCHESTRATE}`, apiKey, benchOrder(warehouseId, orderId))).json;
  const probe = await post(
    `${server.url}${ORCHESTRATE}`,
    apiKey,
    benchOrder(warehouseId, `probe-${randomBytes(3).toString('hex')}`),
  );
  if (probe.json.payload.awb_generated !== 1) throw new Error(`probe booking did not book: ${probe.text}`);
  return { apiKey, warehouseId, book, probeAnswer: probe.text };
}

/** True once every event consumer has read the last event and no customer e-mail waits to be composed or sent. */
const DRAINED = `select not exists (
    select 1 from event_consumers c
    where exists (select 1 from events e where (e.txid, e.position) > (c.after_txid, c.after_position))
  ) and not exists (select 1 from notifications where status = 'pending') as drained`;

/**
 * What a round left for later. After a booking answers, the delivery thread turns its events into
 * customer e-mails (kept in the outbox without SMTP) and webhook rows; under a load that fills both
 * cores part of that runs after the round. Waits until it has all run and answers how long that
 * took, its CPU (the server's process and the database's backends) and the statements this wait
 * sent (each a transaction of its own), so that a change which only defers work does not pass for
 * one that cuts it.
 */
export async function drainBacklog(
  client: pg.Client,
  pids: () => Promise<number[]>,
): Promise<{ seconds: number; cpuMicros: number; statements: number }> {
  const started = performance.now();
  const before = processCpuMicros(await pids());
  let statements = 0;
  for (;;) {
    const { rows } = await client.query<{ drained: boolean }>(DRAINED);
    statements++;
    if (rows[0]!.drained) break;
    if (performance.now() - started > 120_000) throw new Error('the delivery backlog did not drain within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let cpuMicros = 0;
  for (const [pid, used] of processCpuMicros([...before.keys()])) cpuMicros += used - before.get(pid)!;
  return { seconds: (performance.now() - started) / 1000, cpuMicros, statements };
}

/** The PostgreSQL backends serving this database, but for `client`'s own. */
export const backendPids = (client: pg.Client) => async () =>
  (
    await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    )
  ).rows.map((r) => r.pid);
