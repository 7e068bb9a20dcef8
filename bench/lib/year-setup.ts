// What bench/year.ts needs around its servers: scratch databases named dakiya_bench_year_*, a
// webhook receiver on 127.0.0.1, and an account made through the real API (an account, its API key,
// a warehouse, a store and a webhook endpoint, as a merchant makes them) before any rows are filled.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createAccount, type ServerProcess } from '../../test/server-process.js';
import { benchOrder } from './order-body.js';
import { BENCH_SERVER } from './scratch-database.js';

async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: BENCH_SERVER });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface YearDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh database dakiya_bench_year_<label>_<random>; drop() forces its connections off. */
export async function yearDatabase(label: string): Promise<YearDatabase> {
  const name = `dakiya_bench_year_${label}_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(BENCH_SERVER);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** An HTTP receiver on 127.0.0.1 that answers every webhook 204 and counts them. */
export async function startReceiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/dakiya`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function api(
  server: Pick<ServerProcess, 'url'>,
  credential: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}/custom/api/v1${route}`, {
    method,
    headers: {
      authorization: credential,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

export interface Merchant {
  accountId: string;
  apiKey: string;
  warehouseId: string;
  storeId: string;
  storeName: string;
  endpointId: string;
}

/** The merchant through the API: account (operator route), warehouse in Bengaluru, a store, a webhook endpoint. */
export async function makeMerchant(
  server: Pick<ServerProcess, 'url'>,
  adminToken: string,
  receiverUrl: string,
): Promise<Merchant> {
  const { accountId, apiKey } = await createAccount(server, adminToken, 'Year Retail');
  const warehouse = await api(server, apiKey, 'POST', '/warehouse', {
    name: 'Koramangala Fulfilment',
    phone_number: '080 4123 4567',
    email: 'ops@yearretail.example',
    contact_person: 'Ravi Kumar',
    address_attributes: {
      street_address: '80 Feet Road, Koramangala',
      zip: '560034',
      city: 'Bengaluru',
      state: 'Karnataka',
      country: 'India',
    },
  });
  const storeName = 'year-retail';
  const store = await api(server, apiKey, 'POST', '/client-stores', {
    store_name: storeName,
    brand_name: 'Year Retail',
  });
  const endpoint = await api(server, apiKey, 'POST', '/webhooks', { url: receiverUrl, events: ['*'] });
  return {
    accountId,
    apiKey,
    warehouseId: (warehouse.payload as Record<string, string>).warehouse_id!,
    storeId: ((store.data ?? store.payload) as Record<string, string>).id ?? '',
    storeName,
    endpointId: (endpoint.data as Record<string, string>).id!,
  };
}

/** Books `count` shipments through the API (the bench order, store-linked), answering their AWBs. */
export async function bookShipments(
  server: Pick<ServerProcess, 'url'>,
  merchant: Merchant,
  count: number,
  prefix: string,
): Promise<{ awb: string; orderId: string }[]> {
  const booked: { awb: string; orderId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const orderId = `${prefix}-${i + 1}`;
    const answer = await api(server, merchant.apiKey, 'POST', '/forward-order-orchestration', {
      ...benchOrder(merchant.warehouseId, orderId),
      store_name: merchant.storeName,
    });
    booked.push({ awb: (answer.payload as Record<string, string>).awb_code!, orderId });
  }
  return booked;
}

/** `--key=value` options (a bare `--key` is `true`), as the year benchmarks take them. */
export const benchArgs = (): Record<string, string> =>
  Object.fromEntries(
    process.argv.slice(2).map((arg) => {
      const [key, value = 'true'] = arg.replace(/^--/, '').split('=');
      return [key!, value];
    }),
  );

/** One client on `url` for `work`, ended after it. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Waits until the real bookings' e-mails are written (the fill copies one); says so when none came. */
export async function settle(url: string, accountId: string, log: (line: string) => void): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const n = await withClient(url, async (c) => {
      const r = await c.query<{ n: number }>(
        `select count(*)::int as n from notifications where account_id = $1 and body_html is not null`,
        [accountId],
      );
      return r.rows[0]!.n;
    });
    if (n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  log('no e-mail was written for the real bookings: the fill will leave notifications out');
}

/** A line of a year benchmark's log, with the time of day. */
export const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/**
 * What a run started (servers, databases, a receiver), undone last first by `cleanUp`, each step's
 * failure logged and the rest still undone: on the way out, and by the watchdog.
 */
export function cleanupStack() {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  async function cleanUp() {
    for (const cleanup of cleanups.splice(0).reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch((error: unknown) => log(`clean-up failed: ${String(error)}`));
  }
  return { cleanups, cleanUp };
}
