import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type Database, openPglite, openPostgres, queryRows } from '../src/base/db/client.js';
import { pgliteTemplateBlob, TEST_DATABASE_PREFIX, withAdminClient } from './databases.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../src/demo/simulators/delhivery-simulator.js';
import {
  EKART_CLIENT,
  EKART_PASSWORD,
  EKART_USER,
  type EkartSimulator,
  startEkartSimulator,
} from '../src/demo/simulators/ekart-simulator.js';
import { DELHIVERY_SURFACE, DTDC, EKART, SHADOWFAX, XPRESSBEES } from './kit/couriers.js';
import { ORCHESTRATE } from './kit/http.js';
import { orderBody } from './kit/orders.js';
import {
  SHADOWFAX_TOKEN,
  type ShadowfaxSimulator,
  startShadowfaxSimulator,
} from '../src/demo/simulators/shadowfax-simulator.js';
import {
  startXpressbeesSimulator,
  XPRESSBEES_EMAIL,
  XPRESSBEES_PASSWORD,
  type XpressbeesSimulator,
} from '../src/demo/simulators/xpressbees-simulator.js';

/**
 * Kills a real server process (SIGKILL) in the middle of bursts of idempotent bookings, restarts
 * it on the same data and retries every unanswered request with its key: each must end in one
 * booking whose answer (shipment and AWB) is the same for every response to that key. The bookings
 * rotate through the four courier APIs (Shadowfax, Xpressbees, Ekart and Delhivery connectors, each
 * against its simulator in this process) and the sandbox. A 502/503 naming the courier (a call that
 * failed under the load) is an answer that writes nothing and keeps no key: the request is retried
 * as an unanswered one.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_TOKEN = 'crash-test-admin-token-0123456789';
const BURST = 40;
/** Answers received before each kill: early, middle and late in the burst. */
const KILL_AFTER = [4, 15, 28];

/**
 * The courier APIs the bookings go through, each with where its simulator keeps the order reference
 * (our shipment id) of an AWB it issued, and how many orders it holds.
 */
const COURIER_APIS = [
  {
    carrierId: SHADOWFAX,
    connector: 'shadowfax',
    referenceOf: (awb: string) =>
      (shadowfax!.orders.get(awb)?.body.order_details as { client_order_id?: string } | undefined)?.client_order_id,
    held: () => shadowfax!.orders.size,
  },
  {
    carrierId: XPRESSBEES,
    connector: 'xpressbees',
    referenceOf: (awb: string) => xpressbees!.shipments.get(awb)?.body.order_number as string | undefined,
    held: () => xpressbees!.shipments.size,
  },
  {
    carrierId: EKART,
    connector: 'ekart',
    referenceOf: (awb: string) => ekart!.packages.get(awb)?.body.order_number as string | undefined,
    held: () => ekart!.packages.size,
  },
  {
    carrierId: DELHIVERY_SURFACE,
    connector: 'delhivery',
    referenceOf: (awb: string) => delhivery!.packages.get(awb)?.order,
    held: () => delhivery!.packages.size,
  },
];
/** Each burst's bookings in turn: every courier API, then the sandbox. */
const ROTATION = [...COURIER_APIS.map((courier) => courier.carrierId), DTDC];
const engine = process.env.DAKIYA_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';

interface Sent {
  key: string;
  body: Record<string, unknown>;
  answer?: { shipment_id: string; awb_code: string };
  acknowledged: boolean;
}
interface Reply {
  status: number;
  body: string;
  replayed: boolean;
}

let dataDir: string | undefined;
let databaseName: string | undefined;
let port = 0;
let child: ChildProcess | undefined;
let childLog = '';
let shadowfax: ShadowfaxSimulator | undefined;
let xpressbees: XpressbeesSimulator | undefined;
let ekart: EkartSimulator | undefined;
let delhivery: DelhiverySimulator | undefined;
let couriersFile: string | undefined;

function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return free;
}

/** One request on a connection of its own, so no pooled socket outlives a killed server. */
function request(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        timeout: 20_000,
        headers: { ...(payload && { 'content-type': 'application/json' }), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            replayed: res.headers['idempotent-replayed'] === 'true',
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

const READY_WITHIN_MS = 120_000;

async function startServer(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    COURIERS_FILE: couriersFile,
    SHADOWFAX_TOKEN,
    SHADOWFAX_BASE_URL: shadowfax!.baseUrl,
    XPRESSBEES_EMAIL,
    XPRESSBEES_PASSWORD,
    XPRESSBEES_BASE_URL: xpressbees!.baseUrl,
    EKART_CLIENT_ID: EKART_CLIENT,
    EKART_USERNAME: EKART_USER,
    EKART_PASSWORD,
    EKART_BASE_URL: ekart!.baseUrl,
    DELHIVERY_API_TOKEN: SIM_TOKEN,
    DELHIVERY_BASE_URL: delhivery!.baseUrl,
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (databaseName) env.DATABASE_URL = databaseUrl(databaseName);
  else env.DATA_DIR = dataDir;
  const started = spawn(process.execPath, ['test/crash-server.mjs'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = started;
  const keep = (chunk: Buffer) => {
    childLog = (childLog + chunk.toString('utf8')).slice(-4000);
  };
  started.stdout!.on('data', keep);
  started.stderr!.on('data', keep);
  // A start-up, not the claim under test: on a machine running other suites beside this file's
  // (two test files at once, or several runs) it can take well over 30 s.
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (started.exitCode !== null) throw new Error(`server exited with ${started.exitCode}: ${childLog}`);
    const ready = await request('GET', '/readyz', undefined).catch(() => undefined);
    if (ready?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready after ${READY_WITHIN_MS / 1000} s: ${childLog}`);
}

async function stopServer(signal: NodeJS.Signals): Promise<void> {
  const running = child;
  child = undefined;
  if (!running || running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill(signal);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
}

// The data starts as the run's migrated copy (test/*-global-setup.ts), as a server's does after its
// first start: the claim is about restarts, and a first start would only add an initdb and the
// migrations to the time.
beforeAll(async () => {
  port = await freePort();
  [shadowfax, xpressbees, ekart, delhivery] = await Promise.all([
    startShadowfaxSimulator(),
    startXpressbeesSimulator(),
    startEkartSimulator(),
    startDelhiverySimulator(),
  ]);
  const catalogue = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/couriers.json'), 'utf8')) as {
    couriers: { id: string; connector?: string }[];
  };
  for (const service of catalogue.couriers) {
    const connector = COURIER_APIS.find((courier) => courier.carrierId === service.id)?.connector;
    if (connector) service.connector = connector;
  }
  couriersFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-crash-couriers-')), 'couriers.json');
  fs.writeFileSync(couriersFile, JSON.stringify(catalogue));
  if (engine === 'postgres') {
    databaseName = `${TEST_DATABASE_PREFIX}${inject('testRunId')}_crash${randomBytes(3).toString('hex')}`;
    await withAdminClient((client) =>
      client.query(`create database ${databaseName} template ${inject('postgresTemplate')}`),
    );
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dakiya-crash-'));
    const seeded = await openPglite(dataDir, await pgliteTemplateBlob());
    await seeded.close();
  }
});

afterAll(async () => {
  await stopServer('SIGKILL');
  await Promise.all([shadowfax?.close(), xpressbees?.close(), ekart?.close(), delhivery?.close()]);
  if (couriersFile) fs.rmSync(path.dirname(couriersFile), { recursive: true, force: true });
  if (databaseName)
    await withAdminClient((client) => client.query(`drop database if exists ${databaseName} with (force)`));
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it(`bookings interrupted by SIGKILL complete on retry with their first answer, once each (${engine})`, {
  timeout: 600_000,
}, async () => {
  const started = Date.now();
  await startServer();
  const account = await request(
    'POST',
    '/admin/v1/accounts',
    { name: 'Crash test' },
    { authorization: `Bearer ${ADMIN_TOKEN}` },
  );
  expect(account.status).toBe(201);
  const { data, api_key: apiKey } = JSON.parse(account.body) as { data: { id: string }; api_key: string };
  const warehouse = await request(
    'POST',
    '/custom/api/v1/warehouse',
    {
      name: 'Okhla Fulfilment Centre',
      phone_number: '9876543210',
      address_attributes: {
        street_address: 'Plot 14, Okhla Phase III',
        zip: '110001',
        city: 'New Delhi',
        state: 'Delhi',
        country: 'India',
      },
    },
    { authorization: apiKey },
  );
  expect(warehouse.status).toBe(201);
  const warehouseId = (JSON.parse(warehouse.body) as { payload: { warehouse_id: string } }).payload.warehouse_id;

  const sent: Sent[] = [];
  const failures: string[] = [];
  let conflicts = 0;
  let courierFailures = 0;
  /** Keys whose booking committed but whose answer was lost with the process: first answered by a replay. */
  let committedUnanswered = 0;
  /** Keys left without an answer by a kill, and how many retries they took in all. */
  const unacknowledged = new Set<string>();
  let retried = 0;

  /** Sends one request with its key; records the first answer and checks every later one against it. */
  async function send(item: Sent): Promise<void> {
    let reply: Reply;
    try {
      reply = await request('POST', ORCHESTRATE, item.body, { authorization: apiKey, 'idempotency-key': item.key });
    } catch {
      return; // the server died under it: unanswered, retried later
    }
    if (reply.status === 409) {
      conflicts++; // a lease still held by a connection the server has not yet seen close
      return;
    }
    if (
      (reply.status === 502 || reply.status === 503) &&
      /(Shadowfax|Xpressbees|Ekart|Delhivery) could not be reached/.test(reply.body)
    ) {
      courierFailures++;
      return;
    }
    if (reply.status !== 200) {
      failures.push(`${item.key}: ${reply.status} ${reply.body}`);
      return;
    }
    const { shipment_id, awb_code } = (JSON.parse(reply.body) as { payload: { shipment_id: string; awb_code: string } })
      .payload;
    if (item.answer && (item.answer.shipment_id !== shipment_id || item.answer.awb_code !== awb_code)) {
      failures.push(
        `${item.key}: answered ${shipment_id}/${awb_code}, earlier ${item.answer.shipment_id}/${item.answer.awb_code}`,
      );
    }
    if (!item.acknowledged && reply.replayed) committedUnanswered++;
    item.answer ??= { shipment_id, awb_code };
    item.acknowledged = true;
  }

  // Each round: a new burst plus the retries of everything still unanswered, killed mid-burst.
  for (const [round, killAfter] of KILL_AFTER.entries()) {
    const retries = sent.filter((item) => !item.acknowledged);
    for (const item of retries) unacknowledged.add(item.key);
    retried += retries.length;
    const burst = Array.from({ length: BURST }, (_, i) => ({
      key: `crash-${round}-${i}`,
      body: orderBody(warehouseId, { order_id: `CRASH-${round}-${i}`, carrier_id: ROTATION[i % ROTATION.length] }),
      acknowledged: false,
    }));
    sent.push(...burst);
    let answered = 0;
    let killed: Promise<void> | undefined;
    await Promise.all(
      [...retries, ...burst].map((item) =>
        send(item).then(() => {
          if (++answered >= killAfter && !killed) killed = stopServer('SIGKILL');
        }),
      ),
    );
    await (killed ?? stopServer('SIGKILL'));
    await startServer();
  }

  // After the last restart: retry until every key is answered (bounded; a 409 only lasts until
  // the database notices the dead process's connections).
  for (let attempt = 0; attempt < 50 && sent.some((item) => !item.acknowledged); attempt++) {
    const retries = sent.filter((item) => !item.acknowledged);
    for (const item of retries) unacknowledged.add(item.key);
    retried += retries.length;
    await Promise.all(retries.map(send));
    if (sent.some((item) => !item.acknowledged)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // And every key once more, answered or not: a replay of its one booking.
  await Promise.all(sent.map(send));

  await stopServer('SIGTERM');
  const database: Database = databaseName
    ? await openPostgres(databaseUrl(databaseName), 1)
    : await openPglite(dataDir);
  try {
    const orders = await queryRows<{ merchant_order_id: string; n: number }>(
      database.db,
      sql`select merchant_order_id, count(*)::int as n from orders where account_id = ${data.id} group by merchant_order_id`,
    );
    const viaCourier = await queryRows<{ id: string; awb: string; carrier_id: string }>(
      database.db,
      sql`select id, awb, carrier_id from shipments where account_id = ${data.id} and carrier_id <> ${DTDC}`,
    );
    const awbs = await queryRows<{ awb: string | null; n: number }>(
      database.db,
      sql`select awb, count(*)::int as n from shipments where account_id = ${data.id} group by awb`,
    );
    const report = {
      engine,
      kills: KILL_AFTER.length,
      requests: sent.length,
      unacknowledged: unacknowledged.size,
      retried,
      committedUnanswered,
      conflicts,
      courierFailures,
      failures: failures.length,
      // Per courier: bookings Dakiya holds, and orders the courier created whose answer died with a
      // killed process (never handed over, decision 84).
      couriers: Object.fromEntries(
        COURIER_APIS.map(({ connector, carrierId, held }) => {
          const booked = viaCourier.filter((row) => row.carrier_id === carrierId).length;
          return [connector, { booked, orphans: held() - booked }];
        }),
      ),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
    console.log(`crash test: ${JSON.stringify(report)}`);
    expect(failures).toEqual([]);
    expect(sent.filter((item) => !item.acknowledged).map((item) => item.key)).toEqual([]);
    expect(orders.filter((row) => Number(row.n) !== 1)).toEqual([]);
    expect(orders).toHaveLength(sent.length);
    expect(awbs.filter((row) => row.awb === null || Number(row.n) !== 1)).toEqual([]);
    // Each courier holds the orders sent to it, and each AWB Dakiya holds is that courier's order for the shipment.
    for (const { carrierId, referenceOf } of COURIER_APIS) {
      const booked = viaCourier.filter((row) => row.carrier_id === carrierId);
      expect(booked).toHaveLength(sent.filter((item) => item.body.carrier_id === carrierId).length);
      expect(booked.filter((row) => referenceOf(row.awb) !== row.id)).toEqual([]);
    }
    // Every answer names the booking the database holds for its order.
    const shipments = await queryRows<{ id: string; awb: string; merchant_order_id: string }>(
      database.db,
      sql`select s.id, s.awb, o.merchant_order_id from shipments s join orders o on o.id = s.order_id where s.account_id = ${data.id}`,
    );
    const byOrder = new Map(
      shipments.map((row) => [row.merchant_order_id, { shipment_id: row.id, awb_code: row.awb }]),
    );
    expect(
      sent.filter((item) => JSON.stringify(byOrder.get(item.body.order_id as string)) !== JSON.stringify(item.answer)),
    ).toEqual([]);
  } finally {
    await database.close();
  }
});
