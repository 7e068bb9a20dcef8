import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { createStore } from '../../../test/kit/stores.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import {
  SIM_SHOPIFY_TOKEN,
  type ShopifySimulator,
  startShopifySimulator,
} from '../../demo/simulators/shopify-simulator.js';
import { startWooCommerceSimulator, type WooCommerceSimulator } from '../../demo/simulators/woocommerce-simulator.js';

// Connecting subscribes the channel's webhook URL in the store itself (issue 49: "what Dakiya
// registers itself where the platform allows"), and disconnecting removes what it made; a store
// that will not take them leaves the channel connected with why.

let shopify: ShopifySimulator;
let woo: WooCommerceSimulator;
let ctx: TestContext;
let plainCtx: TestContext;

const call = (c: TestContext, apiKey: string, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  c.app.inject({ method, url: `${V1}${url}`, headers: authed(apiKey), ...(payload && { payload }) });

async function merchant(c: TestContext) {
  const { apiKey } = await c.createAccount();
  await createCityWarehouse(c, apiKey, 'mumbai');
  const store = await createStore(c, apiKey, { store_name: `shop-${crypto.randomUUID().slice(0, 8)}` });
  return { apiKey, storeName: store.store_name as string };
}
const shopifyBody = (storeName: string, extra: object = {}) => ({
  channel: 'shopify',
  store_name: storeName,
  shop_domain: `${storeName}.myshopify.com`,
  access_token: SIM_SHOPIFY_TOKEN,
  webhook_secret: 'shpss_hooks',
  ...extra,
});

beforeAll(async () => {
  [shopify, woo] = await Promise.all([startShopifySimulator(), startWooCommerceSimulator()]);
  const settings = { outbound: { allowHttp: true, allowPrivate: true }, channels: { shopifyBaseUrl: shopify.baseUrl } };
  ctx = await createTestApp({ settings });
  // A server whose public address is plain http, as a local install's is.
  plainCtx = await createTestApp({ settings: { ...settings, server: { publicBaseUrl: 'http://localhost:3000' } } });
});
afterAll(async () => {
  await Promise.all([ctx.close(), plainCtx.close()]);
  await Promise.all([shopify.close(), woo.close()]);
});

describe('webhook subscriptions', () => {
  it('subscribes a Shopify shop to the three order topics, JSON, and removes them on disconnect', async () => {
    const m = await merchant(ctx);
    const response = await call(ctx, m.apiKey, 'POST', '/channels', shopifyBody(m.storeName));
    expect(response.statusCode, response.body).toBe(201);
    const channel = response.json().data;
    const url = `${PUBLIC_BASE_URL}/public/v1/channels/${channel.id}/webhook`;
    expect(channel).toMatchObject({ webhook_url: url, webhooks_registered: true, webhook_error: null });
    const mine = () => shopify.subscriptions.filter((s) => s.callbackUrl === url);
    expect(mine().map((s) => [s.topic, s.format])).toEqual([
      ['ORDERS_CREATE', 'JSON'],
      ['ORDERS_UPDATED', 'JSON'],
      ['ORDERS_CANCELLED', 'JSON'],
    ]);
    const gone = await call(ctx, m.apiKey, 'DELETE', `/channels/${channel.id}`);
    expect(gone.json().data).toMatchObject({ status: 'disconnected', webhooks_registered: false });
    expect(mine()).toEqual([]);
  });

  it('leaves a channel connected, with why, when Shopify will not send to a plain http address', async () => {
    const m = await merchant(plainCtx);
    const response = await call(plainCtx, m.apiKey, 'POST', '/channels', shopifyBody(m.storeName));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({
      status: 'connected',
      webhooks_registered: false,
      webhook_error: 'Shopify refused the ORDERS_CREATE webhook: Address is invalid',
    });
    expect(shopify.subscriptions.filter((s) => s.callbackUrl.startsWith('http://localhost'))).toEqual([]);
  });

  it('makes none when asked not to', async () => {
    const m = await merchant(ctx);
    const before = shopify.subscriptions.length;
    const response = await call(
      ctx,
      m.apiKey,
      'POST',
      '/channels',
      shopifyBody(m.storeName, { register_webhooks: false }),
    );
    expect(response.json().data).toMatchObject({ webhooks_registered: false, webhook_error: null });
    expect(shopify.subscriptions).toHaveLength(before);
  });

  it('adds a WooCommerce site the three order webhooks with the channel secret, and deletes them on disconnect', async () => {
    const m = await merchant(ctx);
    const response = await call(ctx, m.apiKey, 'POST', '/channels', {
      channel: 'woocommerce',
      store_name: m.storeName,
      site_url: woo.baseUrl,
      consumer_key: woo.keys.consumerKey,
      consumer_secret: woo.keys.consumerSecret,
      webhook_secret: 'wc-hook-secret',
      default_weight: 0.5,
    });
    expect(response.statusCode, response.body).toBe(201);
    const channel = response.json().data;
    expect(channel).toMatchObject({ webhooks_registered: true, webhook_error: null });
    expect(
      woo.webhooks.map(({ name, topic, delivery_url, secret, status }) => ({
        name,
        topic,
        delivery_url,
        secret,
        status,
      })),
    ).toEqual(
      ['order.created', 'order.updated', 'order.deleted'].map((topic) => ({
        name: `Dakiya: ${topic}`,
        topic,
        delivery_url: channel.webhook_url,
        secret: 'wc-hook-secret',
        status: 'active',
      })),
    );
    await call(ctx, m.apiKey, 'DELETE', `/channels/${channel.id}`);
    expect(woo.webhooks).toEqual([]);
  });
});
