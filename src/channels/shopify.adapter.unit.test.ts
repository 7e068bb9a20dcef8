import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SIM_SHOPIFY_TOKEN,
  type ShopifySimulator,
  type SimShopifyOrder,
  startShopifySimulator,
} from '../demo/simulators/shopify-simulator.js';
import { ChannelCallError, type ChannelCredentials } from './channel-adapter.js';
import { createChannelHttp } from './channel-http.js';
import { createShopifyAdapter } from './shopify.adapter.js';

const http = createChannelHttp({ rules: { allowHttp: true, allowPrivate: true }, timeoutMs: 5000 });
const page = JSON.parse(readFileSync(new URL('./fixtures/shopify/graphql-orders-page.json', import.meta.url), 'utf8'));
const codWebhook = readFileSync(
  new URL('./fixtures/shopify/webhook-orders-create-cod-inr.json', import.meta.url),
  'utf8',
);
const SECRET = 'shpss_webhook_secret_for_tests';

let sim: ShopifySimulator;
let waits: number[];
const creds = (over: Partial<Extract<ChannelCredentials, { channel: 'shopify' }>> = {}): ChannelCredentials => ({
  channel: 'shopify',
  shopDomain: 'dakiya-test.myshopify.com',
  accessToken: SIM_SHOPIFY_TOKEN,
  webhookSecret: SECRET,
  ...over,
});
const adapter = () =>
  createShopifyAdapter({
    http,
    apiVersion: '2025-01',
    baseUrl: sim.baseUrl,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });

/** The fixture's nodes, renumbered: `count` orders for the simulator's shop. */
function orders(count: number): SimShopifyOrder[] {
  return Array.from({ length: count }, (_, i) => {
    const node = structuredClone(page.data.orders.edges[i % 3].node);
    const id = 6000000000 + i;
    return {
      ...node,
      id: `gid://shopify/Order/${id}`,
      legacyResourceId: String(id),
      name: `#${1100 + i}`,
      lineItems: node.lineItems.edges.map((e: { node: unknown }) => e.node),
    };
  });
}

beforeEach(async () => {
  sim = await startShopifySimulator();
  waits = [];
});
afterEach(() => sim.close());

describe('Shopify adapter against the simulator', () => {
  it('checks a good token and answers the shop name', async () => {
    await expect(adapter().checkCredentials(creds())).resolves.toEqual({ shopName: 'Dakiya Test Store' });
    expect(sim.requests[0]).toMatchObject({ version: '2025-01', token: SIM_SHOPIFY_TOKEN, rootField: 'shop' });
  });

  it('a wrong token is refused naming access_token, with Shopify words', async () => {
    const error = await adapter()
      .checkCredentials(creds({ accessToken: 'shpat_wrong' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChannelCallError);
    expect(error).toMatchObject({ kind: 'refused_credentials', fields: ['access_token'] });
    expect((error as Error).message).toContain('[API] Invalid API key or access token');
  });

  it('a revoked token is refused too', async () => {
    sim.setToken('shpat_rotated');
    await expect(adapter().checkCredentials(creds())).rejects.toMatchObject({ fields: ['access_token'] });
  });

  it('a shop domain that is no host, or where Shopify has no shop, is refused naming shop_domain', async () => {
    await expect(adapter().checkCredentials(creds({ shopDomain: 'not a domain' }))).rejects.toMatchObject({
      kind: 'refused_credentials',
      fields: ['shop_domain'],
    });
    const noShop = createShopifyAdapter({ http, apiVersion: 'no-such', baseUrl: `${sim.baseUrl}/nowhere` });
    await expect(noShop.checkCredentials(creds())).rejects.toMatchObject({ fields: ['shop_domain'] });
  });

  it('a custom shop domain without an address is refused naming shop_domain, as the guard says', async () => {
    const noDns = createShopifyAdapter({
      http: createChannelHttp({
        rules: {
          allowHttp: false,
          allowPrivate: false,
          lookup: async (host) => {
            throw new Error(`ENOTFOUND ${host}`);
          },
        },
        timeoutMs: 5000,
      }),
      apiVersion: '2025-01',
    });
    await expect(noDns.checkCredentials(creds({ shopDomain: 'shop.chaipoint.in' }))).rejects.toMatchObject({
      kind: 'refused_credentials',
      fields: ['shop_domain'],
      message: 'shop.chaipoint.in: store URL host shop.chaipoint.in does not resolve',
    });
  });

  it('pulls every waiting order across pages, waiting out a throttled answer as throttleStatus says', async () => {
    for (const order of orders(25)) sim.addOrder(order);
    const shopify = adapter();
    const first = await shopify.pullOrders(creds(), null);
    expect(first.orders).toHaveLength(10);
    sim.throttleNext(1, 40);
    const second = await shopify.pullOrders(creds(), first.next);
    // The simulator asked 2 + 10 × 6 = 62 points with 40 in the bucket, restored at 50 a second.
    expect(waits).toEqual([Math.ceil(((62 - 40) / 50) * 1000)]);
    const third = await shopify.pullOrders(creds(), second.next);
    expect(third.next).toBeNull();
    const names = [...first.orders, ...second.orders, ...third.orders].map((o) => o.channelOrderName);
    expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `#${1100 + i}`));
    expect(sim.requests.filter((r) => r.rootField === 'orders')).toHaveLength(4);
    expect(sim.requests[0]?.variables).toMatchObject({ q: 'status:open fulfillment_status:unfulfilled' });
  });

  it('leaves out cancelled, fulfilled and unpaid prepaid orders; keeps pending COD', async () => {
    const [cod, prepaid, partial, cancelled] = orders(4);
    sim.addOrder(cod!);
    sim.addOrder({ ...prepaid!, displayFinancialStatus: 'PENDING' });
    sim.addOrder({ ...partial!, displayFulfillmentStatus: 'FULFILLED' });
    sim.addOrder({ ...cancelled!, cancelledAt: '2025-01-16T00:00:00Z' });
    const pulled = await adapter().pullOrders(creds(), null);
    expect(pulled.orders.map((o) => [o.channelOrderName, o.paymentMethod])).toEqual([['#1100', 'cod']]);
  });

  it('fetches the lines past the first page of an order with many', async () => {
    const [order] = orders(1);
    const line = order!.lineItems[0] as Record<string, unknown>;
    sim.addOrder({ ...order!, lineItems: Array.from({ length: 23 }, (_, i) => ({ ...line, sku: `SKU-${i}` })) });
    const pulled = await adapter().pullOrders(creds(), null);
    expect(pulled.orders[0]?.lines.map((l) => l.sku)).toEqual(Array.from({ length: 23 }, (_, i) => `SKU-${i}`));
  });

  it('gives up as throttled after too many waits, saying how long to wait', async () => {
    sim.addOrder(orders(1)[0]!);
    sim.throttleNext(10, 0);
    const shopify = createShopifyAdapter({
      http,
      apiVersion: '2025-01',
      baseUrl: sim.baseUrl,
      sleep: async () => {},
      maxThrottleWaits: 2,
    });
    await expect(shopify.pullOrders(creds(), null)).rejects.toMatchObject({ kind: 'throttled', retryAfterMs: 1240 });
  });

  it('waits for real through the default sleep when none is injected', async () => {
    sim.throttleNext(1, 62);
    const shopify = createShopifyAdapter({ http, apiVersion: '2025-01', baseUrl: sim.baseUrl });
    await expect(shopify.pullOrders(creds(), null)).resolves.toEqual({ orders: [], unreadable: [], next: null });
  });
});

describe('Shopify webhooks', () => {
  const headers = (body: string, topic: string, signature?: string) => ({
    'x-shopify-topic': topic,
    'x-shopify-hmac-sha256': signature ?? sim.signWebhook(body, SECRET),
    'x-shopify-webhook-id': 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
    'x-shopify-event-id': '98880550-7158-44d4-b7cd-2c97c8a091b5',
  });

  it.each(['orders/create', 'orders/updated'])('a signed %s is the order, with its delivery id', (topic) => {
    const meaning = adapter().readWebhook(creds(), { rawBody: codWebhook, headers: headers(codWebhook, topic) });
    expect(meaning).toMatchObject({
      kind: 'order',
      deliveryId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
      order: { channelOrderId: '5412873601234', paymentMethod: 'cod', codPaise: 299900, cancelled: false },
    });
  });

  it('orders/cancelled is the order cancelled; the event id stands in for a missing webhook id', () => {
    const h: Record<string, string | undefined> = headers(codWebhook, 'orders/cancelled');
    h['x-shopify-webhook-id'] = undefined;
    expect(adapter().readWebhook(creds(), { rawBody: codWebhook, headers: h })).toMatchObject({
      kind: 'order',
      deliveryId: '98880550-7158-44d4-b7cd-2c97c8a091b5',
      order: { cancelled: true, awaitingShipment: false },
    });
  });

  it('a forged, mis-keyed, altered or unsigned webhook is null', () => {
    const shopify = adapter();
    const read = (h: Record<string, string | undefined>, body = codWebhook) =>
      shopify.readWebhook(creds(), { rawBody: body, headers: h });
    expect(read(headers(codWebhook, 'orders/create', 'Zm9yZ2Vk'))).toBeNull();
    expect(read(headers(codWebhook, 'orders/create', sim.signWebhook(codWebhook, 'another secret')))).toBeNull();
    expect(read(headers(codWebhook, 'orders/create'), codWebhook.replace('2999.00', '1.00'))).toBeNull();
    expect(read({ ...headers(codWebhook, 'orders/create'), 'x-shopify-hmac-sha256': undefined })).toBeNull();
  });

  it('another topic, signed, is ignored and named', () => {
    const body = '{"id":1}';
    expect(adapter().readWebhook(creds(), { rawBody: body, headers: headers(body, 'products/create') })).toEqual({
      kind: 'ignored',
      topic: 'products/create',
    });
  });
});
