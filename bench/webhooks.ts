/**
 * What webhooks cost and how fast they arrive, on PostgreSQL, in one run:
 *
 *   npm run bench:webhooks
 *
 * The server runs as users run it (`npm start`, its own process, default logging, the webhook worker
 * in the API process as by default) against a fresh database `dakiya_bench_<random>` on
 * BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped at the end,
 * with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE set so it may POST to a receiver on 127.0.0.1. BENCH_CONNECTIONS (default
 * 10) clients book orders (forward-order-orchestration, unique order ids) for BENCH_DURATION
 * seconds (default 10) in four rounds that alternate: the account with no webhook endpoint (the
 * baseline), then with one endpoint subscribed to every event (a local receiver answering 200),
 * then again without and with. Each booking writes two events either way; with an endpoint the
 * worker also fans them out and POSTs them, signed, to the receiver.
 *
 * Reported: bookings/s in each round, and for every event delivered, event-to-delivery latency
 * (the receiver's arrival time minus the event's created_at, both read from this process's clock).
 * The clients (plain fetch loops) run in this process, beside the receiver; the rounds share that
 * handicap, so their ratio is the cost.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { BENCH_ADMIN_TOKEN } from './lib/app.js';
import { describeLoad, describeMachine } from './lib/machine.js';
import { benchOrder } from './lib/order-body.js';
import { createAccount, type ServerProcess, startServerProcess } from '../test/server-process.js';

const ORCHESTRATE = '/custom/api/v1/forward-order-orchestration';
const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10);
const DURATION_MS = setting('BENCH_DURATION', 10) * 1000;

async function post(server: ServerProcess, apiKey: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}


/** A receiver on 127.0.0.1 that notes when each event arrived. */
async function startReceiver() {
  const latencies: number[] = [];
  const seen = new Set<string>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const arrived = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; created_at: string };
      if (!seen.has(event.id)) latencies.push(arrived - Date.parse(event.created_at));
      seen.add(event.id);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/dakiya`,
    latencies,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `CONNECTIONS` clients booking one after another for DURATION_MS; answers bookings/s. */
async function bookFor(server: ServerProcess, apiKey: string, warehouseId: string, tag: string): Promise<number> {
  const end = Date.now() + DURATION_MS;
  let booked = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      for (let i = 0; Date.now() < end; i++) {
        await post(server, apiKey, ORCHESTRATE, benchOrder(warehouseId, `${tag}-${c}-${i}`));
        booked++;
      }
    }),
  );
  return booked / ((Date.now() - started) / 1000);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const adminUrl = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (adminUrl.hostname !== '127.0.0.1' && adminUrl.hostname !== 'localhost') {
    throw new Error(`BENCH_POSTGRES_URL must point at this machine (127.0.0.1), not ${adminUrl.hostname}`);
  }
  const databaseName = `dakiya_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const receiver = await startReceiver();
  const server = await startServerProcess({
    env: {
      DATABASE_URL: databaseUrl.toString(),
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '100000000',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
  });
  const client = new pg.Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  try {
    const { apiKey } = await createAccount(server, BENCH_ADMIN_TOKEN, 'Webhooks benchmark');
    console.log(`${describeMachine()}\n${describeLoad()}\nPostgreSQL, ${CONNECTIONS} clients, ${DURATION_MS / 1000} s per round`);
    console.log(`server: npm start (serving pid ${server.serverPid}), serving ${(server.startupMs / 1000).toFixed(1)} s after spawn, default logging to a file\n`);
    const warehouse = await post(server, apiKey, '/custom/api/v1/warehouse', {
      name: 'Koramangala Fulfilment',
      phone_number: '080 4123 4567',
      address_attributes: { street_address: '80 Feet Road', zip: '560001', city: 'Bengaluru', state: 'Karnataka', country: 'India' },
    });
    const warehouseId = warehouse.payload.warehouse_id as string;
    // Warm-up, unrecorded.
    await bookFor(server, apiKey, warehouseId, 'warm');
    const rounds: { endpoint: boolean; rate: number }[] = [];
    let endpointId: string | undefined;
    for (const [round, withEndpoint] of [false, true, false, true].entries()) {
      if (withEndpoint && !endpointId) {
        endpointId = (await post(server, apiKey, '/custom/api/v1/webhooks', { url: receiver.url, events: ['*'] })).data.id;
      }
      if (!withEndpoint && endpointId) {
        await fetch(`${server.url}/custom/api/v1/webhooks/${endpointId}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
        endpointId = undefined;
      }
      const rate = await bookFor(server, apiKey, warehouseId, `r${round}`);
      rounds.push({ endpoint: withEndpoint, rate });
      console.log(`round ${round + 1}: ${withEndpoint ? 'one endpoint' : 'no endpoint '}  ${rate.toFixed(1).padStart(7)} bookings/s`);
      if (withEndpoint) {
        // Let the worker finish this round's deliveries before the next round is timed.
        const deadline = Date.now() + 120_000;
        const pending = async () =>
          (await client.query<{ n: number }>("select count(*)::int as n from webhook_deliveries where status = 'pending'")).rows[0]!.n;
        while ((await pending()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const without = rounds.filter((r) => !r.endpoint).map((r) => r.rate);
    const withOne = rounds.filter((r) => r.endpoint).map((r) => r.rate);
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const sorted = [...receiver.latencies].sort((a, b) => a - b);
    console.log(
      `\nbookings/s without an endpoint: ${mean(without).toFixed(1)}; with one: ${mean(withOne).toFixed(1)} (${((mean(withOne) / mean(without)) * 100).toFixed(0)} %)`,
    );
    console.log(`after: ${describeLoad()}`);
    console.log(`event-to-delivery latency over ${sorted.length} events: p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms, max ${sorted.at(-1)} ms`);
  } finally {
    await client.end();
    await server.stop();
    fs.rmSync(path.dirname(server.logFile), { recursive: true, force: true });
    await receiver.close();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
