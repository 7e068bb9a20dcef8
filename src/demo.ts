import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { buildApp } from './app.js';
import { ConfigError } from './base/config-error.js';
import { openPglite } from './base/db/client.js';
import { migrate } from './base/db/migrate.js';
import { DEMO_COURIER_SERVICES, type NdrDecision, startCourierSimulators } from './demo/courier-simulators.js';
import { DEMO_ALLOCATION_RULES, DEMO_CUSTOMERS, DEMO_ITEMS, DEMO_RETURN_POLICY } from './demo/demo-data.js';
import { demoLogoPng } from './demo/logo.js';
import { type ConnectedStore, startStoreSimulators } from './demo/store-simulators.js';
import { withConnectors, withSimulatedCouriers } from './couriers/with-connectors.js';
import { DataFileError } from './domain/data-file-issues.js';
import { loadRatesContext } from './data-files.js';
import { loadSettings, withOverrides } from './settings.js';

/** How many sandbox shipments the demo books: order ids ending 1 to 12, so every scenario has some. */
const SHIPMENTS = 12;
/** How many it books through the four courier APIs' simulators, chosen by the allocation rules. */
const ALLOCATED_SHIPMENTS = 8;
/**
 * One more per courier API: its first delivery fails and it waits in the NDR queue for the
 * merchant's decision (a reattempt or a return to origin), however long the demo runs.
 */
const WAITING_NDR_SHIPMENTS = Object.keys(DEMO_COURIER_SERVICES);

/**
 * `npm run demo`: the whole product in one command, no courier account needed. A fresh embedded
 * database in a temporary folder, a demo account with a branded store, a warehouse and a dozen
 * shipments that move through the sandbox's scenarios on its clock (SANDBOX_STEP_SECONDS, 20 s
 * here unless set) as the poller pulls them. Delhivery Surface, Ekart, Xpressbees and Shadowfax
 * book through their connectors against local simulators of the couriers' APIs, chosen by the
 * account's allocation rules; their parcels move one scan a step (Ekart's also pushed to its webhook).
 * A Shopify shop and a WooCommerce site, local simulators of their APIs, feed two more stores:
 * their waiting orders are pulled when connected, and a new one arrives by signed webhook every few
 * steps (Shopify's booked at once by the rules, WooCommerce's queued for the merchant).
 */
async function main() {
  const demoDefaults = { SANDBOX_STEP_SECONDS: '20', TRACKING_POLL_SECONDS: '5' };
  const loaded = loadSettings(undefined, demoDefaults).settings;
  // The four courier API services book through their real connectors, against simulators: test bookings.
  const rates = withSimulatedCouriers(
    withConnectors(
      loadRatesContext({ couriersFile: loaded.couriers.catalogueFile }),
      (service) => DEMO_COURIER_SERVICES[service.id] ?? 'sandbox',
    ),
    Object.keys(DEMO_COURIER_SERVICES),
  );
  const simulators = await startCourierSimulators();
  const stores = await startStoreSimulators();
  const folder = mkdtempSync(path.join(tmpdir(), 'dakiya-demo-'));
  const database = await openPglite(folder);
  await migrate(database.db);
  const adminToken = randomBytes(24).toString('hex');
  // The public links (logos, labels, tracking pages) must name the port served: with PORT=0 it is
  // chosen before the app is built, since the app takes its base URL up front (PUBLIC_BASE_URL
  // still wins when set).
  const { host } = loaded.server;
  const port = loaded.server.port === 0 ? await freePort(host) : loaded.server.port;
  const listening = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const config = loadSettings(undefined, { ...demoDefaults, PUBLIC_BASE_URL: listening }).settings;
  const base = config.server.publicBaseUrl;
  const app = await buildApp({
    db: database.db,
    settings: withOverrides(config, {
      server: { adminToken },
      couriers: simulators.settings(config.couriers),
      channels: stores.channelSettings(config.channels),
      // The store simulators are plain http on 127.0.0.1, which the outbound guard refuses unless allowed.
      outbound: { allowHttp: true, allowPrivate: true },
    }),
    rates,
    logger: { level: config.server.logLevel === 'info' ? 'warn' : config.server.logLevel },
  });
  let moving: NodeJS.Timeout | undefined;
  let selling: NodeJS.Timeout | undefined;
  const stop = async () => {
    clearInterval(moving);
    clearInterval(selling);
    await app.close();
    await simulators.close();
    await stores.close();
    await database.close();
    rmSync(folder, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());

  await app.listen({ port, host });
  await simulators.registerEkartWebhook(`${listening}/carrier/v1/ekart/webhook`);

  const call = async (method: 'POST' | 'PUT' | 'GET', url: string, payload: object, authorization: string) => {
    const response = await app.inject({
      method,
      url,
      ...(method !== 'GET' && { payload }),
      headers: { authorization },
    });
    if (response.statusCode >= 300) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    return response.json();
  };
  // A password of its own per run: the demo's data dies with it, and nobody else can sign in meanwhile.
  const panelLogin = { username: 'demo', password: randomBytes(9).toString('base64url') };
  const account = await call(
    'POST',
    '/admin/v1/accounts',
    { name: 'Chai Point Retail', ...panelLogin },
    `Bearer ${adminToken}`,
  );
  const apiKey: string = account.api_key;
  const chaiPoint = await call(
    'POST',
    '/custom/api/v1/client-stores',
    { store_name: 'chai-point', brand_name: 'Chai Point', logo: demoLogoPng().toString('base64') },
    apiKey,
  );
  // The team beside the owner's login (docs/teams.md): an operations member limited to the Chai
  // Point store (the Shopify and WooCommerce stores' orders are not theirs) and a finance member,
  // joined through their invitations' links (no e-mail leaves the demo), with one password of this run.
  const teamPassword = randomBytes(9).toString('base64url');
  const team = [
    { email: 'ops@chaipoint.example', role: 'operations', name: 'Farhan (warehouse)', stores: [chaiPoint.data.id] },
    { email: 'finance@chaipoint.example', role: 'finance', name: 'Meena (accounts)' },
  ];
  for (const member of team) {
    const invited = await call('POST', '/custom/api/v1/members', member, apiKey);
    const token = String(invited.invitation.accept_url).split('#')[1];
    await call('POST', '/panel/v1/invitation/accept', { token, name: member.name, password: teamPassword }, '');
  }
  const warehouse = await call(
    'POST',
    '/custom/api/v1/warehouse',
    {
      name: 'Okhla Fulfilment Centre',
      phone_number: '9876543210',
      email: 'ops@chaipoint.example',
      contact_person: 'Ravi Kumar',
      address_attributes: {
        street_address: 'Plot 14, Okhla Phase III',
        zip: '110020',
        city: 'New Delhi',
        state: 'Delhi',
        country: 'India',
      },
    },
    apiKey,
  );
  type Booked = {
    awb_code: string;
    shipment_id: string;
    track_url?: string | null;
    courier_name: string;
    allocation: { rule: string; reason: string } | null;
  };
  const book = async (n: number, orderId: string, carrierId: string | undefined): Promise<Booked> => {
    const customer = DEMO_CUSTOMERS[n % DEMO_CUSTOMERS.length]!;
    const item = DEMO_ITEMS[n % DEMO_ITEMS.length]!;
    const cod = n % 3 === 0;
    const answer = await call(
      'POST',
      '/custom/api/v1/forward-order-orchestration',
      {
        order_id: orderId,
        ...(carrierId && { carrier_id: carrierId }),
        order_date: new Date().toISOString(),
        store_name: 'chai-point',
        billing_customer_name: customer.name,
        billing_last_name: customer.last,
        billing_address: customer.address,
        billing_city: customer.city,
        billing_pincode: customer.pincode,
        billing_state: customer.state,
        billing_country: 'India',
        billing_email: `${customer.name.toLowerCase()}@example.com`,
        billing_phone: customer.phone,
        shipping_is_billing: true,
        order_items: [{ name: item.name, sku: item.sku, units: 1, selling_price: item.price, discount: 0 }],
        payment_method: cod ? 'COD' : 'PREPAID',
        sub_total: item.price,
        cod_collectible: cod ? item.price : 0,
        length: 20,
        breadth: 15,
        height: 10,
        weight: 0.5,
        warehouse_id: warehouse.payload.warehouse_id,
      },
      apiKey,
    );
    return answer.payload;
  };
  // The sandbox services are every one but the four the simulators stand for.
  const sandboxService = rates.catalogue.services.find((service) => service.connector === 'sandbox')!.id;
  const bookings: Booked[] = [];
  for (let n = 1; n <= SHIPMENTS; n++) bookings.push(await book(n, `DEMO-${1000 + n}`, sandboxService));
  for (const rule of DEMO_ALLOCATION_RULES) await call('POST', '/custom/api/v1/allocation/rules', rule, apiKey);
  const allocated: Booked[] = [];
  for (let n = 1; n <= ALLOCATED_SHIPMENTS; n++) allocated.push(await book(n, `DEMO-${2000 + n}`, undefined));
  const failing: Booked[] = [];
  for (const [i, carrierId] of WAITING_NDR_SHIPMENTS.entries()) {
    const booked = await book(i + 1, `DEMO-${3001 + i}`, carrierId);
    simulators.holdAtNdr(booked.awb_code);
    failing.push(booked);
  }
  // An exchange in flight: a size swap for the first customer, both legs on the sandbox.
  const swapper = DEMO_CUSTOMERS[0]!;
  const swapped = DEMO_ITEMS[0]!;
  const buyerAs = (prefix: 'billing' | 'pickup') => ({
    [`${prefix}_customer_name`]: swapper.name,
    [`${prefix}_last_name`]: swapper.last,
    [`${prefix}_address`]: swapper.address,
    [`${prefix}_city`]: swapper.city,
    [`${prefix}_pincode`]: swapper.pincode,
    [`${prefix}_state`]: swapper.state,
    [`${prefix}_country`]: 'India',
    [`${prefix}_phone`]: swapper.phone,
  });
  const item = { name: swapped.name, units: 1, selling_price: swapped.price, discount: 0 };
  const exchanged = await call(
    'POST',
    '/custom/api/v1/exchange-order-orchestration',
    {
      order_id: 'DEMO-1001',
      forward_order_id: 'DEMO-1001-X1',
      order_date: new Date().toISOString(),
      carrier_id: sandboxService,
      store_name: 'chai-point',
      payment_method: 'PREPAID',
      return_reason: 'Wrong size',
      ...buyerAs('billing'),
      ...buyerAs('pickup'),
      order_items: [{ ...item, sku: `${swapped.sku}-L` }],
      return_items: [{ ...item, sku: swapped.sku }],
      forward_warehouse_id: warehouse.payload.warehouse_id,
      length: 20,
      breadth: 15,
      height: 10,
      weight: 0.5,
    },
    apiKey,
  );
  // A delivered order whose buyer asked for a return: the store's policy, the order delivered by
  // the sandbox's scans at once, the request pending in the merchant's queue.
  const storeId = chaiPoint.data.id as string;
  await call('PUT', `/custom/api/v1/client-stores/${storeId}/return-policy`, DEMO_RETURN_POLICY, apiKey);
  const returned = await book(2, 'DEMO-4001', sandboxService);
  const sandboxToken = (
    await call('POST', '/admin/v1/carrier-tokens', { carrier_id: sandboxService }, `Bearer ${adminToken}`)
  ).token as string;
  const secondsFromNow = (n: number) => new Date(Date.now() + n * 1000).toISOString();
  await call(
    'POST',
    '/carrier/v1/tracking-events',
    {
      events: (
        [
          ['in_transit', 'picked_up'],
          ['out_for_delivery', 'out_for_delivery'],
          ['delivered', 'delivered'],
        ] as const
      ).map(([status, sub_status], i) => ({
        awb: returned.awb_code,
        status,
        sub_status,
        event_time: secondsFromNow(i + 1),
      })),
    },
    `Bearer ${sandboxToken}`,
  );
  const returnRequest = await call(
    'POST',
    '/custom/api/v1/return-requests',
    {
      shipment_id: returned.shipment_id,
      items: [{ sku: DEMO_ITEMS[2 % DEMO_ITEMS.length]!.sku, quantity: 1 }],
      reason: 'quality_issue',
      comment: 'The tea tastes stale.',
      resolution: 'refund',
    },
    apiKey,
  );
  // A Shopify shop and a WooCommerce site feed two more stores; a new order arrives every few steps.
  const channels: ConnectedStore[] = await stores.connect(call, apiKey, warehouse.payload.warehouse_id);
  /** The merchant's decision on a failed delivery, as Dakiya recorded it, once the courier took it. */
  const decisionOf = async (awb: string): Promise<NdrDecision | undefined> => {
    const listed = await call('POST', '/custom/api/v1/shipments', { search: awb }, apiKey);
    const actions: { action: string; acknowledged_at: string | null }[] = listed.data[0]?.attributes.ndr_actions ?? [];
    const taken = actions.find((a) => a.acknowledged_at !== null);
    return taken && (taken.action === 'rto' ? 'rto' : 'reattempt');
  };
  const step = config.couriers.sandbox.stepSeconds;
  let advancing = false;
  moving = setInterval(() => {
    if (advancing) return;
    advancing = true;
    simulators
      .advance(decisionOf)
      .catch((error: unknown) => console.error(`dakiya demo: a courier simulator's scan failed: ${String(error)}`))
      .finally(() => {
        advancing = false;
      });
  }, step * 1000);

  const sellEverySeconds = Math.max(3 * step, 15);
  selling = setInterval(() => {
    stores
      .newOrder()
      .catch((error: unknown) => console.error(`dakiya demo: a store's new order failed: ${String(error)}`));
  }, sellEverySeconds * 1000);

  const first = bookings[0]!;
  console.log(
    [
      'Dakiya demo is running (Ctrl-C stops it and deletes its data).',
      `Panel:         ${base}/app  (username ${panelLogin.username}, password ${panelLogin.password})`,
      `Team:          ${team.map((m) => `${m.email} (${m.role}${m.stores ? ', the chai-point store only' : ''})`).join(', ')}; password ${teamPassword}`,
      `API key:       ${apiKey}`,
      `API docs:      ${base}/docs`,
      `Tracking link: ${first.track_url}`,
      `AWBs:          ${bookings.map((b) => b.awb_code).join(' ')}`,
      `Shipments move one sandbox step every ${step} s: delivered, NDR then delivered, RTO and lost (order ids ending 9).`,
      `Allocation:    ${ALLOCATED_SHIPMENTS} more booked through the Delhivery, Ekart, Xpressbees and Shadowfax API simulators, chosen by ${DEMO_ALLOCATION_RULES.length} rules:`,
      ...allocated.map(
        (b) =>
          `  ${b.awb_code.padEnd(16)} ${b.courier_name.padEnd(18)} ${b.allocation?.rule ?? '(named)'}: ${b.allocation?.reason ?? ''}`,
      ),
      `NDR:           ${failing.length} more fail their first delivery and wait in the panel's NDR queue for your decision (reattempt or RTO):`,
      ...failing.map((b) => `  ${b.awb_code.padEnd(16)} ${b.courier_name}`),
      `Returns:       DEMO-4001 delivered; its buyer's request ${returnRequest.data.id} waits in the queue (GET /custom/api/v1/return-requests?status=pending); the buyer's page: ${returned.track_url}/return`,
      `Exchange:      DEMO-1001 swapped: replacement ${exchanged.payload.forward_awb}, pickup ${exchanged.payload.reverse_awb} (POST /custom/api/v1/exchange-orders)`,
      `Stores:        a Shopify shop and a WooCommerce site (local simulators) feed their stores; a new order every ${sellEverySeconds} s, by webhook:`,
      ...channels.map(
        (c) =>
          `  ${c.storeName.padEnd(20)} ${c.platform.padEnd(12)} ${c.address}  (GET /custom/api/v1/channels/${c.channelId}/orders)`,
      ),
    ].join('\n'),
  );
}

/** A port free at this moment on `host`, for PORT=0. */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, host, resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DataFileError ? `dakiya: ${error.message}` : error);
  process.exit(1);
});
