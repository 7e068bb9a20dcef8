import sharp from 'sharp';
import { RETURN_POLICY_EXAMPLE } from '../src/features/return-requests/return-requests.examples.js';
import { INVOICE_DETAILS_EXAMPLE } from '../src/tenancy/stores/invoice-details.schemas.js';
import { photoPart, sendReturnForm } from './kit/return-page.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/base/db/client.js';
import { ADMIN_TOKEN, createTestApp } from './app.js';
import { SHADOWFAX } from './kit/couriers.js';
import { exchangeBody } from './kit/exchange-bodies.js';
import { FORWARD_ORDER, ORCHESTRATE, post, STORES } from './kit/http.js';
import { type Booked, DESTINATIONS, orderBodyFromFields } from './kit/orders.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';
import { png } from './kit/uploads.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { startReceiver } from './webhook-receiver.js';
import { type FuzzRequest, type Known, type OpenApiDocument, type Operation, requestsFor } from './fuzz-requests.js';
import type { CarrierEvent } from '../src/couriers/carrier-event.js';
import { exampleFontName } from '../src/consumers/tracking-page/page-fonts.js';
import { SIM_SHOPIFY_TOKEN, startShopifySimulator } from '../src/demo/simulators/shopify-simulator.js';
import { startEwayBillGspSimulator } from '../src/demo/simulators/eway-bill-gsp-simulator.js';
import { gatewayBody } from './kit/eway-bill.js';

// Every operation of /openapi.json, fed generated requests (issue 11): no answer is a 5xx, every
// status is one the operation documents, and every JSON answer fits its documented schema.
//
// How much is drawn, by environment variable:
// - `npm test` (CI): 30 runs per operation, seed 20261120, the same draw every time, so a red CI
//   run is the code's doing.
// - `npm run test:long` (FUZZ_LONG=1): 300 runs per operation, and a seed that changes every day
//   (the UTC date as YYYYMMDD), so that repeated long runs explore new requests.
// - FUZZ_SEED and FUZZ_RUNS override either. The seed is printed before the first request, and a
//   failure names it with the request: `FUZZ_SEED=<seed> npm run test:long` replays the draw.

const LONG = process.env.FUZZ_LONG === '1';
const SEED = Number(
  process.env.FUZZ_SEED ?? (LONG ? new Date().toISOString().slice(0, 10).replaceAll('-', '') : 20261120),
);
const RUNS = Number(process.env.FUZZ_RUNS ?? (LONG ? 300 : 30));
console.log(`fuzz: seed ${SEED}, ${RUNS} runs per operation (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`);
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

// One account sends every generated request within seconds, past the default 6,000 a minute: the
// limiter stays on (its 429 is documented and allowed), with a budget that lets every operation be reached.
// Shopify's API is its simulator (SHOPIFY_BASE_URL): a connection's credentials are checked there.
const shopify = await startShopifySimulator();
// The e-way bill gateway's GSP (PUT /paperwork-settings/eway-bill-gateway, POST /orders/{order_id}/ewaybill).
const gsp = await startEwayBillGspSimulator();
const ctx = await createTestApp({
  settings: {
    limits: { ratePerMinute: 1_000_000 },
    outbound: { allowHttp: true, allowPrivate: true },
    channels: { shopifyBaseUrl: shopify.baseUrl },
  },
  delivery: ['webhooks'],
});
afterAll(async () => {
  await ctx.close();
  await shopify.close();
  await gsp.close();
});

const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;

// An account with a warehouse, a store with a logo and a booked shipment, so that generated
// requests can name rows that exist and get past the 404s into the services.
const account = await ctx.createAccount('Fuzz', { username: 'fuzz-user', password: 'fuzz-password-1' });
const warehouseId = await createCityWarehouse(ctx, account.apiKey);
// Orders name fuzz-store; the store routes may rename or disconnect the other one.
const fuzzStore = (await post(ctx, account.apiKey, STORES, { store_name: 'fuzz-store' })).json().data as { id: string };
const store = (
  await post(ctx, account.apiKey, STORES, { store_name: 'fuzz-other', logo: png().toString('base64') })
).json().data;
const booked = (
  await post(
    ctx,
    account.apiKey,
    ORCHESTRATE,
    orderBodyFromFields(warehouseId, { storeName: 'fuzz-store', carrierId: SHADOWFAX }),
  )
).json().payload as Booked & { label_url: string; track_url: string };
const toCancel = (
  await post(ctx, account.apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }))
).json().payload as Booked;
// A COD shipment for cod-to-prepaid to turn prepaid (once; later runs are its 409).
const codBooked = (
  await post(
    ctx,
    account.apiKey,
    ORCHESTRATE,
    orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX, cod: true, value: 998 }),
  )
).json().payload as Booked;
// A label's own shipment, which no fuzzed cancel-order can void.
const labelled = (
  await post(ctx, account.apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }))
).json().payload as Booked;
// A shipment of a store with the seller's invoice details (Delhi, as the warehouse), whose invoice GET /shipments/{id}/invoice draws.
const invoicingStore = (await post(ctx, account.apiKey, STORES, { store_name: 'fuzz-invoiced' })).json().data as {
  id: string;
};
await ctx.app.inject({
  method: 'PUT',
  url: `${STORES}/${invoicingStore.id}/invoice-details`,
  headers: { authorization: account.apiKey },
  payload: INVOICE_DETAILS_EXAMPLE,
});
const invoiced = (
  await post(
    ctx,
    account.apiKey,
    ORCHESTRATE,
    orderBodyFromFields(warehouseId, { storeName: 'fuzz-invoiced', carrierId: SHADOWFAX }),
  )
).json().payload as Booked;
const pending = (await post(ctx, account.apiKey, FORWARD_ORDER, orderBodyFromFields(warehouseId))).json()
  .payload as Booked;
// An order for PUT /order to update: its own, so no other operation books or cancels it.
const toUpdate = orderBodyFromFields(warehouseId);
await post(ctx, account.apiKey, FORWARD_ORDER, toUpdate);
// An order over the e-way bill limit, stored without a courier, whose Part A the GSP simulator generates.
const toBill: Record<string, unknown> = {
  ...orderBodyFromFields(warehouseId, { value: 75_000 }),
  order_items: [{ name: 'Phone', sku: 'PHONE-1', units: 1, selling_price: 75_000, tax: 18, hsn: '8517' }],
};
await post(ctx, account.apiKey, FORWARD_ORDER, toBill);
await ctx.app.inject({
  method: 'PUT',
  url: '/custom/api/v1/paperwork-settings/eway-bill-gateway',
  headers: { authorization: account.apiKey },
  payload: gatewayBody(gsp),
});
// A return from a Mumbai customer to the fuzz warehouse, QC on one item.
const returnBody = (orderId: string) => ({
  order_id: orderId,
  order_date: '2026-11-20',
  pickup_customer_name: 'Asha',
  pickup_address: '12 Marine Drive',
  pickup_city: 'Mumbai',
  pickup_state: 'Maharashtra',
  pickup_country: 'India',
  pickup_pincode: '400001',
  pickup_phone: '9123456780',
  order_items: [
    {
      name: 'Kurta',
      sku: 'KURTA-M-BLUE',
      units: 1,
      selling_price: 499,
      qc_enable: true,
      qc_product_image: 'https://cdn.example.com/k.jpg',
      qc_color: 'Blue',
    },
  ],
  payment_method: 'PREPAID',
  sub_total: 499,
  length: 10,
  breadth: 10,
  height: 10,
  weight: 0.5,
  warehouse_id: warehouseId,
});
const pendingReturn = (
  await post(ctx, account.apiKey, '/custom/api/v1/reverse-order', returnBody('FUZZ-RET-PENDING'))
).json().payload as {
  return_id: string;
};
const label = new URL(booked.label_url);
const logo = new URL(store.logo_url);
const carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
// Failed deliveries for the NDR routes: one to reattempt, one to send back, one whose instruction the courier acknowledges.
const failedDelivery = async () => {
  const shipment = (
    await post(ctx, account.apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }))
  ).json().payload as Booked;
  const awb = shipment.awb_code!;
  const scans: CarrierEvent[] = [
    { awb, status: 'in_transit', event_time: '2026-11-20T06:32:00Z' },
    { awb, status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: '2026-11-20T06:35:00Z' },
  ];
  await sendEvents(ctx, carrierToken, scans);
  return awb;
};
// Delivered orders of a store that takes returns: one a request is made for (to read), one for
// POST /return-requests to ask about.
await ctx.app.inject({
  method: 'PUT',
  url: `${STORES}/${fuzzStore.id}/return-policy`,
  headers: { authorization: account.apiKey },
  payload: { ...RETURN_POLICY_EXAMPLE, window_days: 180, non_returnable_skus: [] },
});
/** A booked order of the store that takes returns, delivered. */
const deliveredShipment = async () => {
  const shipment = (
    await post(
      ctx,
      account.apiKey,
      ORCHESTRATE,
      orderBodyFromFields(warehouseId, { storeName: 'fuzz-store', carrierId: SHADOWFAX }),
    )
  ).json().payload as Booked;
  const awb = shipment.awb_code!;
  await sendEvents(ctx, carrierToken, [
    { awb, status: 'in_transit', event_time: '2026-11-20T06:32:00Z' },
    { awb, status: 'delivered', event_time: '2026-11-20T06:35:00Z' },
  ]);
  return shipment;
};
const deliveredOrder = async () => (await deliveredShipment()).shipment_id;
const returnRequestBody = (shipmentId: string) => ({
  shipment_id: shipmentId,
  items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
  reason: 'size_issue',
  resolution: 'refund',
});
const requestReturn = async () =>
  (await post(ctx, account.apiKey, '/custom/api/v1/return-requests', returnRequestBody(await deliveredOrder()))).json()
    .data as { id: string };
// An exchange request: the approval's documented example names its replacement.
const toApprove = (
  await post(ctx, account.apiKey, '/custom/api/v1/return-requests', {
    ...returnRequestBody(await deliveredOrder()),
    resolution: 'exchange',
  })
).json().data as { id: string };
const toReject = await requestReturn();
const returnRequest = (
  await post(ctx, account.apiKey, '/custom/api/v1/return-requests', returnRequestBody(await deliveredOrder()))
).json().data as { id: string };
const toAskReturnOf = await deliveredOrder();
// Refunds of approved refund requests, each due (its return delivered to the warehouse, the
// example policy's rule): one for each step, the one to fail initiated first.
const dueRefund = async (initiated = false) => {
  const asked = await requestReturn();
  const approved = await ctx.app.inject({
    method: 'POST',
    url: `/custom/api/v1/return-requests/${asked.id}/approve`,
    headers: { authorization: account.apiKey },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const [ret] = (await queryRows<{ awb: string; carrier_id: string }>(
    ctx.database.db,
    sql`select awb, carrier_id from returns where id = ${approved.json().data.return_id}`,
  )) as [{ awb: string; carrier_id: string }];
  const returnScans: CarrierEvent[] = [
    { awb: ret.awb, status: 'return_picked_up', event_time: '2026-11-20T06:31:00Z' },
    { awb: ret.awb, status: 'return_delivered', event_time: '2026-11-20T06:32:00Z' },
  ];
  await sendEvents(ctx, await issueCarrierToken(ctx, ret.carrier_id), returnScans);
  const listed = await ctx.app.inject({
    method: 'GET',
    url: '/custom/api/v1/refunds?due=true',
    headers: { authorization: account.apiKey },
  });
  const refund = (listed.json().data as { id: string; return_request_id: string }[]).find(
    (r) => r.return_request_id === asked.id,
  )!;
  if (initiated)
    await ctx.app.inject({
      method: 'POST',
      url: `/custom/api/v1/refunds/${refund.id}/initiate`,
      headers: { authorization: account.apiKey },
    });
  return refund;
};
const refund = await dueRefund();
const toComplete = await dueRefund();
const toFail = await dueRefund(true);
// A request the buyer asked on the tracking page, with a photo (only the page takes photos).
const withPhoto = await (async () => {
  const shipment = await deliveredShipment();
  const photo = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#c83c3c' } })
    .jpeg()
    .toBuffer();
  const fields = { item_0: '1', reason: RETURN_POLICY_EXAMPLE.reasons[0]!, resolution: 'refund' };
  const sent = await sendReturnForm(ctx, new URL(shipment.track_url!).pathname, fields, [photoPart(photo)]);
  expect(sent.statusCode, sent.body).toBe(303);
  const listed = await ctx.app.inject({
    method: 'GET',
    url: `/custom/api/v1/return-requests?shipment_id=${shipment.shipment_id}`,
    headers: { authorization: account.apiKey },
  });
  return listed.json().data[0] as { id: string };
})();
const toReattempt = await failedDelivery();
const toReturn = await failedDelivery();
// An export of the fuzz account, written before the buyers to erase exist (an erasure withdraws
// the archives that may hold its buyer), for its progress and archive routes; the fuzzed POST
// starts another (then 409s: the job does not run here, so it stays running).
const accountExport = (
  await ctx.app.inject({
    method: 'POST',
    url: '/custom/api/v1/account/exports',
    headers: { authorization: account.apiKey },
  })
).json().data as { id: string };
await ctx.app.accountExports.runPending();
ctx.clock.advance(1000);
/** Buyers to erase, each with a delivered order of their own phone: an erasure finds its buyer by it. */
const erasable = async (phone: string) => {
  const shipment = (
    await post(ctx, account.apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX, phone }))
  ).json().payload as Booked;
  await sendEvents(ctx, carrierToken, [
    { awb: shipment.awb_code!, status: 'in_transit', event_time: '2026-11-20T06:32:00Z' },
    { awb: shipment.awb_code!, status: 'delivered', event_time: '2026-11-20T06:35:00Z' },
  ]);
  return shipment.channel_order_id;
};
const toErase = await erasable('9000011111');
// An account for the operator's deletion to delete (the fuzz account itself must live on).
const doomedAccount = await ctx.createAccount('Fuzz Doomed');
const toEraseByOperator = await erasable('9000022222');
const ndrAction = (await post(ctx, account.apiKey, '/custom/api/v1/reattempt', { awb: await failedDelivery() })).json()
  .data.action_id as string;
const firstEvent = (
  await ctx.app.inject({
    method: 'GET',
    url: '/custom/api/v1/events?limit=1',
    headers: { authorization: account.apiKey },
  })
).json().data[0].id as string;
const webhook = (
  await ctx.app.inject({
    method: 'POST',
    url: '/custom/api/v1/webhooks',
    headers: { authorization: account.apiKey },
    payload: { url: 'http://127.0.0.1:9/fuzz', events: ['shipment.delivered'] },
  })
).json().data as { id: string };
// The one DELETE /webhooks/:id removes, so the other webhook routes keep theirs.
const RULE = {
  name: 'Fuzz rule',
  priority: 1,
  strategy: 'priority',
  carrier_ids: [SHADOWFAX],
  conditions: { zones: ['C'], payment_methods: ['cod'], weight_max_grams: 2000 },
};
const newRule = async () =>
  (
    await ctx.app.inject({
      method: 'POST',
      url: '/custom/api/v1/allocation/rules',
      headers: { authorization: account.apiKey },
      payload: RULE,
    })
  ).json().data as { id: string };
const rule = await newRule();
const doomedRule = await newRule();

const doomedWebhook = (
  await ctx.app.inject({
    method: 'POST',
    url: '/custom/api/v1/webhooks',
    headers: { authorization: account.apiKey },
    payload: { url: 'http://127.0.0.1:9/fuzz-doomed', events: ['*'] },
  })
).json().data as { id: string };
// The endpoint the test and redeliver operations send through, at a receiver that accepts them:
// fuzzed PUTs may disable `webhook`, an endpoint that only fails is disabled by the worker, and a
// disabled endpoint rightly refuses both.
const receiver = await startReceiver();
afterAll(() => receiver.close());
const sender = (
  await ctx.app.inject({
    method: 'POST',
    url: '/custom/api/v1/webhooks',
    headers: { authorization: account.apiKey },
    payload: { url: receiver.url, events: ['shipment.delivered'] },
  })
).json().data as { id: string };
const webhookTest = (
  await ctx.app.inject({
    method: 'POST',
    url: `/custom/api/v1/webhooks/${sender.id}/test`,
    headers: { authorization: account.apiKey },
  })
).json().data as { id: string };
// A key of another account for the revocation route, so that the fuzzed account keeps its own.
const spare = (
  await ctx.app.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { name: 'Spare' },
  })
).json();

// A second key of the fuzzed account for the account's own revocation route, so that its first stays good.
const spareOwnKey = (
  await ctx.app.inject({ method: 'POST', url: '/custom/api/v1/api-keys', headers: { authorization: account.apiKey } })
).json().data as { id: string };

/** Members in each state the member routes act on: invited, active (to suspend), suspended, and one to remove. */
async function fuzzMember(email: string, then?: 'join' | 'suspend') {
  const invited = (await post(ctx, account.apiKey, '/custom/api/v1/members', { email, role: 'viewer' })).json();
  if (then) {
    const token = invited.invitation.accept_url.split('#')[1];
    await ctx.app.inject({
      method: 'POST',
      url: '/panel/v1/invitation/accept',
      payload: { token, name: 'Fuzz', password: 'fuzz member pass' },
    });
  }
  if (then === 'suspend') await post(ctx, account.apiKey, `/custom/api/v1/members/${invited.data.id}/suspend`, {});
  return invited.data as { id: string };
}
const invitedMember = await fuzzMember('invited@fuzz.example');
const suspendedMember = await fuzzMember('suspended@fuzz.example', 'suspend');
const doomedMember = await fuzzMember('doomed@fuzz.example');
const activeMember = await fuzzMember('active@fuzz.example', 'join');
for (const name of ['fuzz-desk', 'doomed-desk'])
  await post(ctx, account.apiKey, '/custom/api/v1/roles', { name, permissions: ['tracking:read'] });

const accessToken = (
  await ctx.app.inject({
    method: 'POST',
    url: '/custom/api/v1/auth-token',
    payload: { username: 'fuzz-user', password: 'fuzz-password-1' },
  })
).json().token as string;

// Weight discrepancies: one to accept (and read), one to dispute, one disputed for the operator's verdict and its photo.
const weighed = async () =>
  (
    (await post(ctx, account.apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }))).json()
      .payload as Booked
  ).awb_code!;
const weightReport = `awb,charged_weight_g\n${await weighed()},1200\n${await weighed()},1200\n${await weighed()},1200\n`;
const [toAccept, toDispute, disputed] = (
  await post(ctx, account.apiKey, '/custom/api/v1/weight-reports', { file: weightReport })
)
  .json()
  .data.opened.map((opened: { id: string }) => opened.id) as [string, string, string];
const evidence = { comment: 'Packed at 480 g', images: [png().toString('base64')] };
await post(ctx, account.apiKey, `/custom/api/v1/weight-disputes/${disputed}/dispute`, evidence);

// Credentials of the account's own for DELETE .../credentials to forget.
await ctx.app.inject({
  method: 'PUT',
  url: '/custom/api/v1/courier-connections/shadowfax/credentials',
  headers: { authorization: account.apiKey },
  payload: { api_token: 'fuzz-shadowfax-key' },
});

// Sales channels: connected ones (each with an order it refused, for the retry route), one to disconnect,
// and a store left free for POST /channels to connect.
const shopifyConnection = (storeName: string, shopDomain: string) => ({
  channel: 'shopify',
  store_name: storeName,
  shop_domain: shopDomain,
  access_token: SIM_SHOPIFY_TOKEN,
  webhook_secret: 'fuzz-webhook-secret',
  warehouse_id: warehouseId,
});
const connectedChannel = async (storeName: string) => {
  await post(ctx, account.apiKey, STORES, { store_name: storeName });
  return (
    await post(
      ctx,
      account.apiKey,
      '/custom/api/v1/channels',
      shopifyConnection(storeName, `${storeName}.myshopify.com`),
    )
  ).json().data as { id: string };
};
shopify.addOrder({
  id: 'gid://shopify/Order/7100000001',
  legacyResourceId: '7100000001',
  name: '#9001',
  createdAt: '2026-11-20T09:00:00Z',
  cancelledAt: null,
  closedAt: null,
  displayFinancialStatus: 'PAID',
  displayFulfillmentStatus: 'UNFULFILLED',
  paymentGatewayNames: ['razorpay'],
  email: null,
  totalPriceSet: { shopMoney: { amount: '499.00', currencyCode: 'INR' } },
  subtotalPriceSet: { shopMoney: { amount: '499.00', currencyCode: 'INR' } },
  totalDiscountsSet: { shopMoney: { amount: '0.00', currencyCode: 'INR' } },
  totalTaxSet: { shopMoney: { amount: '0.00', currencyCode: 'INR' } },
  totalShippingPriceSet: { shopMoney: { amount: '0.00', currencyCode: 'INR' } },
  totalOutstandingSet: { shopMoney: { amount: '0.00', currencyCode: 'INR' } },
  shippingAddress: null,
  billingAddress: null,
  lineItems: [],
});
const channel = await connectedChannel('fuzz-shop');
const doomedChannel = await connectedChannel('fuzz-shop-doomed');
// Its own, so that PATCH (which puts refused orders back in the queue) leaves its refusal alone.
const retriedChannel = await connectedChannel('fuzz-shop-retried');
await post(ctx, account.apiKey, STORES, { store_name: 'fuzz-shop-new' });
await ctx.app.channelIntake.round();

// A pickup for the pickup routes to read, and a parcel of its own for POST /pickups to take.
const picked = (
  await post(ctx, account.apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }))
).json().payload as Booked;
const pickup = (
  await post(ctx, account.apiKey, '/custom/api/v1/pickups', {
    warehouse_id: warehouseId,
    carrier_id: SHADOWFAX,
    awbs: [picked.awb_code],
  })
).json().data as { id: string };
const toPickUp = (
  await post(ctx, account.apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }))
).json().payload as Booked;

const FRESH = 'FRESH';
let orders = 0;
const known: Known = {
  fields: {
    warehouse_id: [warehouseId],
    'warehouse_id[]': [warehouseId],
    warehouse_ids: [warehouseId],
    shipment_id: [booked.shipment_id],
    return_id: [pendingReturn.return_id],
    awbs: [[booked.awb_code]],
    awb: [booked.awb_code],
    store_name: ['fuzz-store', 'FUZZ-STORE'],
    carrier_id: [SHADOWFAX, ''],
    origin_pincode: ['110001', 110001],
    destination_pincode: ['400001', '682001'],
    from: ['110001'],
    to: ['400001'],
    zip: ['110001', '400001'],
    billing_pincode: [DESTINATIONS.mumbai.pincode],
    shipping_pincode: [DESTINATIONS.pune.pincode],
    phone_number: ['9876543210'],
    billing_phone: ['9123456780'],
    shipping_phone: ['+919123456780'],
    order_date: ['2026-11-20 11:00', '2026-11-20T11:00:00+05:30'],
    event_time: ['2026-11-20T12:00:00+05:30'],
    status: ['in_transit', 'delivered', 'ndr_raised', 'cancelled'],
    payment_method: ['COD', 'prepaid'],
    logo: [png().toString('base64')],
    username: ['fuzz-user'],
    expires: [label.searchParams.get('expires')],
    signature: [label.searchParams.get('signature')],
    format: ['json', 'pdf'],
    v: [logo.searchParams.get('v')],
    search_after: [['1795156200000', booked.shipment_id]],
    after: [firstEvent],
    'type[]': [['shipment.booked', 'shipment.status_changed'], 'shipment.delivered'],
    file: [
      weightReport,
      'Waybill,Charged Weight\nX,1\n',
      `awb,amount,utr,remittance_date\n${booked.awb_code},998.00,UTIB0000123456,2026-11-20\n`,
    ],
    comment: ['Packed at 480 g'],
    images: [evidence.images, evidence.images[0]],
    outcome: ['won', 'lost'],
    state: ['open', ['accepted', 'won']],
    cursor: ['MTc5NTE1NjIwMDAwMC4wMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDA'],
    delivered_from: ['2026-11-01'],
    delivered_to: ['2026-11-30'],
    expected_from: ['2026-11-01'],
    expected_to: ['2026-12-31'],
    utr: ['UTIB0000123456'],
    pickup_date: ['2026-11-20'],
    // A member's role: a built-in one, or the account's own (random names are no role: 422).
    role: ['viewer', 'fuzz-desk'],
  },
  params: {
    // A charge line's state, where elsewhere `state` is a weight dispute's or a receivable's.
    'GET /custom/api/v1/shipping-charges state': ['pending', 'waived', 'charged'],
    '/custom/api/v1/client-stores/{id} id': [store.id],
    '/custom/api/v1/client-stores/{id}/return-policy id': [store.id],
    '/custom/api/v1/client-stores/{id}/invoice-details id': [store.id, invoicingStore.id],
    '/custom/api/v1/shipments/{id}/invoice id': [invoiced.shipment_id, invoiced.awb_code!],
    '/custom/api/v1/orders/{order_id}/ewaybill order_id': [String(toBill.order_id)],
    '/custom/api/v1/return-requests/{id} id': [returnRequest.id],
    // A return request's id, where elsewhere `after` is an event's.
    'GET /custom/api/v1/return-requests after': [returnRequest.id],
    '/custom/api/v1/return-requests/{id}/approve id': [toApprove.id],
    '/custom/api/v1/return-requests/{id}/reject id': [toReject.id],
    '/custom/api/v1/return-requests/{id}/photos/{position} id': [withPhoto.id],
    '/custom/api/v1/refunds/{id} id': [refund.id],
    '/custom/api/v1/refunds/{id}/payee id': [refund.id],
    '/custom/api/v1/refunds/{id}/initiate id': [refund.id],
    '/custom/api/v1/refunds/{id}/complete id': [toComplete.id],
    '/custom/api/v1/refunds/{id}/fail id': [toFail.id],
    'GET /custom/api/v1/refunds after': [refund.id],
    '/custom/api/v1/return-requests/{id}/photos/{position} position': ['0'],
    '/track/{store_id} store_id': [store.id],
    '/t/{token} token': [new URL(booked.track_url).pathname.slice(3)],
    '/t/{token}.json token': [new URL(booked.track_url).pathname.slice(3)],
    '/t/{token}/confirmation token': [new URL(booked.track_url).pathname.slice(3)],
    '/custom/api/v1/shipments/{id}/confirmation id': [booked.shipment_id, booked.awb_code],
    '/custom/api/v1/shipments/{id}/cod-to-prepaid id': [codBooked.shipment_id],
    '/custom/api/v1/messaging/channels/{channel} channel': ['whatsapp', 'sms', 'email'],
    '/public/v1/store-logos/{id} id': [store.id],
    '/public/v1/labels/{id} id': [booked.shipment_id],
    '/public/v1/fonts/{name} name': [exampleFontName()],
    '/custom/api/v1/shipments/{id}/label id': [labelled.shipment_id, labelled.awb_code],
    '/custom/api/v1/shipments/{id}/label/reissue id': [labelled.shipment_id, labelled.awb_code],
    '/custom/api/v1/shipments/{id}/notifications id': [booked.shipment_id],
    '/custom/api/v1/shipments/{id}/emails id': [booked.shipment_id, booked.awb_code],
    '/custom/api/v1/warehouses/{id} id': [warehouseId],
    '/custom/api/v1/pincodes/{pincode} pincode': ['110001', '560034'],
    '/admin/v1/accounts/{id}/api-keys id': [account.id],
    '/custom/api/v1/api-keys/{id} id': [spareOwnKey.id],
    '/custom/api/v1/members/{id} id': [invitedMember.id],
    'DELETE /custom/api/v1/members/{id} id': [doomedMember.id],
    '/custom/api/v1/members/{id}/invitation id': [invitedMember.id],
    '/custom/api/v1/members/{id}/reactivate id': [suspendedMember.id],
    '/custom/api/v1/members/{id}/suspend id': [activeMember.id],
    '/custom/api/v1/roles/{name} name': ['fuzz-desk'],
    'DELETE /custom/api/v1/roles/{name} name': ['doomed-desk'],
    '/admin/v1/api-keys/{key_prefix_or_id} key_prefix_or_id': [spare.api_key_id, spare.api_key.slice(0, 12)],
    '/carrier/v1/actions/{id}/ack id': [ndrAction],
    '/admin/v1/accounts/{id}/cod/remittance-files id': [account.id],
    '/admin/v1/accounts/{id}/buyer-erasures id': [account.id],
    'DELETE /admin/v1/accounts/{id} id': [doomedAccount.id],
    '/custom/api/v1/account/exports/{id} id': [accountExport.id],
    '/custom/api/v1/account/exports/{id}/archive id': [accountExport.id],
    '/custom/api/v1/webhooks/{id} id': [webhook.id],
    '/custom/api/v1/allocation/rules/{id} id': [rule.id],
    '/custom/api/v1/pickups/{id} id': [pickup.id],
    '/custom/api/v1/pickups/{id}/manifest.pdf id': [pickup.id],
    'DELETE /custom/api/v1/allocation/rules/{id} id': [doomedRule.id],
    '/custom/api/v1/courier-connections/{connector}/credentials connector': ['ekart'],
    'DELETE /custom/api/v1/courier-connections/{connector}/credentials connector': ['shadowfax'],
    'DELETE /custom/api/v1/webhooks/{id} id': [doomedWebhook.id],
    '/custom/api/v1/webhooks/{id}/rotate-secret id': [webhook.id],
    '/custom/api/v1/webhooks/{id}/test id': [sender.id],
    '/custom/api/v1/webhooks/{id}/deliveries id': [webhook.id],
    '/custom/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver id': [sender.id],
    '/custom/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver delivery_id': [webhookTest.id],
    '/custom/api/v1/weight-disputes/{id} id': [toAccept],
    '/custom/api/v1/weight-disputes/{id}/accept id': [toAccept],
    '/custom/api/v1/weight-disputes/{id}/dispute id': [toDispute],
    '/custom/api/v1/weight-disputes/{id}/evidence/{position} id': [disputed],
    '/custom/api/v1/weight-disputes/{id}/evidence/{position} position': ['1'],
    '/admin/v1/accounts/{id}/weight-reports id': [account.id],
    '/custom/api/v1/channels/{id} id': [channel.id],
    'DELETE /custom/api/v1/channels/{id} id': [doomedChannel.id],
    '/custom/api/v1/channels/{id}/sync id': [channel.id],
    '/custom/api/v1/channels/{id}/orders id': [channel.id],
    '/custom/api/v1/channels/{id}/orders/{channel_order_id}/retry id': [retriedChannel.id],
    '/custom/api/v1/channels/{id}/orders/{channel_order_id}/retry channel_order_id': ['7100000001'],
    '/admin/v1/accounts/{account_id}/weight-disputes/{id}/outcome account_id': [account.id],
    '/admin/v1/accounts/{account_id}/weight-disputes/{id}/outcome id': [disputed],
  },
  credentials: {
    credential: account.apiKey,
    adminToken: `Bearer ${ADMIN_TOKEN}`,
    carrierToken: `Bearer ${carrierToken}`,
  },
  // Logging out takes an access token (an API key is a 422); once it has worked, the token is a 401.
  operationCredentials: { 'DELETE /custom/api/v1/auth-token': accessToken },
  bodies: {
    'POST /custom/api/v1/channels': [shopifyConnection('fuzz-shop-new', 'fuzz-shop-new.myshopify.com')],
    'PATCH /custom/api/v1/channels/{id}': [{ default_weight: 0.5, on_import: 'queue' }],
    'POST /custom/api/v1/auth-token': [{ username: 'fuzz-user', password: 'fuzz-password-1' }],
    'POST /custom/api/v1/pickups': [{ warehouse_id: warehouseId, carrier_id: SHADOWFAX, awbs: [toPickUp.awb_code] }],
    'POST /custom/api/v1/client-stores': [
      { store_name: 'fuzz-new', brand_name: 'Fuzz Brand', logo: png().toString('base64') },
    ],
    'PUT /custom/api/v1/client-stores/{id}': [{ store_name: 'fuzz-other', brand_name: 'Fuzz Brand', logo: null }],
    'POST /custom/api/v1/rates': [
      {
        journey_type: 'forward',
        origin_pincode: '110001',
        destination_pincode: '400001',
        dead_weight: 500,
        length: 10,
        width: 10,
        height: 10,
        payment_method: 'cod',
        shipment_value: 1000,
      },
      {
        journey_type: 'return',
        origin_pincode: '682001',
        destination_pincode: '110001',
        dead_weight: 1200,
        length: 30,
        width: 20,
        height: 10,
        qc_applicable: true,
      },
    ],
    'POST /custom/api/v1/serviceability': [
      { from: '110001', to: '400001', payment_mode: 'cod', shipment_type: 'forward' },
    ],
    'POST /custom/api/v1/warehouse': [
      {
        name: 'Fuzz Hub',
        phone_number: '9876543210',
        email: 'hub@example.com',
        contact_person: 'Ravi',
        gst_no: '07AAACR5055K1Z9',
        address_attributes: {
          street_address: 'Plot 1',
          zip: '110001',
          city: 'New Delhi',
          state: 'Delhi',
          country: 'India',
        },
      },
    ],
    'POST /custom/api/v1/forward-order': [
      orderBodyFromFields(warehouseId, { orderId: FRESH, storeName: 'fuzz-store', cod: true, tags: ['fuzz'] }),
    ],
    'POST /custom/api/v1/forward-order-orchestration': [
      orderBodyFromFields(warehouseId, { orderId: FRESH, consignee: { name: 'Ravi' } }),
    ],
    'POST /custom/api/v1/forward-order/check': [orderBodyFromFields(warehouseId, { orderId: FRESH })],
    'POST /custom/api/v1/allocation/preview': [orderBodyFromFields(warehouseId, { orderId: FRESH, cod: true })],
    'PUT /custom/api/v1/courier-connections/{connector}/credentials': [
      { client_id: 'EKART_FUZZ', username: 'fuzz', password: 'fuzz-pass' },
    ],
    'POST /custom/api/v1/allocation/rules': [RULE, { name: 'Fuzz fastest', priority: 2, strategy: 'fastest' }],
    'PUT /custom/api/v1/allocation/rules/{id}': [{ ...RULE, strategy: 'best_performance', carrier_ids: [] }],
    'POST /custom/api/v1/forward-order-shipment': [{ shipment_id: pending.shipment_id, carrier_id: SHADOWFAX }],
    'PUT /custom/api/v1/order': [
      { ...toUpdate, billing_phone: '9000044444', billing_address: '9 Hill Road' },
      toUpdate,
    ],
    'POST /custom/api/v1/reports': [
      { start_date_time: '2026-11-01T00:00:00Z', end_date_time: '2026-11-30T18:29:59Z', shipment_type: 'forward' },
      { start_date_time: '2026-11-01 00:00', end_date_time: '2026-12-01', shipment_type: 'return' },
    ],
    'POST /custom/api/v1/reverse-order': [returnBody(FRESH)],
    'POST /custom/api/v1/reverse-order-orchestration': [{ ...returnBody(FRESH), carrier_id: '' }],
    'POST /custom/api/v1/exchange-order-orchestration': [exchangeBody(warehouseId, { order_id: FRESH })],
    'PUT /custom/api/v1/client-stores/{id}/return-policy': [RETURN_POLICY_EXAMPLE],
    'PUT /custom/api/v1/client-stores/{id}/invoice-details': [INVOICE_DETAILS_EXAMPLE],
    'PUT /custom/api/v1/paperwork-settings/eway-bill-gateway': [gatewayBody(gsp)],
    'POST /custom/api/v1/return-requests': [returnRequestBody(toAskReturnOf)],
    'POST /custom/api/v1/return-requests/{id}/reject': [{ message: 'The tag has been removed.' }],
    'POST /custom/api/v1/return-requests/{id}/approve': [{}],
    'POST /custom/api/v1/refunds/{id}/complete': [{ utr: 'SBIN326331234567' }],
    'POST /custom/api/v1/refunds/{id}/fail': [{ reason: 'The UPI id given is not active.' }],
    'PUT /custom/api/v1/exchange-settings': [
      { release_on: 'return_picked_up', qc_charge: 15, exchange_charge: 29.99 },
      { release_on: 'at_once', qc_charge: null, exchange_charge: 0 },
    ],
    'POST /custom/api/v1/reverse-order-shipment': [
      { return_id: pendingReturn.return_id, warehouse_id: warehouseId, carrier_id: '' },
    ],
    'POST /custom/api/v1/cancel-order': [{ awbs: [toCancel.awb_code, 'SFX0000009999'] }],
    'POST /custom/api/v1/order-tracking': [{ awbs: [booked.awb_code] }],
    'POST /custom/api/v1/labels': [{ awbs: [labelled.awb_code] }],
    'POST /custom/api/v1/invoices': [{ awbs: [invoiced.awb_code] }],
    'POST /custom/api/v1/shipments/{id}/label/reissue': [{ reason: 'Label torn' }, {}],
    'PUT /custom/api/v1/rto-risk/thresholds': [
      { medium: 30, high: 60, high_value_cod: 3000 },
      { medium: 25, high: 50, high_value_cod: 2499.5 },
    ],
    'PUT /custom/api/v1/ndr-rules': [
      { rules: [{ name: 'Second NDR: RTO', when: { attempt_min: 2 }, action: 'rto' }] },
      {
        rules: [
          {
            name: 'Ask',
            when: { ndr_reasons: ['refused'], payment: 'cod' },
            action: 'message_buyer',
            rto_after_hours: 24,
          },
        ],
      },
    ],
    'POST /custom/api/v1/cod/remittance-files': [
      { file: `Waybill,COD Amount,UTR No,Remittance Date\n${booked.awb_code},998,HDFC1,20-11-2026\n` },
    ],
    'POST /admin/v1/accounts/{id}/cod/remittance-files': [
      { file: `awb,amount,utr,remittance_date\n${booked.awb_code},998,HDFC2,2026-11-20\n`, file_name: 'f.csv' },
    ],
    'POST /custom/api/v1/reattempt': [
      {
        awb: toReattempt,
        updated_address: { address_line: '12 Marine Drive', landmark: 'Near the gate' },
        updated_phone_number: '9123456780',
        comments: 'After 6 pm',
        reattempt_date: '2026-11-23',
      },
    ],
    'POST /custom/api/v1/initiate-rto': [{ awb: toReturn }],
    'POST /custom/api/v1/buyer-erasures': [{ order_id: toErase }],
    // A deletion asked for is only scheduled (30 days): the fuzz account lives on.
    'POST /custom/api/v1/account/deletion': [{ confirm_account_name: 'Fuzz' }],
    'POST /admin/v1/accounts/{id}/buyer-erasures': [{ order_id: toEraseByOperator }],
    'POST /custom/api/v1/webhooks': [{ url: 'http://127.0.0.1:9/fuzz', events: ['*'], description: 'Fuzz endpoint' }],
    'PUT /custom/api/v1/messaging/channels/{channel}': [
      { enabled: false },
      { enabled: false, sender: 'FUZZER', confirmation_template: { en: '1107168000000000001' } },
      { enabled: false, return_template: { en: 'return_update_en' } },
    ],
    'PUT /custom/api/v1/messaging/confirmation-policy': [
      {
        mode: 'above_value',
        min_value: 500,
        channels: ['sms'],
        language: 'hi',
        window_minutes: 60,
        hold_unconfirmed: true,
      },
    ],
    'POST /custom/api/v1/shipments/{id}/cod-to-prepaid': [{ payment_reference: 'pay_fuzz', amount: 998 }],
    'POST /t/{token}/confirmation': [{ answer: 'confirm' }],
    'PUT /custom/api/v1/webhooks/{id}': [{ events: ['shipment.delivered', 'shipment.cancelled'], description: null }],
    'POST /custom/api/v1/shipments': [
      {},
      {
        page: 1,
        per_page: 10,
        status: 'in_transit',
        is_cod: false,
        applied_weight_min: 100,
        applied_weight_max: 5000,
        attempts_count__gte: 0,
        attempts_count__lte: 3,
      },
      {
        date_field: 'order_date',
        start_time: 1795000000,
        end_time: 1796000000,
        created_at__gte: '2026-11-01',
        delivered_at__lte: '2026-12-01T00:00:00+05:30',
        search: 'Asha',
        'carrier_id[]': [SHADOWFAX],
        zone: 'zone_c',
      },
      {
        search_after: ['1795156200000', booked.shipment_id],
        sort_order: 'asc',
        sku: 'KURTA-M-BLUE',
        store_name: 'fuzz-store',
        display_id: 'x',
      },
    ],
    'POST /custom/api/v1/returns': [
      {},
      {
        page: { number: 1 },
        per_page: 10,
        status: 'in_transit',
        is_cod: false,
        'qc_status[]': ['passed', 'pending'],
        sku: 'KURTA-M-BLUE',
      },
      {
        date_field: 'picked_up_at',
        start_time: 1795000000,
        end_time: 1796000000,
        search: 'Asha',
        'carrier_id[]': [SHADOWFAX],
        'warehouse_id[]': [warehouseId],
      },
      { search_after: ['1795156200000', pendingReturn.return_id], sort_order: 'asc' },
    ],
    'POST /custom/api/v1/exchange-orders': [
      {},
      {
        page: { number: 1 },
        per_page: 10,
        sort_by: 'updated_at',
        'status[]': ['pending', 'in_progress'],
        'qc_status[]': ['passed'],
        search: 'Asha',
        'warehouse_id[]': [warehouseId],
      },
      {
        'page[number]': 2,
        'page[per_page]': 5,
        sort_order: 'asc',
        created_at__gte: '2026-11-01',
        updated_at__lte: '2026-12-01T00:00:00+05:30',
        'forward_status[]': ['in_transit'],
        'return_status[]': ['return_in_transit'],
        'carrier_ids[]': [SHADOWFAX],
      },
    ],
    'POST /carrier/v1/tracking-events': [
      {
        events: [
          {
            awb: booked.awb_code,
            status: 'in_transit',
            sub_status: 'picked_up',
            event_time: '2026-11-20T15:00:00+05:30',
            location: 'Okhla',
            description: 'Picked up',
            event_id: 'e1',
          },
        ],
      },
      {
        events: [
          {
            awb: booked.awb_code,
            status: 'ndr_raised',
            event_time: '2026-11-21T15:00:00+05:30',
            ndr_reason: 'customer_unavailable',
          },
        ],
      },
    ],
    'POST /admin/v1/accounts': [{ name: 'Fuzzed', username: 'fuzzed-user', password: 'fuzz-password-2' }],
    'POST /admin/v1/carrier-tokens': [{ carrier_id: SHADOWFAX }],
    'POST /custom/api/v1/weight-reports': [{ file: weightReport }],
    'POST /admin/v1/accounts/{id}/weight-reports': [{ file: weightReport }],
    'POST /custom/api/v1/weight-disputes/{id}/dispute': [evidence],
    'POST /admin/v1/accounts/{account_id}/weight-disputes/{id}/outcome': [
      { outcome: 'won', resolution: 'Photos accepted' },
    ],
    'POST /custom/api/v1/shipping-charges': [{ awbs: [booked.awb_code, 'SFX0000009999'] }],
  },
  fresh(body) {
    if (body === null || typeof body !== 'object' || (body as { order_id?: unknown }).order_id !== FRESH) return body;
    return { ...body, order_id: `FUZZ-${++orders}` };
  },
};

// Response schemas from the document itself, its component references resolved as $defs.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat('binary', true);
const asDefs = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('#/components/schemas/', '#/$defs/'));
const $defs = asDefs(doc.components.schemas);
const validators = new Map<string, ValidateFunction>();
function responseValidator(key: string, op: Operation, status: string): ValidateFunction | undefined {
  const schema = op.responses[status]?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  const cacheKey = `${key} ${status}`;
  if (!validators.has(cacheKey)) validators.set(cacheKey, ajv.compile({ ...asDefs(schema), $defs }));
  return validators.get(cacheKey);
}

/** What is wrong with an answer, if anything. */
function problems(key: string, op: Operation, response: LightMyRequestResponse): string[] {
  const found: string[] = [];
  const status = String(response.statusCode);
  if (response.statusCode >= 500) found.push(`answered ${status}`);
  if (!op.responses[status])
    found.push(`answered ${status}, which is not documented (${Object.keys(op.responses).join(', ')})`);
  const type = String(response.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    const validate = responseValidator(key, op, status);
    if (!validate) found.push(`answered JSON with ${status}, for which no JSON schema is documented`);
    else if (!validate(response.json()))
      found.push(`the answer does not fit its schema: ${ajv.errorsText(validate.errors)}`);
  }
  return found;
}

/**
 * Why a request the document's schemas accept may still be refused: what no JSON Schema of the
 * request can state. The text rule of every string (no NUL, no lone surrogate: http/text-input.ts),
 * what names rows (a cursor, an event, a courier service, a pincode in the directory), a channel's
 * own fields (by the path), and rules across fields the schemas leave to the services. Any other
 * 400 for such a request is a format, pattern or range the schemas fail to state (issue 46).
 */
const STATED_NOWHERE = [
  /must not contain NUL characters or unpaired UTF-16 surrogates$/,
  /^Malformed JSON body$/,
  /must be a next_cursor this listing answered$/,
  /must be the id of one of (your events|this endpoint’s deliveries|the kept scans|your return requests|your refunds)$/,
  /is not a courier service \(GET \/carriers lists them\)$/,
  /is not a pincode in the directory$/,
  /is not a setting of the (whatsapp|sms|email) channel$/,
  /must list at least one courier service for the priority strategy$/,
  /must not exceed the order value \(sub_total\)$/,
  /is required (when|unless) /,
  // An e-way bill's date dates its number: one without the other is refused (features/paperwork).
  /^ewaybill_date is sent with ewaybill_no, the bill it dates$/,
  /must not differ from /,
  /must not be before /,
  /must not be above /,
  /must not be after /,
  /^The range must not exceed \d+ days$/,
  // Against the server's clock: a new key's end.
  /must be in the future$/,
  // Against the account's own name: what an owner confirms its deletion with.
  /must be the account's name, as the panel shows it$/,
  // Not a refusal: the unknown fields a refused request also carried, reported beside the reason.
  /is not a field of this request and was ignored$/,
  /is not a state of the pincode directory$/,
  // A GSTIN's state code and check character (domain/paperwork/gstin.ts): beyond a pattern.
  /^(billing_)?gstin \w+ is not a valid GSTIN: /,
  /^Malformed URL: invalid percent-encoding$/,
  // Which route may book a courier, and what a stored endpoint's format asks of a change to it.
  /^carrier_id belongs to forward-order-shipment or forward-order-orchestration$/,
  /^api_key is required with format velocity/,
  /^events for format (velocity|standard) must be /,
  /belongs to format velocity; this endpoint is standard \(signed\)$/,
];
const requestValidators = new Map<string, ValidateFunction>();
const validatorOf = (schema: unknown) => {
  const key = JSON.stringify(schema);
  if (!requestValidators.has(key)) requestValidators.set(key, ajv.compile({ ...asDefs(schema as object), $defs }));
  return requestValidators.get(key)!;
};
/** A query value as OpenAPI serialises it back: a number or boolean where the schema says so. */
function queryValue(schema: Record<string, unknown>, values: string[]): unknown {
  const value: unknown = values.length > 1 || schema.type === 'array' ? values : values[0];
  if (Array.isArray(value)) return value;
  if (schema.type === 'integer' || schema.type === 'number') return value === '' ? value : Number(value);
  if (schema.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}
/** Whether the document's schemas accept the request's JSON body, path and query (headers aside). */
function fitsTheDocument(path: string, op: Operation, request: FuzzRequest): boolean {
  if (op.requestBody) {
    const schema = op.requestBody.content['application/json']?.schema;
    if (!schema || !String(request.headers['content-type']).startsWith('application/json')) return false;
    let body: unknown;
    try {
      body = JSON.parse(String(request.payload));
    } catch {
      return false;
    }
    if (!validatorOf(schema)(body)) return false;
  }
  const url = new URL(request.url, 'http://fuzz');
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const segments = new RegExp(`^${path.replace(/\{[^}]+\}/g, '([^/]*)')}$`).exec(url.pathname)?.slice(1) ?? [];
  for (const parameter of (op.parameters ?? []).filter((p) => p.in === 'path')) {
    let value: string;
    try {
      value = decodeURIComponent(segments[names.indexOf(parameter.name)] ?? '');
    } catch {
      return false;
    }
    if (!validatorOf(parameter.schema)(queryValue(parameter.schema, [value]))) return false;
  }
  const query = url.searchParams;
  for (const parameter of (op.parameters ?? []).filter((p) => p.in === 'query')) {
    const values = query.getAll(parameter.name);
    if (values.length === 0) {
      if (parameter.required) return false;
      continue;
    }
    if (!validatorOf(parameter.schema)(queryValue(parameter.schema, values))) return false;
  }
  return true;
}
/** Refusals of requests the document accepts, for reasons a schema could state. */
const refusedWhileFitting: string[] = [];

let requests = 0;
/** Operations that answered a success at least once: a suite stuck on 400s would test little. */
const succeeded = new Set<string>();
/** Generated requests each operation was sent, counted as they go. */
const fuzzedRuns = new Map<string, number>();
const started = Date.now();
async function send(request: Pick<FuzzRequest, 'method' | 'url' | 'headers' | 'payload'>) {
  requests++;
  return ctx.app.inject({
    method: request.method,
    url: request.url,
    headers: request.headers,
    ...(request.payload !== undefined && { payload: request.payload }),
  });
}

afterAll(() => {
  const engine = process.env.DAKIYA_TEST_ENGINE ?? 'pglite';
  console.log(
    `fuzz (${engine}): ${requests} requests, seed ${SEED}, ${RUNS} runs per operation, ${Date.now() - started} ms`,
  );
});

const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ path, method, op, key: `${method.toUpperCase()} ${path}` })),
);

/**
 * The operations that must be fuzzed, read from the document apart from the list the tests below
 * walk: every one that takes input (a body or parameters). Routes added to the API join it by
 * themselves; one left out of the walk fails 'fuzzed every operation that takes input'.
 */
const takingInput = Object.entries(doc.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  )
  .filter(({ op }) => op.requestBody !== undefined || (op.parameters ?? []).length > 0)
  .map(({ key }) => key);

// An operation that takes no input (no body, no parameters) is sent the same request every time
// but for the junk a hostile draw adds: a few draws see both kinds. Thirty cost the storage
// compaction among them 16 s (each request rewrites every table), a third of the file's time.
const NO_INPUT_RUNS = Math.min(RUNS, 5);

describe('fuzz: every operation of /openapi.json', () => {
  for (const { path, method, op, key } of operations) {
    it(key, { timeout: 180_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(requestsFor(doc, known, path, method), async (request) => {
          fuzzedRuns.set(key, (fuzzedRuns.get(key) ?? 0) + 1);
          const response = await send(request);
          if (response.statusCode < 400) succeeded.add(key);
          const json = String(response.headers['content-type']).startsWith('application/json');
          if (response.statusCode === 400 && json && fitsTheDocument(path, op, request)) {
            const unstated = (response.json().errors as string[]).filter(
              (message) => !STATED_NOWHERE.some((reason) => reason.test(message)),
            );
            if (unstated.length > 0)
              refusedWhileFitting.push(`${key}: ${unstated.join('; ')}\nrequest: ${request.summary}`);
          }
          const found = problems(key, op, response);
          if (found.length > 0)
            throw new Error(`${found.join('; ')}\nrequest: ${request.summary}\nanswer: ${response.body.slice(0, 600)}`);
        }),
        { seed: SEED, numRuns: takingInput.includes(key) ? RUNS : NO_INPUT_RUNS },
      );
    });
  }

  it(`fuzzed every operation that takes input (${takingInput.length} in /openapi.json), ${RUNS} requests each`, () => {
    expect(takingInput.length).toBeGreaterThan(0);
    expect(takingInput.filter((key) => (fuzzedRuns.get(key) ?? 0) < RUNS)).toEqual([]);
  });

  it('refuses a request the document accepts only for what no schema can state', () => {
    expect(refusedWhileFitting).toEqual([]);
  });

  it('got past validation into every operation at least once', () => {
    expect(operations.map((o) => o.key).filter((key) => !succeeded.has(key))).toEqual([]);
  });

  it('answers a method a documented path does not take with 405, Allow and the error envelope', async () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      const allowed = Object.keys(methods).map((m) => m.toUpperCase());
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const method of METHODS.filter((m) => !allowed.includes(m))) {
        const response = await send({
          method: method as FuzzRequest['method'],
          url,
          headers: { authorization: account.apiKey },
        });
        expect(response.statusCode, `${method} ${path}`).toBe(405);
        expect(response.headers.allow, `${method} ${path}`).toBeDefined();
        const message = `Method ${method} is not allowed on ${url}: use ${response.headers.allow}`;
        expect(response.json(), `${method} ${path}`).toEqual({
          code: 'method_not_allowed',
          message,
          errors: [message],
        });
      }
    }
  });
});
