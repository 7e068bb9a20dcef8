import fs from 'node:fs';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { ORCHESTRATE, V1, WAREHOUSE } from './kit/http.js';
import { orderBody } from './kit/orders.js';
import { warehouseBody } from './kit/warehouses.js';
import { type Receiver, until } from './webhook-receiver.js';
import { spawnedPids } from './server-process.js';

/**
 * Helpers for the tests that run webhook delivery in real processes (`npm start`, `npm run
 * worker`) on a PostgreSQL database and watch what a real receiver gets.
 */

export const ADMIN_TOKEN = 'process-test-admin-token-0123456789';

/**
 * The configuration every process of these tests gets: receivers on 127.0.0.1 over plain http, quick
 * retries, and a lease margin of 2 s instead of 30 s, so that a delivery a killed process held is
 * sent again 12 s after it was taken rather than 40 s. Two seconds still leave a live process room
 * to record an attempt that ran to the 10 s timeout, which none of these cases do anyway.
 */
export function processEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: '',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    ADMIN_TOKEN,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_DELAYS: '0.2,0.2,0.2',
    WORKER_LEASE_MARGIN_MS: '2000',
    // Four of these processes and another file's run on one PostgreSQL (max_connections 100): at
    // the default 10 a process holds 19 connections, and two files' servers together ran out.
    DATABASE_POOL_SIZE: '4',
    ...extra,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions that read them
type Json = any;

export async function call(
  base: string,
  method: string,
  path: string,
  credential: string,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: credential, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

export interface Merchant {
  apiKey: string;
  warehouseId: string;
  endpoint: { id: string; secret: string };
}

/** An account (operator API), a warehouse, and an endpoint at `receiver` subscribed to every event. */
export async function createMerchant(server: string, receiver: Receiver): Promise<Merchant> {
  const account = await call(server, 'POST', '/admin/v1/accounts', `Bearer ${ADMIN_TOKEN}`, {
    name: 'Webhook processes',
  });
  expect(account.status, JSON.stringify(account.json)).toBe(201);
  const apiKey: string = account.json.api_key;
  const warehouse = await call(server, 'POST', WAREHOUSE, apiKey, warehouseBody());
  expect(warehouse.status, JSON.stringify(warehouse.json)).toBe(201);
  const endpoint = await call(server, 'POST', `${V1}/webhooks`, apiKey, { url: receiver.url, events: ['*'] });
  expect(endpoint.status, JSON.stringify(endpoint.json)).toBe(201);
  return {
    apiKey,
    warehouseId: warehouse.json.payload.warehouse_id,
    endpoint: { id: endpoint.json.data.id, secret: endpoint.json.data.secret },
  };
}

/** Books `count` orders at once through `server`: two events each (shipment.created, shipment.booked). */
export async function book(server: string, merchant: Merchant, count: number): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      call(server, 'POST', ORCHESTRATE, merchant.apiKey, orderBody(merchant.warehouseId)),
    ),
  );
  for (const answer of answers) expect(answer.status, JSON.stringify(answer.json)).toBe(200);
}

export interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
  sequence: number;
  data: unknown;
}

/** Every event `GET /events` lists for the merchant, oldest first. */
export async function listEvents(server: string, merchant: Merchant): Promise<ListedEvent[]> {
  const events: ListedEvent[] = [];
  for (let after = ''; ; ) {
    const page = await call(server, 'GET', `${V1}/events?limit=100${after && `&after=${after}`}`, merchant.apiKey);
    expect(page.status).toBe(200);
    events.push(...page.json.data);
    if (!page.json.meta.has_more) return events;
    after = page.json.meta.next_after;
  }
}

export interface ListedDelivery {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  attempts: { status_code: number | null; error: string | null }[];
}

/** Every delivery `GET /webhooks/:id/deliveries` lists for the merchant's endpoint. */
export async function listDeliveries(server: string, merchant: Merchant): Promise<ListedDelivery[]> {
  const deliveries: ListedDelivery[] = [];
  for (let before = ''; ; ) {
    const page = await call(
      server,
      'GET',
      `${V1}/webhooks/${merchant.endpoint.id}/deliveries?limit=100${before && `&before=${before}`}`,
      merchant.apiKey,
    );
    expect(page.status).toBe(200);
    deliveries.push(...page.json.data);
    if (!page.json.meta.next_before) return deliveries;
    before = page.json.meta.next_before;
  }
}

/**
 * Polls until `server` lists `count` events: an event is listed once every transaction before it has
 * ended, on the whole PostgreSQL server (the snapshot's xmin is the cluster's), so another test
 * file's long transaction in its own database (a restore, a dump) holds the list back until it ends:
 * in `.ci/run` of cf60880 on machine Y the pg-drops file waited past 110 s beside the data move's
 * file. `timeoutMs` lets a file that runs beside such work wait for it.
 */
export async function eventsListed(
  server: string,
  merchant: Merchant,
  count: number,
  timeoutMs?: number,
): Promise<ListedEvent[]> {
  let events: ListedEvent[] = [];
  await until(
    async () => {
      events = await listEvents(server, merchant);
      return events.length === count;
    },
    `${count} events listed`,
    timeoutMs,
  );
  return events;
}

/** Waits until every event has reached the receiver and every delivery is recorded as succeeded. */
export async function allDelivered(
  server: string,
  merchant: Merchant,
  receiver: Receiver,
  count: number,
  timeoutMs = 110_000,
): Promise<void> {
  await until(() => receivedIds(receiver).size === count, `${count} events at the receiver`, timeoutMs);
  await until(
    async () => (await listDeliveries(server, merchant)).filter((d) => d.status === 'succeeded').length === count,
    `${count} deliveries recorded`,
    timeoutMs,
  );
}

/**
 * Each event's delivery listed once, succeeded at its first recorded attempt: an attempt whose
 * end its process never saw (killed, or stopped mid-send) leaves no record.
 */
export async function expectDeliveredOnce(server: string, merchant: Merchant, events: ListedEvent[]): Promise<void> {
  const deliveries = await listDeliveries(server, merchant);
  expect(deliveries.map((d) => d.event_id).sort()).toEqual(events.map((e) => e.id).sort());
  expect(
    deliveries.filter((d) => d.status !== 'succeeded' || d.attempt_count !== 1 || d.attempts.length !== 1),
  ).toEqual([]);
}

/** The webhook-ids a receiver got, once each. */
export const receivedIds = (receiver: Receiver) =>
  new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));

/**
 * Every request the receiver got is one of `events`, signed with the endpoint's secret (the
 * standardwebhooks package's verifier accepts it), its webhook-id the event's id and its body the
 * event as listed; and every event arrived.
 */
export function expectEveryEventSigned(receiver: Receiver, events: ListedEvent[], secret: string): void {
  const verifier = new Webhook(secret);
  const byId = new Map(events.map((e) => [e.id, e]));
  for (const { headers, body } of receiver.received) {
    const event = verifier.verify(body, headers as Record<string, string>) as ListedEvent;
    expect(headers['webhook-id']).toBe(event.id);
    expect(event).toEqual(byId.get(event.id));
  }
  expect([...receivedIds(receiver)].sort()).toEqual([...byId.keys()].sort());
}

/**
 * The processes this test process spawned (test/server-process.ts) and all their descendants, by
 * parent pid (Linux: field 4 of /proc/<pid>/stat): npm, its shell and the server it runs.
 */
function spawnedTree(): number[] {
  const parentOf = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parentOf.set(Number(name), Number(fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set(spawnedPids);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parentOf) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/**
 * Which process holds the client end of `socket`, a connection accepted on 127.0.0.1 (Linux: the
 * socket's inode from /proc/net/tcp, then the process whose descriptors include it). `likely` are
 * looked at first; then every process this test spawned and their descendants, since a process may
 * send before the test has read its pid from its log (a worker starts sending as it starts).
 */
export function socketOwner(socket: Socket, likely: () => number[]): number | undefined {
  const hex = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const client = hex(socket.remotePort!);
  const server = hex(socket.localPort!);
  const line = fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((row) => row.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(client) && fields[2]?.endsWith(server));
  if (!line) return undefined;
  const target = `socket:[${line[9]}]`;
  const holds = (pid: number) => {
    try {
      return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => readLink(`/proc/${pid}/fd/${fd}`) === target);
    } catch {
      return false; // gone meanwhile
    }
  };
  const known = likely();
  return known.find(holds) ?? spawnedTree().find((pid) => !known.includes(pid) && holds(pid));
}

function readLink(file: string): string | undefined {
  try {
    return fs.readlinkSync(file);
  } catch {
    return undefined;
  }
}
