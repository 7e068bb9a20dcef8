import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase, describePostgresOnly, withAdminClient } from './databases.js';
import { ORCHESTRATE } from './kit/http.js';
import { orderBody } from './kit/orders.js';
import { type NpmProcess, type ServerProcess, startServerProcess, startWorkerProcess } from './server-process.js';
import {
  createMerchant,
  eventsListed,
  expectEveryEventSigned,
  type Merchant,
  processEnv,
  receivedIds,
} from './webhook-processes.js';
import { type Receiver, startReceiver, until } from './webhook-receiver.js';

/**
 * Issue 24 point 2: PostgreSQL terminating the backends of an API process (`npm start`) and of a
 * worker (`npm run worker`) in the middle of their work, as a database restart or fail-over does.
 * Neither process may end; a request whose connection died (or that cannot get one) answers 503
 * with Retry-After, and its retry with the same Idempotency-Key books exactly once; the workers
 * deliver every event all the same; /readyz says whether the database can be reached.
 */

const BOOKINGS = 200;
/** Bookings in flight at once: enough to keep the pool's connections busy when they are cut. */
const CONCURRENCY = 8;
/** Backends are terminated each time this many more bookings have had their first answer. */
const TERMINATE_EVERY = 20;
/** A key that has not booked after this many 503s in a row has met a fault, not a dropped connection. */
const MAX_ATTEMPTS = 30;

const cleanups: (() => Promise<unknown>)[] = [];
let databaseUrl: string;
let databaseName: string;
let receiver: Receiver;
let server: ServerProcess;
let worker: NpmProcess;
let merchant: Merchant;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
});

/**
 * Terminates every backend connected to this file's database; answers how many there were. The
 * pids are read first and terminated apart: in one statement's WHERE clause the planner may call
 * pg_terminate_backend before the datname filter, on every backend of the server.
 */
async function terminateBackends(): Promise<number> {
  return withAdminClient(async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [databaseName],
    );
    const pids = rows.map((row) => row.pid);
    const terminated = await client.query<{ done: boolean }>(
      'select pg_terminate_backend(pid) as done from unnest($1::int[]) as pid',
      [pids],
    );
    return terminated.rows.filter((row) => row.done).length;
  });
}

async function queryDatabase<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

interface Answer {
  status: number;
  retryAfter: string | null;
  replayed: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions that read them
  json: any;
}

async function bookWithKey(key: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}${ORCHESTRATE}`, {
    method: 'POST',
    headers: { authorization: merchant.apiKey, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    replayed: response.headers.get('idempotent-replayed') === 'true',
    json: text ? JSON.parse(text) : undefined,
  };
}

const get = async (path: string) => {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: await response.json() };
};

describePostgresOnly('PostgreSQL dropping the connections of real processes', {}, () => {
  beforeAll(async () => {
    const database = await createEmptyDatabase('drops');
    cleanups.push(database.drop);
    databaseUrl = database.url;
    databaseName = new URL(databaseUrl).pathname.slice(1);
    receiver = await startReceiver([], 200);
    cleanups.push(() => receiver.close());
    // The API process keeps its in-process workers (the default), and a worker process shares the
    // queue: both have connections in use when the backends are cut.
    server = await startServerProcess({ env: processEnv(databaseUrl) });
    cleanups.push(() => server.stop(15_000));
    worker = await startWorkerProcess({ env: processEnv(databaseUrl) });
    cleanups.push(() => worker.stop(15_000));
    merchant = await createMerchant(server.url, receiver);
  });

  it('bookings under repeated backend termination: the processes stay up, each answer is 200 or 503 with Retry-After, and each key books once', async () => {
    const keys = Array.from({ length: BOOKINGS }, (_, i) => ({
      key: `drop-${i}`,
      body: orderBody(merchant.warehouseId, { order_id: `DROP-${i}` }),
    }));
    const firstAnswers: number[] = [];
    const unexpected: string[] = [];
    const booked = new Map<string, { shipment_id: string; awb_code: string }>();
    let unavailable = 0;
    let answered = 0;
    // Settled as they end, so that a failed termination fails the test rather than the run.
    const terminations: Promise<number | Error>[] = [];

    async function bookUntilDone(item: (typeof keys)[number]) {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const answer = await bookWithKey(item.key, item.body);
        if (attempt === 1) {
          firstAnswers.push(answer.status);
          // Cut the connections in the middle of the load, not between bursts.
          if (++answered % TERMINATE_EVERY === 0 && answered < BOOKINGS)
            terminations.push(terminateBackends().catch((error: Error) => error));
        }
        if (answer.status === 200) {
          booked.set(item.key, {
            shipment_id: answer.json.payload.shipment_id,
            awb_code: answer.json.payload.awb_code,
          });
          return;
        }
        if (answer.status !== 503) {
          unexpected.push(`${item.key}: ${answer.status} ${JSON.stringify(answer.json)}`);
          return;
        }
        unavailable++;
        // The project's error envelope, and a hint a client can follow.
        expect(answer.json).toEqual({
          code: 'database_unavailable',
          message: 'The database is not answering; retry shortly',
          errors: ['The database is not answering; retry shortly'],
        });
        expect(answer.retryAfter).toBe('1');
        await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter) * 1000));
      }
      unexpected.push(`${item.key}: still 503 after ${MAX_ATTEMPTS} attempts`);
    }

    const queue = [...keys];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) await bookUntilDone(item);
      }),
    );
    const terminated = await Promise.all(terminations);
    console.log(
      `backend terminations: ${terminated.length} rounds cutting ${terminated.reduce<number>((a, b) => a + (typeof b === 'number' ? b : 0), 0)} connections; ` +
        `${BOOKINGS} keys, ${unavailable} answers 503, first answers ${JSON.stringify(countBy(firstAnswers))}`,
    );

    expect(unexpected).toEqual([]);
    expect(server.running(), server.report()).toBe(true);
    expect(worker.running(), worker.report()).toBe(true);
    expect(terminated).toHaveLength(BOOKINGS / TERMINATE_EVERY - 1);
    expect(terminated.filter((n) => typeof n !== 'number' || n === 0)).toEqual([]);
    // The connections were cut under requests in flight, which were told to retry.
    expect(unavailable).toBeGreaterThan(0);
    expect(booked.size).toBe(BOOKINGS);

    // Each key holds one booking: a retry (now) replays it, and the database has one order and one
    // shipment per key, each the one its key answered with.
    for (const item of keys) {
      const again = await bookWithKey(item.key, item.body);
      expect(again.status, item.key).toBe(200);
      expect(again.replayed, item.key).toBe(true);
      expect({ shipment_id: again.json.payload.shipment_id, awb_code: again.json.payload.awb_code }, item.key).toEqual(
        booked.get(item.key),
      );
    }
    const [orders] = await queryDatabase<{ n: number; distinct_ids: number }>(
      'select count(*)::int as n, count(distinct merchant_order_id)::int as distinct_ids from orders',
    );
    expect(orders).toEqual({ n: BOOKINGS, distinct_ids: BOOKINGS });
    const shipments = await queryDatabase<{ id: string; awb: string; merchant_order_id: string }>(
      'select s.id, s.awb, o.merchant_order_id from shipments s join orders o on o.id = s.order_id',
    );
    expect(shipments).toHaveLength(BOOKINGS);
    const byOrder = new Map(shipments.map((s) => [s.merchant_order_id, { shipment_id: s.id, awb_code: s.awb }]));
    expect(
      keys.filter(
        (item) => JSON.stringify(byOrder.get(item.body.order_id as string)) !== JSON.stringify(booked.get(item.key)),
      ),
    ).toEqual([]);
    const [stored] = await queryDatabase<{ n: number }>('select count(*)::int as n from idempotency_keys');
    expect(stored!.n).toBe(BOOKINGS);
  });

  // Its waits are for the whole server's transactions (eventsListed): longer than the default, so
  // that another file's long transaction beside it in CI is waited for, not failed on.
  it('the workers of both processes deliver every event of those bookings despite the cut connections, and stay up', {
    timeout: 420_000,
  }, async () => {
    // shipment.created and shipment.booked per booking.
    const events = await eventsListed(server.url, merchant, 2 * BOOKINGS, 200_000);
    // A delivery whose attempt could not be recorded is sent again when its lease runs out (12 s).
    await until(() => receivedIds(receiver).size === events.length, `${events.length} events at the receiver`, 200_000);
    expectEveryEventSigned(receiver, events, merchant.endpoint.secret);
    expect(server.running(), server.report()).toBe(true);
    expect(worker.running(), worker.report()).toBe(true);
    // And they saw the connections go: the loss is logged, not thrown.
    for (const log of [server.logFile, worker.logFile])
      expect(readFileSync(log, 'utf8')).toContain('"msg":"database connection lost"');
  });

  it('/readyz answers 503 while the database refuses connections, and 200 once it takes them again; /healthz stays 200', async () => {
    expect((await get('/readyz')).status).toBe(200);
    const body = orderBody(merchant.warehouseId, { order_id: 'DROP-REFUSED' });
    await withAdminClient((client) => client.query(`alter database ${databaseName} allow_connections false`));
    try {
      await terminateBackends();
      // Terminating signals the backends; each goes at its next look, so the probe may pass once more.
      await until(async () => (await get('/readyz')).status === 503, '/readyz to answer 503');
      for (let probe = 0; probe < 3; probe++) {
        expect(await get('/readyz')).toEqual({
          status: 503,
          retryAfter: '1',
          json: {
            code: 'database_unavailable',
            message: 'The database is not answering; retry shortly',
            errors: ['The database is not answering; retry shortly'],
          },
        });
      }
      expect(await get('/healthz')).toEqual({ status: 200, retryAfter: null, json: { status: 'ok' } });
      // A request meanwhile is told to come back, not failed.
      const refused = await bookWithKey('drop-while-refused', body);
      expect({ status: refused.status, retryAfter: refused.retryAfter }).toEqual({ status: 503, retryAfter: '1' });
    } finally {
      await withAdminClient((client) => client.query(`alter database ${databaseName} allow_connections true`));
    }
    await until(async () => (await get('/readyz')).status === 200, '/readyz to answer 200 again');
    expect(await get('/readyz')).toEqual({ status: 200, retryAfter: null, json: { status: 'ok' } });
    const retried = await bookWithKey('drop-while-refused', body);
    expect(retried.status).toBe(200);
    expect(server.running(), server.report()).toBe(true);
    expect(worker.running(), worker.report()).toBe(true);
  });
});

function countBy(values: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
