import { afterEach, describe, expect, it } from 'vitest';
import { startWooCommerceSimulator, type WooCommerceSimulator } from '../demo/simulators/woocommerce-simulator.js';
import { ChannelCallError, type ChannelCredentials } from './channel-adapter.js';
import { createChannelHttp } from './channel-http.js';
import noReadPermission from './fixtures/woocommerce/error-401-no-read-permission.json' with { type: 'json' };
import secretInvalid from './fixtures/woocommerce/error-401-secret-invalid.json' with { type: 'json' };
import unknownKey from './fixtures/woocommerce/error-401-unknown-key.json' with { type: 'json' };
import cannotView from './fixtures/woocommerce/error-403-cannot-view.json' with { type: 'json' };
import noRoute from './fixtures/woocommerce/error-404-no-route.json' with { type: 'json' };
import order727 from './fixtures/woocommerce/order-727.json' with { type: 'json' };
import indiaCod from './fixtures/woocommerce/order-india-cod.json' with { type: 'json' };
import deletedBody from './fixtures/woocommerce/webhook-order-deleted.json' with { type: 'json' };
import { createWooCommerceAdapter } from './woocommerce.adapter.js';

const http = createChannelHttp({ rules: { allowHttp: true, allowPrivate: true }, timeoutMs: 5000 });
const WEBHOOK_SECRET = 'dakiya-wc-7d41c0e2f9b8';

let sims: WooCommerceSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
  sims = [];
});

async function site(options: { plainPermalinks?: boolean; indexNeedsLogin?: boolean } = {}) {
  const sim = await startWooCommerceSimulator(options);
  sims.push(sim);
  const slept: number[] = [];
  const adapter = createWooCommerceAdapter({
    http,
    sleep: async (ms) => {
      slept.push(ms);
    },
    now: () => Date.parse('2026-11-25T10:00:00Z'),
  });
  const credentials = (key = sim.keys): Extract<ChannelCredentials, { channel: 'woocommerce' }> => ({
    channel: 'woocommerce',
    siteUrl: `${sim.baseUrl}/`,
    ...key,
    webhookSecret: WEBHOOK_SECRET,
  });
  return { sim, adapter, slept, credentials };
}

async function refusal(promise: Promise<unknown>): Promise<ChannelCallError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ChannelCallError);
  return error as ChannelCallError;
}

/** `count` processing orders a minute apart, built on the Indian COD fixture. */
function backlog(sim: WooCommerceSimulator, count: number, firstId = 6000) {
  for (let n = 0; n < count; n += 1) {
    const at = new Date(Date.UTC(2026, 10, 20, 8, n)).toISOString().slice(0, 19);
    sim.addOrder({ ...structuredClone(indiaCod), id: firstId + n, number: String(firstId + n), date_created_gmt: at });
  }
}

describe('checking a WooCommerce key pair', () => {
  it('names the site from its REST index when the keys read orders', async () => {
    const { adapter, credentials, sim } = await site();
    await expect(adapter.checkCredentials(credentials())).resolves.toEqual({ shopName: 'Acme Handlooms' });
    expect(sim.requests[0]).toMatchObject({ path: '/wp-json/wc/v3/orders', query: { per_page: '1' } });
  });

  it('answers the exact bodies core sends for each refusal (the fixtures)', async () => {
    const { sim } = await site();
    const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
    const wrong = await fetch(`${sim.baseUrl}/wp-json/wc/v3/orders`, {
      headers: { authorization: basic(sim.keys.consumerKey, 'cs_wrong') },
    });
    expect([wrong.status, await wrong.json()]).toEqual([401, secretInvalid]);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm="WooCommerce API/);
    const unknown = await fetch(`${sim.baseUrl}/wp-json/wc/v3/orders`, {
      headers: { authorization: basic('ck_x', 'cs_x') },
    });
    expect([unknown.status, await unknown.json()]).toEqual([401, unknownKey]);
    const writeOnly = sim.addKey('write');
    const read = await fetch(`${sim.baseUrl}/wp-json/wc/v3/orders`, {
      headers: { authorization: basic(writeOnly.consumerKey, writeOnly.consumerSecret) },
    });
    expect([read.status, await read.json()]).toEqual([401, noReadPermission]);
    const customer = sim.addKey('read', false);
    const list = await fetch(`${sim.baseUrl}/wp-json/wc/v3/orders`, {
      headers: { authorization: basic(customer.consumerKey, customer.consumerSecret) },
    });
    expect([list.status, await list.json()]).toEqual([403, cannotView]);
    const missing = await fetch(`${sim.baseUrl}/wp-json/wc/v3/shipments`);
    expect([missing.status, await missing.json()]).toEqual([404, noRoute]);
  });

  it('refuses a wrong secret naming consumer_secret', async () => {
    const { adapter, credentials, sim } = await site();
    const error = await refusal(
      adapter.checkCredentials(credentials({ consumerKey: sim.keys.consumerKey, consumerSecret: 'cs_0000' })),
    );
    expect([error.kind, error.fields]).toEqual(['refused_credentials', ['consumer_secret']]);
    expect(error.message).toContain('Consumer secret is invalid.');
  });

  it('refuses an unknown key naming consumer_key, and says why a plain-HTTP site would look the same', async () => {
    const { adapter, credentials } = await site();
    const error = await refusal(
      adapter.checkCredentials(credentials({ consumerKey: 'ck_nope', consumerSecret: 'cs_nope' })),
    );
    expect([error.kind, error.fields]).toEqual(['refused_credentials', ['consumer_key']]);
    expect(error.message).toMatch(/Sorry, you cannot list resources\..*only over HTTPS/);
  });

  it('refuses a write-only key and a key whose user may not list orders, naming consumer_key', async () => {
    const { adapter, credentials, sim } = await site();
    const writeOnly = await refusal(adapter.checkCredentials(credentials(sim.addKey('write'))));
    expect([writeOnly.fields, writeOnly.message]).toEqual([
      ['consumer_key'],
      expect.stringMatching(/does not have read permissions.*Read or Read\/Write/),
    ]);
    const customer = await refusal(adapter.checkCredentials(credentials(sim.addKey('read', false))));
    expect([customer.fields, customer.message]).toEqual([
      ['consumer_key'],
      expect.stringMatching(/may not read orders/),
    ]);
  });

  it('finds the API of a plain-permalink site through ?rest_route= and keeps going there', async () => {
    const { adapter, credentials, sim } = await site({ plainPermalinks: true });
    sim.addOrder(order727);
    await expect(adapter.checkCredentials(credentials())).resolves.toEqual({ shopName: 'Acme Handlooms' });
    const page = await adapter.pullOrders(credentials(), null);
    expect(page.orders.map((order) => order.channelOrderId)).toEqual(['727']);
    expect(sim.requests.map((request) => [request.path, request.route])).toEqual([
      ['/wp-json/wc/v3/orders', null],
      ['/', '/wc/v3/orders'],
      ['/', '/'],
      ['/', '/wc/v3/orders'],
    ]);
  });

  it('connects a site that closes its REST index to visitors under its host', async () => {
    const { adapter, credentials, sim } = await site({ indexNeedsLogin: true });
    await expect(adapter.checkCredentials(credentials())).resolves.toEqual({ shopName: new URL(sim.baseUrl).host });
  });

  it('says a site failing with a 500 is unavailable, not refusing', async () => {
    const { adapter, credentials, sim } = await site();
    sim.crashNext(1);
    const error = await refusal(adapter.checkCredentials(credentials()));
    expect([error.kind, error.fields]).toEqual(['unavailable', []]);
  });

  it('refuses credentials of another platform and a cursor it never gave', async () => {
    const { adapter, credentials } = await site();
    const shopify: ChannelCredentials = {
      channel: 'shopify',
      shopDomain: 'acme.myshopify.com',
      accessToken: 'shpat_x',
      webhookSecret: 'x',
    };
    await expect(adapter.checkCredentials(shopify)).rejects.toThrow(TypeError);
    await expect(adapter.pullOrders(credentials(), 'abc')).rejects.toThrow(RangeError);
  });

  it('names site_url when its host has no address, or is one the outbound guard refuses', async () => {
    const { credentials } = await site();
    const noDns = createWooCommerceAdapter({
      http: createChannelHttp({
        rules: {
          allowHttp: true,
          allowPrivate: false,
          lookup: async (host) => {
            throw new Error(`ENOTFOUND ${host}`);
          },
        },
        timeoutMs: 5000,
      }),
    });
    const unresolved = await refusal(noDns.checkCredentials({ ...credentials(), siteUrl: 'http://shop.example.in/' }));
    expect([unresolved.kind, unresolved.fields, unresolved.message]).toEqual([
      'rejected',
      ['site_url'],
      'store URL host shop.example.in does not resolve',
    ]);
    const loopback = await refusal(noDns.checkCredentials({ ...credentials(), siteUrl: 'http://127.0.0.1:9/' }));
    expect([loopback.kind, loopback.fields]).toEqual(['rejected', ['site_url']]);
  });

  it('names site_url when neither routing has a WooCommerce API', async () => {
    const { adapter, credentials, sim } = await site();
    const error = await refusal(adapter.checkCredentials({ ...credentials(), siteUrl: `${sim.baseUrl}/blog` }));
    expect([error.kind, error.fields]).toEqual(['rejected', ['site_url']]);
  });
});

describe('pulling the orders waiting to ship', () => {
  it('pages through all of them oldest first, waiting out a 429 as Retry-After says', async () => {
    const { adapter, credentials, sim, slept } = await site();
    backlog(sim, 230);
    sim.addOrder({ ...structuredClone(order727), status: 'on-hold' });

    const first = await adapter.pullOrders(credentials(), null);
    expect([first.orders.length, first.next]).toEqual([100, '2']);
    sim.rateLimitNext(2, 3);
    const second = await adapter.pullOrders(credentials(), first.next);
    expect([second.orders.length, second.next]).toEqual([100, '3']);
    expect(slept).toEqual([3000, 3000]);
    const third = await adapter.pullOrders(credentials(), second.next);
    expect([third.orders.length, third.next]).toEqual([30, null]);

    const ids = [...first.orders, ...second.orders, ...third.orders].map((order) => Number(order.channelOrderId));
    expect(ids).toEqual(Array.from({ length: 230 }, (_, n) => 6000 + n));
    expect(third.orders[29]).toMatchObject({ paymentMethod: 'cod', codPaise: 174750, awaitingShipment: true });
    expect(sim.requests.at(-1)?.query).toEqual({
      status: 'processing',
      per_page: '100',
      page: '3',
      orderby: 'date',
      order: 'asc',
    });
  });

  it('ends at once on a site with nothing waiting', async () => {
    const { adapter, credentials } = await site();
    await expect(adapter.pullOrders(credentials(), null)).resolves.toEqual({ orders: [], unreadable: [], next: null });
  });

  it('keeps going past an order it cannot read, naming it with why', async () => {
    const { adapter, credentials, sim } = await site();
    backlog(sim, 2);
    sim.addOrder({
      ...structuredClone(indiaCod),
      id: 6100,
      number: '6100',
      total: 'a lot',
      date_created_gmt: '2026-11-01T00:00:00',
    });
    const page = await adapter.pullOrders(credentials(), null);
    expect(page.orders.map((o) => o.channelOrderId)).toEqual(['6000', '6001']);
    expect(page.unreadable).toEqual([
      {
        channelOrderId: '6100',
        channelOrderName: '6100',
        reason: expect.stringMatching(/^WooCommerce order 6100: .*total/),
      },
    ]);
  });

  it('tells the caller it is throttled when the site keeps answering 429', async () => {
    const { adapter, credentials, sim, slept } = await site();
    sim.rateLimitNext(10, 2);
    const error = await refusal(adapter.pullOrders(credentials(), null));
    expect([error.kind, error.retryAfterMs]).toEqual(['throttled', 2000]);
    expect(slept).toEqual([2000, 2000, 2000]);
  });

  it('waits two seconds on a 429 without Retry-After, and until the date one names', async () => {
    const { adapter, credentials, sim, slept } = await site();
    sim.rateLimitNext(1, null);
    await adapter.pullOrders(credentials(), null);
    sim.rateLimitNext(1, 'Wed, 25 Nov 2026 10:00:05 GMT');
    await adapter.pullOrders(credentials(), null);
    expect(slept).toEqual([2000, 5000]);
  });

  it('hands a Retry-After too long to sit through back to the caller', async () => {
    const { adapter, credentials, sim, slept } = await site();
    sim.rateLimitNext(1, 600);
    const error = await refusal(adapter.pullOrders(credentials(), null));
    expect([error.kind, error.retryAfterMs, slept]).toEqual(['throttled', 600_000, []]);
  });

  it('refuses a revoked key mid-pull as refused credentials', async () => {
    const { adapter, credentials } = await site();
    const error = await refusal(
      adapter.pullOrders(credentials({ consumerKey: 'ck_gone', consumerSecret: 'cs_gone' }), '2'),
    );
    expect(error.fields).toEqual(['consumer_key']);
  });
});

describe('reading a WooCommerce webhook', () => {
  const headers = (sim: WooCommerceSimulator, body: string, topic: string, secret = WEBHOOK_SECRET) => ({
    'x-wc-webhook-source': 'https://shop.example.in/',
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': topic.split('.')[0],
    'x-wc-webhook-event': topic.split('.')[1],
    'x-wc-webhook-signature': sim.signWebhook(body, secret),
    'x-wc-webhook-id': '12',
    'x-wc-webhook-delivery-id': 'a3f9c1d27e',
  });

  it("answers WooCommerce's unsigned creation ping as a ping", async () => {
    const { adapter, credentials } = await site();
    const ping = { rawBody: 'webhook_id=12', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expect(adapter.readWebhook(credentials(), ping)).toEqual({ kind: 'ping' });
  });

  it.each(['order.created', 'order.updated'])('reads a signed %s as the order it carries', async (topic) => {
    const { adapter, credentials, sim } = await site();
    const body = JSON.stringify(indiaCod);
    const meaning = adapter.readWebhook(credentials(), { rawBody: body, headers: headers(sim, body, topic) });
    expect(meaning).toMatchObject({
      kind: 'order',
      deliveryId: 'a3f9c1d27e',
      order: { channelOrderId: '5121', paymentMethod: 'cod', codPaise: 174750 },
    });
  });

  it('reads a signed order it cannot map as unreadable, with its id and why, not as forged', async () => {
    const { adapter, credentials, sim } = await site();
    const body = JSON.stringify({ ...indiaCod, total: 'a lot' });
    const meaning = adapter.readWebhook(credentials(), { rawBody: body, headers: headers(sim, body, 'order.updated') });
    expect(meaning).toEqual({
      kind: 'unreadable',
      deliveryId: 'a3f9c1d27e',
      order: {
        channelOrderId: '5121',
        channelOrderName: '5121',
        reason: expect.stringMatching(/^WooCommerce order 5121: .*total/),
      },
    });
  });

  it('reads a signed order.deleted as the id it names', async () => {
    const { adapter, credentials, sim } = await site();
    const body = JSON.stringify(deletedBody);
    const meaning = adapter.readWebhook(credentials(), { rawBody: body, headers: headers(sim, body, 'order.deleted') });
    expect(meaning).toEqual({ kind: 'order_deleted', deliveryId: 'a3f9c1d27e', channelOrderId: '5121' });
  });

  it('ignores a signed topic intake does not act on', async () => {
    const { adapter, credentials, sim } = await site();
    const body = JSON.stringify({ id: 93, name: 'Woo Single #1' });
    const meaning = adapter.readWebhook(credentials(), {
      rawBody: body,
      headers: headers(sim, body, 'product.updated'),
    });
    expect(meaning).toEqual({ kind: 'ignored', topic: 'product.updated' });
  });

  it('refuses a forged, a tampered, an unsigned and a ping-shaped signed-wrong delivery', async () => {
    const { adapter, credentials, sim } = await site();
    const body = JSON.stringify(indiaCod);
    const forged = headers(sim, body, 'order.created', 'not-the-secret');
    expect(adapter.readWebhook(credentials(), { rawBody: body, headers: forged })).toBeNull();
    const signed = headers(sim, body, 'order.created');
    const tampered = body.replace('"1747.50"', '"1.00"');
    expect(adapter.readWebhook(credentials(), { rawBody: tampered, headers: signed })).toBeNull();
    const { 'x-wc-webhook-signature': _, ...unsigned } = signed;
    expect(adapter.readWebhook(credentials(), { rawBody: body, headers: unsigned })).toBeNull();
    const pingForged = headers(sim, 'webhook_id=12', 'order.created', 'not-the-secret');
    expect(adapter.readWebhook(credentials(), { rawBody: 'webhook_id=12', headers: pingForged })).toBeNull();
  });

  it.each([
    ['order.deleted', '{"id":"x"}'],
    ['order.updated', '{"id":727'],
  ])('says a signed %s whose body is not an order is malformed', async (topic, body) => {
    const { adapter, credentials, sim } = await site();
    const read = () => adapter.readWebhook(credentials(), { rawBody: body, headers: headers(sim, body, topic) });
    expect(read).toThrow(expect.objectContaining({ kind: 'malformed' }));
  });
});
