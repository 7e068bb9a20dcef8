import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { createStore } from '../../../test/kit/stores.js';
import { list, listed } from '../../../test/kit/shipments.js';
import { queryRows } from '../../base/db/client.js';
import { channelById } from './sales-channels.repository.js';
import { startWooCommerceSimulator, type WooCommerceSimulator } from '../../demo/simulators/woocommerce-simulator.js';

// A WooCommerce site feeding a store (issue 49), against the WooCommerce simulator: connecting with
// good and bad key pairs, the first pull across pages through a 429, the order.* webhooks signed,
// forged, unsigned, repeated and out of order, the ping, COD amounts, refused orders and their
// fixes, booking on import, disconnecting, and accounts kept apart.

const SECRET = 'wc_intake_test_secret';
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../channels/fixtures/woocommerce/${name}`, import.meta.url), 'utf8'));
const codOrder = fixture('order-india-cod.json');
const noPhoneOrder = fixture('order-no-shipping-phone.json');

let sim: WooCommerceSimulator;
let ctx: TestContext;

/** `count` orders like the COD fixture (Bengaluru, ₹1,747.50 owed), numbered from 6000 + `from`, oldest first. */
function simOrders(count: number, from = 0, status = 'processing') {
  return Array.from({ length: count }, (_, i) => {
    const id = 6000 + from + i;
    const at = new Date(Date.UTC(2026, 10, 20, 6, 0, 0) + (from + i) * 60_000).toISOString().slice(0, 19);
    return { ...structuredClone(codOrder), id, number: String(id), status, date_created_gmt: at };
  });
}

const call = (apiKey: string, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `${V1}${url}`, headers: authed(apiKey), ...(payload && { payload }) });

async function merchant() {
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, apiKey, 'mumbai');
  const store = await createStore(ctx, apiKey, { store_name: `handlooms-${crypto.randomUUID().slice(0, 8)}` });
  return { apiKey, warehouseId, storeName: store.store_name as string, storeId: store.id as string };
}
type Merchant = Awaited<ReturnType<typeof merchant>>;

const connectBody = (m: Merchant, extra: object = {}) => ({
  channel: 'woocommerce',
  store_name: m.storeName,
  site_url: `${sim.baseUrl}/`,
  consumer_key: sim.keys.consumerKey,
  consumer_secret: sim.keys.consumerSecret,
  webhook_secret: SECRET,
  default_weight: 0.5,
  ...extra,
});

async function connect(m: Merchant, extra: object = {}) {
  const response = await call(m.apiKey, 'POST', '/channels', connectBody(m, extra));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

let deliveries = 9000;
function webhook(
  channelId: string,
  topic: string,
  body: object,
  options: { id?: string; secret?: string | null } = {},
) {
  const raw = JSON.stringify(body);
  const [resource, event] = topic.split('.');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'WooCommerce/9.4.2 Hookshot (WordPress/6.7.1)',
    'x-wc-webhook-source': `${sim.baseUrl}/`,
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': resource ?? '',
    'x-wc-webhook-event': event ?? '',
    'x-wc-webhook-id': '12',
    'x-wc-webhook-delivery-id': options.id ?? String(++deliveries),
  };
  if (options.secret !== null) headers['x-wc-webhook-signature'] = sim.signWebhook(raw, options.secret ?? SECRET);
  return ctx.app.inject({ method: 'POST', url: `/public/v1/channels/${channelId}/webhook`, headers, payload: raw });
}

const ledger = async (apiKey: string, channelId: string, state?: string) =>
  (await call(apiKey, 'GET', `/channels/${channelId}/orders${state ? `?state=${state}` : ''}`)).json().data;
const channelOf = async (apiKey: string, channelId: string) =>
  (await call(apiKey, 'GET', `/channels/${channelId}`)).json().data;

beforeAll(async () => {
  sim = await startWooCommerceSimulator({ siteName: 'Acme Handlooms &amp; Weaves' });
  ctx = await createTestApp({ settings: { outbound: { allowHttp: true, allowPrivate: true } } });
});
beforeEach(() => {
  sim.clearOrders();
  sim.requests.splice(0);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

describe('connecting a WooCommerce site', () => {
  it('checks the key pair before saving, names the field the site refused, and never answers a secret', async () => {
    const m = await merchant();
    const refusedAs = async (body: object) => {
      const response = await call(m.apiKey, 'POST', '/channels', connectBody(m, body));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().code).toBe('channel_credentials_refused');
      return response.json().details;
    };
    // A known key with another secret: core says the secret is invalid.
    expect(await refusedAs({ consumer_secret: 'cs_not_this_keys' })).toEqual([
      {
        field: 'consumer_secret',
        message: `consumer_secret was refused by the store: ${new URL(sim.baseUrl).host} answered "Consumer secret is invalid.": the consumer secret is not this key's`,
      },
    ]);
    // An unknown key is an anonymous request, refused by the orders controller.
    const unknown = await refusedAs({ consumer_key: 'ck_unknown' });
    expect(unknown.map((d: { field: string }) => d.field)).toEqual(['consumer_key']);
    expect(unknown[0].message).toContain('no such consumer key on this site');
    // A write-only key cannot read the orders.
    const writeOnly = sim.addKey('write');
    const readless = await refusedAs({
      consumer_key: writeOnly.consumerKey,
      consumer_secret: writeOnly.consumerSecret,
    });
    expect(readless.map((d: { field: string }) => d.field)).toEqual(['consumer_key']);
    expect(readless[0].message).toContain('give it Read or Read/Write permissions');
    // Nothing was stored, and the store is still a manual one.
    expect((await call(m.apiKey, 'GET', '/channels')).json().data).toEqual([]);
    expect((await call(m.apiKey, 'GET', `/client-stores/${m.storeId}`)).json().data.channel).not.toBe('woocommerce');

    const missing = await call(m.apiKey, 'POST', '/channels', { channel: 'woocommerce' });
    expect(missing.statusCode).toBe(400);
    expect(
      missing
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['consumer_key', 'consumer_secret', 'site_url', 'store_name', 'webhook_secret']);

    const channel = await connect(m);
    expect(channel).toEqual({
      id: expect.any(String),
      channel: 'woocommerce',
      store_id: m.storeId,
      store_name: m.storeName,
      // The site's title from WordPress's REST index, its entities read back.
      shop_name: 'Acme Handlooms & Weaves',
      shop_domain: null,
      site_url: sim.baseUrl,
      warehouse_id: m.warehouseId,
      status: 'connected',
      on_import: 'queue',
      notify_customer: false,
      default_weight: 0.5,
      length: 10,
      breadth: 10,
      height: 10,
      webhook_url: `${PUBLIC_BASE_URL}/public/v1/channels/${channel.id}/webhook`,
      webhook_topics: ['order.created', 'order.updated', 'order.deleted'],
      webhooks_registered: true,
      webhook_error: null,
      last_synced_at: null,
      last_error: null,
      last_error_at: null,
      counts: { imported: 0, refused: 0, pending: 0, skipped: 0, cancelled: 0, cancel_flagged: 0 },
      created_at: expect.any(String),
      disconnected_at: null,
    });
    for (const secret of [sim.keys.consumerKey, sim.keys.consumerSecret, SECRET]) {
      expect(JSON.stringify(channel)).not.toContain(secret);
      expect((await call(m.apiKey, 'GET', '/channels')).body).not.toContain(secret);
    }
    expect((await call(m.apiKey, 'GET', `/client-stores/${m.storeId}`)).json().data.channel).toBe('woocommerce');
    // The same site again, from another store of the account: one channel per site.
    const second = await createStore(ctx, m.apiKey, { store_name: `${m.storeName}-2` });
    const again = await call(m.apiKey, 'POST', '/channels', connectBody(m, { store_name: second.store_name }));
    expect(again.statusCode).toBe(409);

    // Another account reads it as unknown, whatever it asks.
    const other = await merchant();
    for (const [method, url] of [
      ['GET', `/channels/${channel.id}`],
      ['GET', `/channels/${channel.id}/orders`],
      ['POST', `/channels/${channel.id}/sync`],
      ['POST', `/channels/${channel.id}/orders/6000/retry`],
      ['DELETE', `/channels/${channel.id}`],
    ] as const) {
      const answer = await call(other.apiKey, method, url);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json().code).toBe('channel_not_found');
    }
    const patched = await call(other.apiKey, 'PATCH', `/channels/${channel.id}`, { default_weight: 1 });
    expect(patched.statusCode).toBe(404);
    expect((await call(other.apiKey, 'GET', '/channels')).json().data).toEqual([]);
    expect((await channelOf(m.apiKey, channel.id)).default_weight).toBe(0.5);
  });
});

describe('orders in from WooCommerce', () => {
  it('pulls every page of processing orders once, through a 429, into one COD order each', async () => {
    // Whatever earlier tests left due is taken first, so this round counts this channel's alone.
    await ctx.app.channelIntake.round();
    const m = await merchant();
    // 201 waiting to ship: three pages of 100; and orders WooCommerce is not waiting to ship.
    for (const order of simOrders(201)) sim.addOrder(order);
    for (const order of [...simOrders(1, 500, 'completed'), ...simOrders(1, 501, 'pending')]) sim.addOrder(order);
    const channel = await connect(m);
    sim.requests.splice(0);
    sim.rateLimitNext(1, 0);
    const first = await ctx.app.channelIntake.round();
    expect(first).toEqual({ pulled: 201, imported: 201 });
    const pages = sim.requests
      .filter((r) => r.route === '/wc/v3/orders')
      .map((r) => [r.query.status, r.query.per_page, r.query.page, r.query.orderby, r.query.order].join(' '));
    // Page 1 answered 429 first, then asked again; each page once after that.
    expect(pages).toEqual([
      'processing 100 1 date asc',
      'processing 100 1 date asc',
      'processing 100 2 date asc',
      'processing 100 3 date asc',
    ]);
    // A second round pulls nothing (the pull is not due) and imports nothing twice; a sync pulls
    // them all again and still imports none twice.
    expect(await ctx.app.channelIntake.round()).toEqual({ pulled: 0, imported: 0 });
    expect((await call(m.apiKey, 'POST', `/channels/${channel.id}/sync`)).statusCode).toBe(200);
    expect(await ctx.app.channelIntake.round()).toEqual({ pulled: 201, imported: 0 });
    const health = await channelOf(m.apiKey, channel.id);
    expect(health.last_synced_at).not.toBeNull();
    expect(health.last_error).toBeNull();
    expect(health.counts).toEqual({
      imported: 201,
      refused: 0,
      pending: 0,
      skipped: 0,
      cancelled: 0,
      cancel_flagged: 0,
    });
    const rows = await ledger(m.apiKey, channel.id, 'imported');
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r: { shipment_id: string }) => r.shipment_id)).size).toBe(200);

    // The ledger answers the latest 200 changes, ties by the store's order id, highest first: 6200 is among them.
    const row = (await ledger(m.apiKey, channel.id)).find(
      (r: { channel_order_id: string }) => r.channel_order_id === '6200',
    );
    expect(row).toMatchObject({ channel_order_name: '6200', state: 'imported', reason: null, fields: null });
    // The store order is found by its number, as the merchant searches for it.
    const found = await list(ctx, m.apiKey, { search: `${m.storeName}-6200` });
    expect(found.data.map((s) => s.id)).toEqual([row.shipment_id]);
    const shipment = found.data[0]!;
    expect(shipment.attributes).toMatchObject({ status: 'pending', is_cod: true, cod_amount: 1747.5 });
    expect(shipment.attributes.order).toMatchObject({
      display_id: `${m.storeName}-6200`,
      channel: 'woocommerce',
      channel_order_name: '6200',
      channel_order_id: '6200',
    });
  });

  it("gives each line its product's category, asked of the site (the order JSON has none), and imports without it when the site cannot say", async () => {
    await ctx.app.channelIntake.round();
    const m = await merchant();
    // The dupatta's product is in two categories (the first is read, its entity decoded); the
    // cushion's in none.
    sim.addProduct({
      id: 402,
      name: 'Ikat Cotton Dupatta',
      categories: [
        { id: 15, name: 'Sarees &amp; Dupattas', slug: 'sarees-dupattas' },
        { id: 9, name: 'Sale', slug: 'sale' },
      ],
    });
    sim.addProduct({ id: 388, name: 'Block-print Cushion Cover', categories: [] });
    for (const order of simOrders(1, 700)) sim.addOrder(order);
    const channel = await connect(m);
    sim.requests.splice(0);
    expect(await ctx.app.channelIntake.round()).toEqual({ pulled: 1, imported: 1 });
    const asked = sim.requests
      .filter((r) => r.route === '/wc/v3/products')
      .map((r) => [r.query.include, r.query.per_page]);
    expect(asked).toEqual([['402,388', '100']]);
    const categories = (channelOrderId: string) =>
      queryRows<{ sku: string; category: string | null }>(
        ctx.database.db,
        sql`select oi.sku, oi.category from order_items oi join orders o on o.id = oi.order_id
            where o.channel_order_id = ${channelOrderId} and o.store_id = ${m.storeId} order by oi.position`,
      );
    expect(await categories('6700')).toEqual([
      { sku: 'IKT-DUP-IND', category: 'Sarees & Dupattas' },
      { sku: 'BPC-CUS-01', category: null },
    ]);
    // A webhook's order is asked about alike; a site that fails the question still has its order taken.
    sim.crashNext(1);
    const [late] = simOrders(1, 701);
    const taken = await webhook(channel.id, 'order.created', late!);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(await ctx.app.channelIntake.round()).toMatchObject({ imported: 1 });
    expect(await categories('6701')).toEqual([
      { sku: 'IKT-DUP-IND', category: null },
      { sku: 'BPC-CUS-01', category: null },
    ]);
  });

  it('takes each signed webhook once, whatever order they come in, answers the ping, and refuses forged and unsigned ones', async () => {
    const m = await merchant();
    const channel = await connect(m);
    await ctx.app.channelIntake.round();
    const order = { ...structuredClone(codOrder), id: 7301, number: '7301' };

    // The ping WooCommerce posts when the webhook is saved: a form, unsigned, answered 200.
    const ping = await ctx.app.inject({
      method: 'POST',
      url: `/public/v1/channels/${channel.id}/webhook`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'webhook_id=12',
    });
    expect([ping.statusCode, ping.json()]).toEqual([200, { received: 'ignored' }]);

    const unsigned = await webhook(channel.id, 'order.created', order, { secret: null });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().code).toBe('channel_webhook_unsigned');
    const forged = await webhook(channel.id, 'order.created', order, { secret: 'not-the-secret' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('channel_webhook_unsigned');
    // A signature over other bytes than those sent.
    const tampered = await ctx.app.inject({
      method: 'POST',
      url: `/public/v1/channels/${channel.id}/webhook`,
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-delivery-id': '1',
        'x-wc-webhook-signature': sim.signWebhook(JSON.stringify(order), SECRET),
      },
      payload: JSON.stringify({ ...order, total: '1.00' }),
    });
    expect(tampered.statusCode).toBe(401);
    expect(await ledger(m.apiKey, channel.id)).toEqual([]);

    // Updated before created, then created, then the same delivery again.
    expect((await webhook(channel.id, 'order.updated', order, { id: '501' })).json()).toEqual({ received: 'taken' });
    expect((await webhook(channel.id, 'order.created', order, { id: '502' })).json()).toEqual({ received: 'taken' });
    const repeated = await webhook(channel.id, 'order.created', order, { id: '502' });
    expect([repeated.statusCode, repeated.json()]).toEqual([200, { received: 'repeated' }]);
    // A topic intake does not act on, signed: answered, nothing changed.
    expect((await webhook(channel.id, 'product.updated', { id: 402 })).json()).toEqual({ received: 'ignored' });
    await ctx.app.channelIntake.round();
    const rows = await ledger(m.apiKey, channel.id);
    expect(rows).toEqual([
      {
        channel_order_id: '7301',
        channel_order_name: '7301',
        state: 'imported',
        reason: null,
        fields: null,
        order_id: expect.any(String),
        shipment_id: expect.any(String),
        cancelled_in_store: false,
        first_seen_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    const shipment = await listed(ctx, m.apiKey, rows[0].shipment_id);
    // payment_method cod: the order's whole total is owed at the door.
    expect(shipment.attributes).toMatchObject({ status: 'pending', is_cod: true, cod_amount: 1747.5 });
    expect(shipment.attributes.order.channel_order_name).toBe('7301');

    // A deletion of an order never seen changes nothing; this one's cancels the order not yet picked up.
    expect((await webhook(channel.id, 'order.deleted', { id: 99999 })).json()).toEqual({ received: 'taken' });
    expect((await webhook(channel.id, 'order.deleted', { id: 7301 })).json()).toEqual({ received: 'taken' });
    await ctx.app.channelIntake.round();
    const [cancelled, ...none] = await ledger(m.apiKey, channel.id);
    expect(none).toEqual([]);
    expect(cancelled).toMatchObject({ channel_order_id: '7301', state: 'cancelled', cancelled_in_store: true });
    expect((await listed(ctx, m.apiKey, rows[0].shipment_id)).attributes.status).toBe('cancelled');
    // A late update (the order restored from the bin) does not undo it.
    await webhook(channel.id, 'order.updated', order);
    await ctx.app.channelIntake.round();
    expect((await ledger(m.apiKey, channel.id))[0]).toMatchObject({ state: 'cancelled', cancelled_in_store: true });
  });

  it('lists an order without a phone as refused with its reason, and imports it once the store sends the phone', async () => {
    const m = await merchant();
    const channel = await connect(m);
    // The fixture's shipping phone is blank; with the billing one blank too, the order has none.
    const order = structuredClone(noPhoneOrder);
    order.billing.phone = '';
    expect((await webhook(channel.id, 'order.created', order)).statusCode).toBe(200);
    await ctx.app.channelIntake.round();
    const [refused] = await ledger(m.apiKey, channel.id, 'refused');
    expect(refused).toMatchObject({
      channel_order_id: '5133',
      channel_order_name: 'WC-5133',
      state: 'refused',
      order_id: null,
      shipment_id: null,
    });
    expect(refused.fields).toEqual(['billing_phone']);
    expect(refused.reason).toBe('billing_phone is required');
    expect((await channelOf(m.apiKey, channel.id)).counts).toMatchObject({ refused: 1, imported: 0 });
    // Retrying unchanged refuses it again, with the same reason.
    const retried = await call(m.apiKey, 'POST', `/channels/${channel.id}/orders/5133/retry`);
    expect([retried.statusCode, retried.json().data.state]).toEqual([200, 'pending']);
    await ctx.app.channelIntake.round();
    expect((await ledger(m.apiKey, channel.id, 'refused'))[0]).toMatchObject({ reason: refused.reason });

    // The merchant adds the billing phone the refusal names in WooCommerce: its order.updated imports it.
    order.billing.phone = noPhoneOrder.billing.phone;
    await webhook(channel.id, 'order.updated', order);
    await ctx.app.channelIntake.round();
    expect(await ledger(m.apiKey, channel.id, 'refused')).toEqual([]);
    const [imported] = await ledger(m.apiKey, channel.id, 'imported');
    expect(imported).toMatchObject({ channel_order_id: '5133', reason: null, fields: null });
    const shipment = await listed(ctx, m.apiKey, imported.shipment_id);
    // razorpay: prepaid, nothing owed at the door.
    expect(shipment.attributes).toMatchObject({ is_cod: false, cod_amount: 0 });
    expect(shipment.attributes.order.display_id).toBe(`${m.storeName}-WC-5133`);
    // Only a refused order is retried; one the channel never saw is unknown.
    expect((await call(m.apiKey, 'POST', `/channels/${channel.id}/orders/5133/retry`)).statusCode).toBe(409);
    const unseen = await call(m.apiKey, 'POST', `/channels/${channel.id}/orders/1/retry`);
    expect([unseen.statusCode, unseen.json().code]).toEqual([404, 'channel_order_not_found']);
  });

  it("keeps an erased buyer erased: their refused order's copy, sent again unchanged by the store, is not taken back", async () => {
    const m = await merchant();
    const channel = await connect(m);
    // The buyer's two orders: one imported (their e-mail on it), one refused for want of a phone.
    const email = `zorawarix.${crypto.randomUUID().slice(0, 8)}@buyer.example`;
    const booked = { ...structuredClone(codOrder), id: 7601, number: '7601' };
    booked.billing.email = email;
    const refusedOrder = structuredClone(noPhoneOrder);
    refusedOrder.billing.phone = '';
    refusedOrder.billing.email = email;
    sim.addOrder(booked);
    sim.addOrder(refusedOrder);
    await ctx.app.channelIntake.round();
    expect((await ledger(m.apiKey, channel.id)).map((row: { state: string }) => row.state).sort()).toEqual([
      'imported',
      'refused',
    ]);
    // Erasure waits for the buyer's parcels: the imported order's is cancelled first.
    const [imported] = await ledger(m.apiKey, channel.id, 'imported');
    expect((await call(m.apiKey, 'POST', '/cancel-order', { shipment_id: imported.shipment_id })).statusCode).toBe(200);
    const erased = await call(m.apiKey, 'POST', '/buyer-erasures', { email });
    expect([erased.statusCode, erased.json().data?.erased?.channel_orders]).toEqual([200, 2]);
    const holding = async () =>
      (
        await queryRows<{ channel_order_id: string }>(
          ctx.database.db,
          sql`select channel_order_id from channel_orders
               where sales_channel_id = ${channel.id} and payload::text like ${`%${email}%`} order by 1`,
        )
      ).map((row) => row.channel_order_id);
    expect(await holding()).toEqual([]);

    // The next pull sends both as they were (the store still has them): the erased copies stay.
    ctx.clock.advance(24 * 3_600_000);
    await ctx.app.channelIntake.round();
    // This channel was pulled in that round (a day later, it was due).
    expect((await channelOf(m.apiKey, channel.id)).last_synced_at).toBe(ctx.clock.now().toISOString());
    expect(await holding()).toEqual([]);
    expect(await ledger(m.apiKey, channel.id, 'refused')).toMatchObject([
      { channel_order_id: '5133', reason: 'billing_phone is required' },
    ]);
  });

  it('erases a buyer named only by a store order that was refused: every value the order holds', async () => {
    const m = await merchant();
    const channel = await connect(m);
    const order = structuredClone(noPhoneOrder);
    order.billing.phone = '';
    order.billing.email = `zorawarix.${crypto.randomUUID().slice(0, 8)}@buyer.example`;
    const name = `Zorawarix${crypto.randomUUID().slice(0, 6)}`;
    order.billing.first_name = name;
    order.shipping.first_name = name;
    sim.addOrder(order);
    await ctx.app.channelIntake.round();
    expect(await ledger(m.apiKey, channel.id, 'refused')).toMatchObject([{ channel_order_id: '5133', order_id: null }]);
    const holds = async (value: string) =>
      (
        await queryRows<{ n: number }>(
          ctx.database.db,
          sql`select count(*)::int as n from channel_orders where sales_channel_id = ${channel.id} and payload::text like ${`%${value}%`}`,
        )
      )[0]!.n;
    expect([await holds(order.billing.email), await holds(name)]).toEqual([1, 1]);

    const erased = await call(m.apiKey, 'POST', '/buyer-erasures', { email: order.billing.email });
    expect([erased.statusCode, erased.json().data.found.orders, erased.json().data.erased]).toEqual([
      200,
      0,
      { channel_orders: 1 },
    ]);
    // The name was not asked for: it was read from the order, and erased with the e-mail.
    expect([await holds(order.billing.email), await holds(name)]).toEqual([0, 0]);
    const again = await call(m.apiKey, 'POST', '/buyer-erasures', { email: order.billing.email });
    expect([again.statusCode, again.json().code]).toEqual([404, 'buyer_not_found']);
  });

  it('refuses orders while their weight is unknown, and imports them once the channel has a default weight', async () => {
    const m = await merchant();
    for (const order of simOrders(2, 600)) sim.addOrder(order);
    const channel = await connect(m, { default_weight: undefined });
    expect(channel.default_weight).toBeNull();
    await ctx.app.channelIntake.round();
    const refused = await ledger(m.apiKey, channel.id, 'refused');
    expect(refused.map((r: { channel_order_id: string }) => r.channel_order_id).sort()).toEqual(['6600', '6601']);
    for (const row of refused)
      expect(row).toMatchObject({
        fields: ['weight'],
        reason: 'weight is unknown: an item has no weight in the store, and the channel has no default package weight',
      });
    const patched = await call(m.apiKey, 'PATCH', `/channels/${channel.id}`, { default_weight: 0.75 });
    expect([patched.statusCode, patched.json().data.default_weight]).toEqual([200, 0.75]);
    await ctx.app.channelIntake.round();
    const imported = await ledger(m.apiKey, channel.id, 'imported');
    expect(imported).toHaveLength(2);
    const shipment = await listed(ctx, m.apiKey, imported[0].shipment_id);
    // 10 × 10 × 10 cm weighs 200 g by volume: the default's 750 g applies.
    expect(shipment.attributes.applied_weight).toEqual({ value: 750, metric_unit: 'g' });
  });

  it('books an order at once when the channel says book, through the allocation rules', async () => {
    const m = await merchant();
    const rule = await call(m.apiKey, 'POST', '/allocation/rules', {
      name: 'COD with Shadowfax',
      priority: 10,
      strategy: 'priority',
      carrier_ids: ['CARSHFXSTD001'],
      conditions: { payment_methods: ['cod'] },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const channel = await connect(m, { on_import: 'book' });
    expect(channel.on_import).toBe('book');
    await webhook(channel.id, 'order.created', { ...structuredClone(codOrder), id: 7401, number: '7401' });
    await ctx.app.channelIntake.round();
    const [row] = await ledger(m.apiKey, channel.id, 'imported');
    const shipment = await listed(ctx, m.apiKey, row.shipment_id);
    // Booked with the courier the account's COD rule names, an AWB assigned, awaiting pickup.
    expect(shipment.attributes.carrier).toMatchObject({ id: 'CARSHFXSTD001' });
    expect(shipment.attributes.tracking_number).toMatch(/^SFX\d+$/);
    expect(shipment.attributes.status).toBe('pending');
  });

  it('stops intake when disconnected: webhooks answer 410 and change nothing, imported orders stay', async () => {
    const m = await merchant();
    for (const order of simOrders(1, 700)) sim.addOrder(order);
    const channel = await connect(m);
    await ctx.app.channelIntake.round();
    const [row] = await ledger(m.apiKey, channel.id, 'imported');
    // The channel as a pull holds it while the store answers (what claimDuePulls gave it).
    const [{ account_id: accountId }] = (await queryRows<{ account_id: string }>(
      ctx.database.db,
      sql`select account_id from sales_channels where id = ${channel.id}`,
    )) as [{ account_id: string }];
    const underWay = (await channelById(ctx.database.db, accountId, channel.id))!;

    const gone = await call(m.apiKey, 'DELETE', `/channels/${channel.id}`);
    expect(gone.json().data).toMatchObject({ status: 'disconnected', disconnected_at: expect.any(String) });
    expect((await call(m.apiKey, 'GET', `/client-stores/${m.storeId}`)).json().data.channel).not.toBe('woocommerce');
    const late = await webhook(channel.id, 'order.created', { ...structuredClone(codOrder), id: 7501, number: '7501' });
    expect([late.statusCode, late.json().code]).toEqual([410, 'channel_disconnected']);
    const deleted = await webhook(channel.id, 'order.deleted', { id: 6700 });
    expect(deleted.statusCode).toBe(410);
    expect((await call(m.apiKey, 'POST', `/channels/${channel.id}/sync`)).statusCode).toBe(410);
    sim.addOrder(simOrders(1, 701)[0]!);
    expect(await ctx.app.channelIntake.round()).toEqual({ pulled: 0, imported: 0 });
    // A pull under way as it was disconnected takes nothing of the store's answer.
    sim.requests.splice(0);
    expect(await ctx.app.channelIntake.pull(underWay)).toBe(0);
    expect(sim.requests.map((r) => `${r.method} ${r.route}`)).toEqual(['GET /wc/v3/orders', 'GET /wc/v3/products']);
    expect(await ledger(m.apiKey, channel.id)).toEqual([row]);
    expect((await listed(ctx, m.apiKey, row.shipment_id)).attributes.status).toBe('pending');
    // Disconnecting again answers the same channel.
    expect((await call(m.apiKey, 'DELETE', `/channels/${channel.id}`)).json().data.status).toBe('disconnected');
  });
});
