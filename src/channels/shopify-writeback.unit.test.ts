import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SIM_SHOPIFY_TOKEN,
  type ShopifySimulator,
  type SimShopifyOrder,
  startShopifySimulator,
} from '../demo/simulators/shopify-simulator.js';
import { ChannelCallError, type ChannelCredentials, type Fulfilment, type TrackingUpdate } from './channel-adapter.js';
import { createChannelHttp } from './channel-http.js';
import { createShopifyAdapter } from './shopify.adapter.js';

const http = createChannelHttp({ rules: { allowHttp: true, allowPrivate: true }, timeoutMs: 5000 });
const page = JSON.parse(readFileSync(new URL('./fixtures/shopify/graphql-orders-page.json', import.meta.url), 'utf8'));

let sim: ShopifySimulator;
let waits: number[];
const creds = (accessToken = SIM_SHOPIFY_TOKEN): ChannelCredentials => ({
  channel: 'shopify',
  shopDomain: 'dakiya-test.myshopify.com',
  accessToken,
  webhookSecret: 'shpss_unused',
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

const ORDER_ID = '6100000001';
const ORDER_GID = `gid://shopify/Order/${ORDER_ID}`;
function addOrder(id = ORDER_ID) {
  const node = structuredClone(page.data.orders.edges[0].node);
  const order: SimShopifyOrder = {
    ...node,
    id: `gid://shopify/Order/${id}`,
    legacyResourceId: id,
    lineItems: node.lineItems.edges.map((e: { node: unknown }) => e.node),
  };
  sim.addOrder(order);
}
const shipped = (over: Partial<Fulfilment> = {}): Fulfilment => ({
  channelOrderId: ORDER_ID,
  awb: '1234567890123',
  courierName: 'Delhivery',
  trackingUrl: 'https://track.acme.in/1234567890123',
  notifyCustomer: false,
  shippedAt: new Date('2025-01-15T10:00:00Z'),
  ...over,
});

beforeEach(async () => {
  sim = await startShopifySimulator();
  waits = [];
  addOrder();
});
afterEach(() => sim.close());

describe('Shopify write-back against the simulator', () => {
  it('writes the fulfilment with the exact tracking and closes the fulfillment order', async () => {
    const { reference } = await adapter().writeFulfilment(creds(), shipped({ notifyCustomer: true }));
    expect(reference).toMatch(/^gid:\/\/shopify\/Fulfillment\/\d+$/);
    const [made, ...others] = sim.fulfillmentsOf(ORDER_GID);
    expect(others).toEqual([]);
    expect(made).toMatchObject({
      id: reference,
      status: 'SUCCESS',
      notifyCustomer: true,
      trackingInfo: [{ company: 'Delhivery', number: '1234567890123', url: 'https://track.acme.in/1234567890123' }],
    });
    expect(sim.fulfillmentOrdersOf(ORDER_GID).map((fo) => fo.status)).toEqual(['CLOSED']);
    expect(sim.requests.map((r) => r.rootField)).toEqual(['order', 'fulfillmentCreate']);
    expect(sim.requests[1]?.variables).toMatchObject({
      f: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: sim.fulfillmentOrdersOf(ORDER_GID)[0]?.id }] },
    });
  });

  it('notifyCustomer false is sent as false', async () => {
    await adapter().writeFulfilment(creds(), shipped());
    expect(sim.fulfillmentsOf(ORDER_GID)[0]?.notifyCustomer).toBe(false);
    expect(sim.requests[1]?.variables).toMatchObject({ f: { notifyCustomer: false } });
  });

  it('repeating the fulfilment answers the same id and makes no second one', async () => {
    const first = await adapter().writeFulfilment(creds(), shipped());
    const again = await adapter().writeFulfilment(creds(), shipped());
    expect(again).toEqual(first);
    expect(sim.fulfillmentsOf(ORDER_GID)).toHaveLength(1);
    expect(sim.requests.filter((r) => r.rootField === 'fulfillmentCreate')).toHaveLength(1);
  });

  it('a fulfilled order with another AWB has nothing left to fulfil', async () => {
    await adapter().writeFulfilment(creds(), shipped());
    await expect(adapter().writeFulfilment(creds(), shipped({ awb: '999' }))).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('nothing left to fulfil'),
    });
  });

  it('an order Shopify does not have is rejected', async () => {
    await expect(adapter().writeFulfilment(creds(), shipped({ channelOrderId: '42' }))).rejects.toMatchObject({
      kind: 'rejected',
      message: 'Shopify has no order 42',
    });
  });

  it('userErrors are rejected with Shopify message', async () => {
    // Between the read and the create the fulfillment order went on hold (the merchant, another app).
    const real = http;
    const racing = createShopifyAdapter({
      apiVersion: '2025-01',
      baseUrl: sim.baseUrl,
      http: async (request) => {
        if (JSON.stringify(request.json).includes('fulfillmentCreate'))
          for (const fo of sim.fulfillmentOrdersOf(ORDER_GID)) fo.status = 'ON_HOLD';
        return real(request);
      },
    });
    const error = await racing.writeFulfilment(creds(), shipped()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChannelCallError);
    expect(error).toMatchObject({ kind: 'rejected' });
    expect((error as Error).message).toContain('Fulfillment order is not in a fulfillable state.');
    expect(sim.fulfillmentsOf(ORDER_GID)).toEqual([]);
  });

  it('update replaces the tracking', async () => {
    const { reference } = await adapter().writeFulfilment(creds(), shipped());
    const rebooked = shipped({
      awb: 'BD77001',
      courierName: 'Blue Dart',
      trackingUrl: 'https://track.acme.in/BD77001',
    });
    await expect(adapter().updateFulfilment(creds(), reference, rebooked)).resolves.toEqual({ reference });
    expect(sim.fulfillmentsOf(ORDER_GID)).toHaveLength(1);
    expect(sim.fulfillmentsOf(ORDER_GID)[0]?.trackingInfo).toEqual([
      { company: 'Blue Dart', number: 'BD77001', url: 'https://track.acme.in/BD77001' },
    ]);
    expect(sim.requests.at(-1)?.variables).toMatchObject({ id: reference, n: false });
    // The new AWB is what a retried write now recognises.
    await expect(adapter().writeFulfilment(creds(), rebooked)).resolves.toEqual({ reference });
  });

  it('updating an unknown fulfilment is rejected', async () => {
    await expect(adapter().updateFulfilment(creds(), 'gid://shopify/Fulfillment/1', shipped())).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('Fulfillment does not exist.'),
    });
  });

  it.each([
    ['in_transit', 'IN_TRANSIT', 'Pune'],
    ['out_for_delivery', 'OUT_FOR_DELIVERY', 'Bengaluru'],
    ['attempted_delivery', 'ATTEMPTED_DELIVERY', null],
    ['delivered', 'DELIVERED', 'Mumbai'],
    ['failure', 'FAILURE', 'Delhi'],
  ] as const)('tracking status %s is told as %s', async (status, shopifyStatus, city) => {
    const { reference } = await adapter().writeFulfilment(creds(), shipped());
    const update: TrackingUpdate = {
      status,
      message: 'Consignee unavailable',
      happenedAt: new Date('2025-01-16T08:00:00Z'),
      city,
    };
    await adapter().writeTrackingUpdate(creds(), reference, ORDER_ID, update);
    const [event, ...more] = sim.eventsOf(reference);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      fulfillmentId: reference,
      status: shopifyStatus,
      message: 'Consignee unavailable',
      happenedAt: '2025-01-16T08:00:00.000Z',
    });
    if (city) expect(event?.city).toBe(city);
    else expect(event).not.toHaveProperty('city');
  });

  it('a scan for an unknown fulfilment is rejected', async () => {
    const update: TrackingUpdate = { status: 'delivered', message: 'Delivered', happenedAt: new Date(), city: null };
    await expect(
      adapter().writeTrackingUpdate(creds(), 'gid://shopify/Fulfillment/1', ORDER_ID, update),
    ).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('cancels, reopens the order for shipping, and cancelling twice is fine', async () => {
    const { reference } = await adapter().writeFulfilment(creds(), shipped());
    await adapter().cancelFulfilment(creds(), reference, ORDER_ID);
    expect(sim.fulfillmentsOf(ORDER_GID)[0]?.status).toBe('CANCELLED');
    expect(sim.fulfillmentOrdersOf(ORDER_GID)[0]?.status).toBe('OPEN');
    await expect(adapter().cancelFulfilment(creds(), reference, ORDER_ID)).resolves.toBeUndefined();
    expect(sim.requests.slice(-2).map((r) => r.rootField)).toEqual(['fulfillmentCancel', 'fulfillment']);
    // The same AWB after a cancellation is a new fulfilment, not the cancelled one.
    const again = await adapter().writeFulfilment(creds(), shipped());
    expect(again.reference).not.toBe(reference);
    expect(sim.fulfillmentsOf(ORDER_GID).map((f) => f.status)).toEqual(['CANCELLED', 'SUCCESS']);
  });

  it('cancelling an unknown fulfilment is rejected', async () => {
    await expect(adapter().cancelFulfilment(creds(), 'gid://shopify/Fulfillment/1', ORDER_ID)).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('Fulfillment does not exist.'),
    });
  });

  it('a throttled answer in between is waited out', async () => {
    const { reference } = await adapter().writeFulfilment(creds(), shipped());
    sim.throttleNext(1, 0);
    await adapter().cancelFulfilment(creds(), reference, ORDER_ID);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(sim.fulfillmentsOf(ORDER_GID)[0]?.status).toBe('CANCELLED');
  });

  it('a bad token is refused_credentials', async () => {
    await expect(adapter().writeFulfilment(creds('shpat_wrong'), shipped())).rejects.toMatchObject({
      kind: 'refused_credentials',
      fields: ['access_token'],
    });
    await expect(adapter().cancelFulfilment(creds('shpat_wrong'), 'gid://x', ORDER_ID)).rejects.toMatchObject({
      kind: 'refused_credentials',
    });
  });

  it('a payload missing from the answer is malformed', async () => {
    const broken = createShopifyAdapter({
      apiVersion: '2025-01',
      baseUrl: sim.baseUrl,
      http: async (request) => {
        const answer = await http(request);
        if (!JSON.stringify(request.json).includes('fulfillmentEventCreate')) return answer;
        return { ...answer, body: JSON.stringify({ data: {} }) };
      },
    });
    const update: TrackingUpdate = { status: 'delivered', message: 'Delivered', happenedAt: new Date(), city: null };
    await expect(broken.writeTrackingUpdate(creds(), 'gid://f', ORDER_ID, update)).rejects.toMatchObject({
      kind: 'malformed',
    });
  });

  it('takes an order GID as the order id, and a created fulfilment without an id is malformed', async () => {
    const noId = createShopifyAdapter({
      apiVersion: '2025-01',
      baseUrl: sim.baseUrl,
      http: async (request) => {
        const answer = await http(request);
        return { ...answer, body: answer.body.replace(/"id":"gid:\/\/shopify\/Fulfillment\/\d+",/, '') };
      },
    });
    await expect(noId.writeFulfilment(creds(), shipped({ channelOrderId: ORDER_GID }))).rejects.toMatchObject({
      kind: 'malformed',
    });
    expect(sim.requests[0]?.variables).toEqual({ id: ORDER_GID });
  });

  it('an update may ask the store to tell the buyer', async () => {
    const { reference } = await adapter().writeFulfilment(creds(), shipped());
    await adapter().updateFulfilment(creds(), reference, shipped({ notifyCustomer: true }));
    expect(sim.requests.at(-1)?.variables).toMatchObject({ n: true });
    expect(sim.fulfillmentsOf(ORDER_GID)[0]?.notifyCustomer).toBe(true);
  });

  it('refuses another channel credentials', async () => {
    const woo: ChannelCredentials = {
      channel: 'woocommerce',
      siteUrl: 'https://shop.example',
      consumerKey: 'ck',
      consumerSecret: 'cs',
      webhookSecret: 'w',
    };
    await expect(adapter().writeFulfilment(woo, shipped())).rejects.toThrow('given woocommerce');
  });
});
