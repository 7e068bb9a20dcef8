import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { createStore } from '../../../test/kit/stores.js';
import { list, listed } from '../../../test/kit/shipments.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { queryRows } from '../../base/db/client.js';
import {
  SIM_SHOPIFY_TOKEN,
  type ShopifySimulator,
  type SimShopifyOrder,
  startShopifySimulator,
} from '../../demo/simulators/shopify-simulator.js';

// A Shopify shop feeding a store (issue 49), against the Shopify simulator: connecting, the first
// pull across pages with a throttled answer, each webhook topic signed, forged, unsigned,
// repeated and out of order, exactly one Dakiya order per store order, COD amounts, cancellation.

const SECRET = 'shpss_intake_test_secret';
const fixture = (name: string) =>
  readFileSync(new URL(`../../channels/fixtures/shopify/${name}`, import.meta.url), 'utf8');
const page = JSON.parse(fixture('graphql-orders-page.json'));
const codWebhook = JSON.parse(fixture('webhook-orders-create-cod-inr.json'));

let sim: ShopifySimulator;
let ctx: TestContext;

/** `count` orders like the fixture's first (COD, Bengaluru, weighed items), renumbered from `from`. */
function simOrders(count: number, from = 0): SimShopifyOrder[] {
  return Array.from({ length: count }, (_, i) => {
    const node = structuredClone(page.data.orders.edges[0].node);
    const id = 7000000000 + from + i;
    return {
      ...node,
      id: `gid://shopify/Order/${id}`,
      legacyResourceId: String(id),
      name: `#${1100 + from + i}`,
      lineItems: node.lineItems.edges.map((e: { node: unknown }) => e.node),
    };
  });
}

const call = (apiKey: string, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `${V1}${url}`, headers: authed(apiKey), ...(payload && { payload }) });

async function merchant() {
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, apiKey, 'mumbai');
  const store = await createStore(ctx, apiKey, { store_name: `acme-${crypto.randomUUID().slice(0, 8)}` });
  return { apiKey, warehouseId, storeName: store.store_name as string, storeId: store.id as string };
}

async function connect(m: Awaited<ReturnType<typeof merchant>>, extra: object = {}) {
  const response = await call(m.apiKey, 'POST', '/channels', {
    channel: 'shopify',
    store_name: m.storeName,
    shop_domain: sim.shop.myshopifyDomain,
    access_token: SIM_SHOPIFY_TOKEN,
    webhook_secret: SECRET,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

function webhook(
  channelId: string,
  topic: string,
  body: object,
  options: { id?: string; secret?: string | null } = {},
) {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-shopify-topic': topic,
    'x-shopify-shop-domain': sim.shop.myshopifyDomain,
    'x-shopify-webhook-id': options.id ?? crypto.randomUUID(),
  };
  if (options.secret !== null) headers['x-shopify-hmac-sha256'] = sim.signWebhook(raw, options.secret ?? SECRET);
  return ctx.app.inject({ method: 'POST', url: `/public/v1/channels/${channelId}/webhook`, headers, payload: raw });
}

const ledger = async (apiKey: string, channelId: string, state?: string) =>
  (await call(apiKey, 'GET', `/channels/${channelId}/orders${state ? `?state=${state}` : ''}`)).json().data;

const shipmentOf = (apiKey: string, shipmentId: string) => listed(ctx, apiKey, shipmentId);

beforeAll(async () => {
  sim = await startShopifySimulator();
  ctx = await createTestApp({
    settings: { outbound: { allowHttp: true, allowPrivate: true }, channels: { shopifyBaseUrl: sim.baseUrl } },
  });
});
beforeEach(() => {
  sim.orders.splice(0);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

describe('connecting a Shopify shop', () => {
  it('checks the token before saving, answers the webhook URL, and never answers a secret', async () => {
    const m = await merchant();
    const refused = await call(m.apiKey, 'POST', '/channels', {
      channel: 'shopify',
      store_name: m.storeName,
      shop_domain: sim.shop.myshopifyDomain,
      access_token: 'shpat_wrong',
      webhook_secret: SECRET,
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'channel_credentials_refused' });
    expect(refused.json().details.map((d: { field: string }) => d.field)).toEqual(['access_token']);
    expect((await call(m.apiKey, 'GET', '/channels')).json().data).toEqual([]);

    const missing = await call(m.apiKey, 'POST', '/channels', { channel: 'shopify' });
    expect(missing.statusCode).toBe(400);
    expect(
      missing
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['access_token', 'shop_domain', 'store_name', 'webhook_secret'].sort());

    const channel = await connect(m);
    expect(channel).toMatchObject({
      channel: 'shopify',
      store_id: m.storeId,
      store_name: m.storeName,
      shop_name: sim.shop.name,
      shop_domain: sim.shop.myshopifyDomain,
      site_url: null,
      warehouse_id: m.warehouseId,
      status: 'connected',
      on_import: 'queue',
      notify_customer: false,
      webhook_url: `${PUBLIC_BASE_URL}/public/v1/channels/${channel.id}/webhook`,
      webhook_topics: ['orders/create', 'orders/updated', 'orders/cancelled'],
      last_synced_at: null,
      counts: { imported: 0, refused: 0, pending: 0 },
    });
    expect(JSON.stringify(channel)).not.toContain(SIM_SHOPIFY_TOKEN);
    expect(JSON.stringify(channel)).not.toContain(SECRET);
    const store = (await call(m.apiKey, 'GET', `/client-stores/${m.storeId}`)).json().data;
    expect(store.channel).toBe('shopify');

    const again = await call(m.apiKey, 'POST', '/channels', {
      channel: 'shopify',
      store_name: m.storeName,
      shop_domain: sim.shop.myshopifyDomain,
      access_token: SIM_SHOPIFY_TOKEN,
      webhook_secret: SECRET,
    });
    expect(again.statusCode).toBe(409);

    // Another account reads it as unknown.
    const other = await merchant();
    expect((await call(other.apiKey, 'GET', `/channels/${channel.id}`)).statusCode).toBe(404);
    expect((await call(other.apiKey, 'DELETE', `/channels/${channel.id}`)).statusCode).toBe(404);
    expect((await call(m.apiKey, 'DELETE', `/channels/${channel.id}`)).json().data.status).toBe('disconnected');
  });
});

describe('orders in from Shopify', () => {
  it('pulls every page once, through a throttled answer, into one order each', async () => {
    const m = await merchant();
    for (const order of simOrders(12)) sim.addOrder(order);
    const channel = await connect(m);
    sim.throttleNext(1, 0);
    const first = await ctx.app.channelIntake.round();
    expect(first.imported).toBeGreaterThanOrEqual(12);
    // A second round pulls nothing new (the pull is not due) and imports nothing twice.
    expect(await ctx.app.channelIntake.round()).toEqual({ pulled: 0, imported: 0 });
    const rows = await ledger(m.apiKey, channel.id, 'imported');
    const names = rows.map((r: { channel_order_name: string }) => r.channel_order_name);
    for (let i = 0; i < 12; i++) expect(names).toContain(`#${1100 + i}`);
    const health = (await call(m.apiKey, 'GET', `/channels/${channel.id}`)).json().data;
    expect(health.last_synced_at).not.toBeNull();
    expect(health.counts.imported).toBe(rows.length);

    const row = rows.find((r: { channel_order_name: string }) => r.channel_order_name === '#1100');
    const shipment = await shipmentOf(m.apiKey, row.shipment_id);
    expect(shipment.attributes.status).toBe('pending');
    expect(shipment.attributes.is_cod).toBe(true);
    expect(shipment.attributes.cod_amount).toBe(1299);
    expect(shipment.attributes.order).toMatchObject({
      channel: 'shopify',
      channel_order_name: '#1100',
      channel_order_id: '7000000000',
    });
    const search = await list(ctx, m.apiKey, { search: '#1100' });
    expect(search.data.map((s) => s.id)).toEqual([row.shipment_id]);
    // The line's product type is the item's category, which a store's return policy may refuse.
    const items = await queryRows<{ sku: string; category: string | null }>(
      ctx.database.db,
      sql`select i.sku, i.category from order_items i join shipments s on s.order_id = i.order_id
          where s.id = ${row.shipment_id} order by i.position`,
    );
    expect(items).toEqual([{ sku: 'KUR-M', category: 'Kurtas' }]);
  });

  it('takes each webhook once, whatever order they come in, and refuses forged and unsigned ones', async () => {
    const m = await merchant();
    const channel = await connect(m);
    await ctx.app.channelIntake.round();
    const order = {
      ...structuredClone(codWebhook),
      id: 5412873609999,
      admin_graphql_api_id: 'gid://shopify/Order/5412873609999',
      name: '#3001',
    };

    const unsigned = await webhook(channel.id, 'orders/create', order, { secret: null });
    expect(unsigned.statusCode).toBe(401);
    const forged = await webhook(channel.id, 'orders/create', order, { secret: 'not-the-secret' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('channel_webhook_unsigned');
    expect(await ledger(m.apiKey, channel.id)).toEqual([]);

    // updated before created, then created, then the same delivery again.
    const updated = await webhook(channel.id, 'orders/updated', order, { id: 'w-1' });
    expect(updated.json()).toEqual({ received: 'taken' });
    expect((await webhook(channel.id, 'orders/create', order, { id: 'w-2' })).json()).toEqual({ received: 'taken' });
    expect((await webhook(channel.id, 'orders/create', order, { id: 'w-2' })).json()).toEqual({ received: 'repeated' });
    await ctx.app.channelIntake.round();
    const rows = await ledger(m.apiKey, channel.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel_order_id: '5412873609999',
      channel_order_name: '#3001',
      state: 'imported',
    });
    const shipment = await shipmentOf(m.apiKey, rows[0].shipment_id);
    expect(shipment.attributes.order.channel_order_name).toBe('#3001');
    expect(shipment.attributes).toMatchObject({ is_cod: true, cod_amount: 2999 });

    // A cancellation in the store cancels the order not yet picked up.
    expect((await webhook(channel.id, 'orders/cancelled', order, { id: 'w-3' })).statusCode).toBe(200);
    await ctx.app.channelIntake.round();
    const [cancelled] = await ledger(m.apiKey, channel.id);
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelled_in_store: true });
    expect((await shipmentOf(m.apiKey, rows[0].shipment_id)).attributes.status).toBe('cancelled');
    // The audit log names the store as the one who asked (issue 51), Dakiya acting for the account.
    expect(
      await queryRows(
        ctx.database.db,
        sql`select actor_type, actor_name, action from audit_log where object_id = ${rows[0].shipment_id}`,
      ),
    ).toEqual([
      { actor_type: 'system', actor_name: 'the store, which cancelled order #3001', action: 'shipment.cancelled' },
    ]);
    // A late, older delivery does not undo it.
    await webhook(channel.id, 'orders/updated', order, { id: 'w-4' });
    await ctx.app.channelIntake.round();
    expect((await ledger(m.apiKey, channel.id))[0]).toMatchObject({ state: 'cancelled' });
  });

  it("gives a webhook's lines their product types, read again from the GraphQL API (the REST payload has none)", async () => {
    const m = await merchant();
    const channel = await connect(m);
    await ctx.app.channelIntake.round();
    const sold = (id: number) => ({
      ...structuredClone(codWebhook),
      id,
      admin_graphql_api_id: `gid://shopify/Order/${id}`,
      name: `#${id % 10_000}`,
      line_items: codWebhook.line_items.map((line: object) => ({ ...line, product_id: 8_123_456_789 })),
    });
    // Shopify has the first order; the second it no longer has (deleted since): taken as sent.
    const [node] = simOrders(1, 50);
    sim.addOrder({
      ...node!,
      id: 'gid://shopify/Order/5412873608888',
      legacyResourceId: '5412873608888',
      lineItems: node!.lineItems.map((line) => ({
        ...(line as object),
        sku: 'SAR-IND-01',
        product: { productType: 'Sarees' },
      })),
    });
    sim.requests.splice(0);
    for (const id of [5412873608888, 5412873607777])
      expect((await webhook(channel.id, 'orders/create', sold(id))).json()).toEqual({ received: 'taken' });
    expect(sim.requests.map((r) => [r.rootField, r.variables.id])).toEqual([
      ['order', 'gid://shopify/Order/5412873608888'],
      ['order', 'gid://shopify/Order/5412873607777'],
    ]);
    await ctx.app.channelIntake.round();
    const categories = await queryRows<{ channel_order_id: string; sku: string; category: string | null }>(
      ctx.database.db,
      sql`select o.channel_order_id, oi.sku, oi.category from order_items oi join orders o on o.id = oi.order_id
          where o.store_id = ${m.storeId} order by o.channel_order_id desc`,
    );
    expect(categories).toEqual([
      { channel_order_id: '5412873608888', sku: 'SAR-IND-01', category: 'Sarees' },
      { channel_order_id: '5412873607777', sku: 'SAR-IND-01', category: null },
    ]);
  });

  it('imports a webhook racing the first pull once', async () => {
    const m = await merchant();
    const [node] = simOrders(1, 50);
    sim.addOrder(node!);
    const channel = await connect(m);
    const order = {
      ...structuredClone(codWebhook),
      id: Number(node!.legacyResourceId),
      admin_graphql_api_id: node!.id,
      name: node!.name,
    };
    expect((await webhook(channel.id, 'orders/create', order)).statusCode).toBe(200);
    await ctx.app.channelIntake.round();
    const rows = await ledger(m.apiKey, channel.id);
    expect(rows.map((r: { channel_order_name: string; state: string }) => [r.channel_order_name, r.state])).toEqual([
      ['#1150', 'imported'],
    ]);
    expect((await list(ctx, m.apiKey, { search: '#1150' })).data).toHaveLength(1);
  });

  it('keeps an order it cannot import with the reason, and imports it once the store fixes it', async () => {
    const m = await merchant();
    const channel = await connect(m);
    await ctx.app.channelIntake.round();
    const noPhone = {
      ...structuredClone(codWebhook),
      id: 5412873608888,
      admin_graphql_api_id: 'gid://shopify/Order/5412873608888',
      name: '#4001',
      shipping_address: { ...codWebhook.shipping_address, phone: null },
    };
    await webhook(channel.id, 'orders/create', noPhone);
    await ctx.app.channelIntake.round();
    const [refused] = await ledger(m.apiKey, channel.id, 'refused');
    expect(refused).toMatchObject({ channel_order_name: '#4001', state: 'refused', order_id: null });
    expect(refused.fields).toContain('shipping_phone');
    expect(refused.reason).toContain('shipping_phone');
    expect((await call(m.apiKey, 'GET', `/channels/${channel.id}`)).json().data.counts).toMatchObject({
      refused: 1,
      imported: 0,
    });
    // The same order, unchanged, stays refused; retrying it by hand is refused for an imported one.
    await webhook(channel.id, 'orders/updated', noPhone);
    await ctx.app.channelIntake.round();
    expect((await ledger(m.apiKey, channel.id))[0].state).toBe('refused');
    // The merchant adds the phone in Shopify: orders/updated brings it, and it is imported.
    await webhook(channel.id, 'orders/updated', { ...noPhone, shipping_address: codWebhook.shipping_address });
    await ctx.app.channelIntake.round();
    const [imported] = await ledger(m.apiKey, channel.id);
    expect(imported).toMatchObject({ state: 'imported', reason: null, fields: null });
    expect(imported.shipment_id).not.toBeNull();
    const retry = await call(m.apiKey, 'POST', `/channels/${channel.id}/orders/5412873608888/retry`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe('channel_order_not_refused');
    expect((await call(m.apiKey, 'POST', `/channels/${channel.id}/orders/1/retry`)).statusCode).toBe(404);
  });

  it('keeps the newer copy of an order when an older one arrives after it', async () => {
    const m = await merchant();
    const channel = await connect(m);
    await ctx.app.channelIntake.round();
    const base = {
      ...structuredClone(codWebhook),
      id: 5412873607777,
      admin_graphql_api_id: 'gid://shopify/Order/5412873607777',
      name: '#5001',
    };
    const fixed = { ...base, updated_at: '2026-11-20T10:05:00+05:30' };
    const stale = {
      ...base,
      updated_at: '2026-11-20T10:00:00+05:30',
      shipping_address: { ...codWebhook.shipping_address, phone: null },
    };
    await webhook(channel.id, 'orders/updated', fixed);
    await webhook(channel.id, 'orders/updated', stale);
    await ctx.app.channelIntake.round();
    const [row] = await ledger(m.apiKey, channel.id);
    expect(row).toMatchObject({ channel_order_name: '#5001', state: 'imported', reason: null });
  });

  it('flags a store cancellation after pickup for the merchant instead of cancelling', async () => {
    const m = await merchant();
    const rule = await call(m.apiKey, 'POST', '/allocation/rules', {
      name: 'COD with Shadowfax',
      priority: 10,
      strategy: 'priority',
      carrier_ids: [SHADOWFAX],
      conditions: { payment_methods: ['cod'] },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const channel = await connect(m, { on_import: 'book' });
    await ctx.app.channelIntake.round();
    const order = {
      ...structuredClone(codWebhook),
      id: 5412873606666,
      admin_graphql_api_id: 'gid://shopify/Order/5412873606666',
      name: '#6001',
    };
    await webhook(channel.id, 'orders/create', order);
    await ctx.app.channelIntake.round();
    const [row] = await ledger(m.apiKey, channel.id, 'imported');
    const booked = await shipmentOf(m.apiKey, row.shipment_id);
    const awb = booked.attributes.tracking_number!;
    expect(awb).toMatch(/^SFX\d+$/);
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    ctx.clock.advance(31 * 60_000);
    const [picked] = await sendEvents(ctx, token, [{ awb, status: 'in_transit', event_time: at(30) }]);
    expect(picked, JSON.stringify(picked)).toMatchObject({ accepted: true });

    await webhook(channel.id, 'orders/cancelled', order);
    await ctx.app.channelIntake.round();
    const [flagged] = await ledger(m.apiKey, channel.id);
    expect(flagged).toMatchObject({ channel_order_name: '#6001', state: 'cancel_flagged', cancelled_in_store: true });
    expect(flagged.reason).toBe(
      "Cancelled in the store, but the shipment could not be cancelled (Shipment is in_transit and can no longer be cancelled): an RTO is the merchant's call",
    );
    expect((await shipmentOf(m.apiKey, row.shipment_id)).attributes.status).toBe('in_transit');
  });

  it('imports a store order that needs an e-way bill unbooked, when the channel books on import', async () => {
    const m = await merchant();
    const channel = await connect(m, { on_import: 'book' });
    await ctx.app.channelIntake.round();
    const costly = structuredClone(codWebhook);
    Object.assign(costly, {
      id: 5412873607777,
      admin_graphql_api_id: 'gid://shopify/Order/5412873607777',
      name: '#6002',
      total_price: '64999.00',
      total_outstanding: '64999.00',
    });
    costly.line_items[0].price = '65099.00';
    await webhook(channel.id, 'orders/create', costly);
    await ctx.app.channelIntake.round();
    const [row] = await ledger(m.apiKey, channel.id, 'imported');
    expect(row).toMatchObject({ channel_order_name: '#6002', state: 'imported' });
    const kept = await shipmentOf(m.apiKey, row.shipment_id);
    expect([kept.attributes.status, kept.attributes.tracking_number]).toEqual(['pending', null]);
  });

  it('keeps a store order it cannot read, with why, and goes on with the rest', async () => {
    const m = await merchant();
    const [good, bad] = simOrders(2, 80);
    sim.addOrder(good!);
    sim.addOrder({ ...bad!, totalPriceSet: { shopMoney: { amount: 'a lot', currencyCode: 'INR' } } });
    const channel = await connect(m);
    await ctx.app.channelIntake.round();
    const rows = await ledger(m.apiKey, channel.id);
    const byName = new Map<string, { reason: string }>(
      rows.map((r: { channel_order_name: string; reason: string }) => [r.channel_order_name, r]),
    );
    expect(byName.get('#1180')).toMatchObject({ state: 'imported' });
    expect(byName.get('#1181')).toMatchObject({ channel_order_id: '7000000081', state: 'refused', fields: ['order'] });
    expect(byName.get('#1181')!.reason).toMatch(
      /^The store's order could not be read: Shopify sent an order without a readable /,
    );

    // A signed webhook whose order cannot be read is the store's own: answered, and kept the same way.
    const unreadable = {
      ...structuredClone(codWebhook),
      id: 5412873605555,
      admin_graphql_api_id: 'gid://shopify/Order/5412873605555',
      name: '#7001',
      total_price: 'a lot',
    };
    const answered = await webhook(channel.id, 'orders/create', unreadable);
    expect([answered.statusCode, answered.json()]).toEqual([200, { received: 'taken' }]);
    await ctx.app.channelIntake.round();
    const [kept] = await ledger(m.apiKey, channel.id, 'refused').then((r) =>
      r.filter((x: { channel_order_name: string }) => x.channel_order_name === '#7001'),
    );
    expect(kept).toMatchObject({ channel_order_id: '5412873605555', state: 'refused', fields: ['order'] });
    // The store sends a copy that reads: it is imported.
    await webhook(channel.id, 'orders/updated', { ...unreadable, total_price: codWebhook.total_price });
    await ctx.app.channelIntake.round();
    const fixed = (await ledger(m.apiKey, channel.id)).find(
      (x: { channel_order_name: string }) => x.channel_order_name === '#7001',
    );
    expect(fixed).toMatchObject({ state: 'imported', reason: null });
  });
});
