import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, TEST_SECRETS_KEY, type TestContext } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { CANCEL, post } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { openSecretBox } from '../../base/db/sealing.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { ChannelCredentials } from '../../channels/channel-adapter.js';
import { sealCredentials } from '../../channels/channel-credentials.js';
import { createChannelAdapters } from '../../channels/channel-registry.js';
import indiaCod from '../../channels/fixtures/woocommerce/order-india-cod.json' with { type: 'json' };
import {
  SIM_SHOPIFY_TOKEN,
  type ShopifySimulator,
  startShopifySimulator,
} from '../../demo/simulators/shopify-simulator.js';
import { startWooCommerceSimulator, type WooCommerceSimulator } from '../../demo/simulators/woocommerce-simulator.js';
import type { WorkerTask } from '../../events/worker.js';
import { defaultSettings } from '../../settings.js';
import { dueCandidates } from './channel-writeback.repository.js';
import { channelWritebackTasks, PER_CHANNEL } from './channel-writeback.worker.js';

// The write-back driven by hand: jobs planned from the log and sent in rounds the test runs, on the
// test clock (a retry is due once the clock passes its delay), against the stores' simulators.

const DELAYS = [10, 60];
const page = JSON.parse(
  readFileSync(new URL('../../channels/fixtures/shopify/graphql-orders-page.json', import.meta.url), 'utf8'),
);

let ctx: TestContext;
let shopify: ShopifySimulator;
let woo: WooCommerceSimulator;
let wooTracking: WooCommerceSimulator;
let box: SecretBox;
let tasks: WorkerTask[];
let carrierToken: string;
const errors: unknown[] = [];

beforeAll(async () => {
  shopify = await startShopifySimulator();
  woo = await startWooCommerceSimulator();
  wooTracking = await startWooCommerceSimulator({ shipmentTracking: 'official' });
  ctx = await createTestApp();
  box = (await openSecretBox(ctx.database.db, { secretsKey: TEST_SECRETS_KEY, dataDir: undefined }, () => {})).box;
  const settings = defaultSettings();
  tasks = channelWritebackTasks({
    db: ctx.database.db,
    clock: ctx.clock,
    adapters: createChannelAdapters(
      { ...settings.channels, shopifyBaseUrl: shopify.baseUrl },
      { allowHttp: true, allowPrivate: true },
    ),
    secretBox: box,
    retryDelaysSeconds: DELAYS,
    callTimeoutMs: 5000,
    leaseMarginMs: 1000,
    onError: (error) => errors.push(error),
    random: () => 0.5,
  });
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([shopify.close(), woo.close(), wooTracking.close()]);
});

/** Runs the planner and the sender until nothing is left that is due now. */
async function rounds(count = 6) {
  await eventsSettled(ctx.database);
  const signal = new AbortController().signal;
  for (let i = 0; i < count; i++)
    for (const task of tasks) {
      await task.run(signal);
      await task.settled?.();
    }
  expect(errors).toEqual([]);
}

let orderCounter = 0;
interface Linked {
  apiKey: string;
  accountId: string;
  warehouseId: string;
  channelId: string;
  shipmentId: string;
  awb: string;
  channelOrderId: string;
}

/** An account whose store is connected to `credentials`, with a booked shipment of the store order `channelOrderId`. */
async function linkedShipment(
  credentials: ChannelCredentials,
  channelOrderId: string,
  notifyCustomer: boolean,
  /** Another order of an account and channel made before. */
  same?: Linked,
) {
  const m = same ? { id: same.accountId, apiKey: same.apiKey, warehouseId: same.warehouseId } : await merchant(ctx);
  const now = ctx.clock.now().toISOString();
  const channel = same
    ? { id: same.channelId }
    : (
        await queryRows<{ id: string }>(
          ctx.database.db,
          sql`insert into sales_channels (account_id, store_id, channel, address, shop_name, warehouse_id, sealed, on_import,
              notify_customer, length_cm, breadth_cm, height_cm, status, created_at, updated_at)
            values (${m.id}, ${(await createStore(ctx, m.apiKey, { store_name: `shop-${++orderCounter}` })).id},
              ${credentials.channel}, ${`store-${orderCounter}`}, 'Shop', ${m.warehouseId},
              ${sealCredentials(box, credentials)}, 'queue', ${notifyCustomer}, 10, 10, 10, 'connected', ${now}, ${now})
            returning id`,
        )
      )[0];
  const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { carrier_id: SHADOWFAX }));
  await queryRows(
    ctx.database.db,
    sql`insert into channel_orders (account_id, sales_channel_id, channel_order_id, channel_order_name, payload, cancelled,
        state, order_id, shipment_id, first_seen_at, updated_at)
      select ${m.id}, ${channel!.id}, ${channelOrderId}, ${`#${channelOrderId}`}, '{}'::jsonb, false, 'imported',
        s.order_id, s.id, ${now}, ${now} from shipments s where s.id = ${booked.shipment_id}`,
  );
  return {
    apiKey: m.apiKey,
    accountId: m.id,
    warehouseId: m.warehouseId,
    channelId: channel!.id,
    shipmentId: booked.shipment_id,
    awb: booked.awb_code!,
    channelOrderId,
  } satisfies Linked;
}

async function scan(awb: string, ...steps: Record<string, string>[]) {
  for (const [i, step] of steps.entries()) {
    const [result] = await sendEvents(ctx, carrierToken, [
      { awb, event_time: at(i + 1), status: step.status!, ...step },
    ]);
    expect(result, JSON.stringify(step)).toMatchObject({ accepted: true });
  }
}

const jobsOf = (shipmentId: string) =>
  queryRows<{ kind: string; status: string; attempts: number; last_error: string | null }>(
    ctx.database.db,
    sql`select w.kind, w.status, w.attempts, w.last_error from channel_writebacks w join events e on e.id = w.event_id
      where w.shipment_id = ${shipmentId} order by e.sequence`,
  );
const ledgerOf = async (shipmentId: string) =>
  (
    await queryRows<{ fulfilment_reference: string | null; fulfilled_awb: string | null }>(
      ctx.database.db,
      sql`select fulfilment_reference, fulfilled_awb from channel_orders where shipment_id = ${shipmentId}`,
    )
  )[0];
const channelHealth = async (id: string) =>
  (
    await queryRows<{ last_error: string | null; last_error_at: string | null; status: string }>(
      ctx.database.db,
      sql`select last_error, last_error_at::text, status from sales_channels where id = ${id}`,
    )
  )[0];
const trackUrlOf = async (shipmentId: string) =>
  `${PUBLIC_BASE_URL}/t/${(await queryRows<{ t: string }>(ctx.database.db, sql`select track_token as t from shipments where id = ${shipmentId}`))[0]!.t}`;
const courierNameOf = async (shipmentId: string) =>
  (
    await queryRows<{ name: string }>(
      ctx.database.db,
      sql`select data->>'courier_name' as name from events where subject_id = ${shipmentId} and type = 'shipment.booked'`,
    )
  )[0]!.name;

let shopifyOrders = 0;
function addShopifyOrder(): string {
  const id = String(6100000000 + ++shopifyOrders);
  const node = structuredClone(page.data.orders.edges[0].node);
  shopify.addOrder({
    ...node,
    id: `gid://shopify/Order/${id}`,
    legacyResourceId: id,
    lineItems: node.lineItems.edges.map((e: { node: unknown }) => e.node),
  });
  return id;
}
const shopifyCredentials: ChannelCredentials = {
  channel: 'shopify',
  shopDomain: 'dakiya-test.myshopify.com',
  accessToken: SIM_SHOPIFY_TOKEN,
  webhookSecret: 'shpss_unused',
};

let wooOrders = 7000;
function addWooOrder(sim: WooCommerceSimulator): number {
  const id = ++wooOrders;
  sim.addOrder({ ...structuredClone(indiaCod), id, status: 'processing' });
  return id;
}
const wooCredentials = (sim: WooCommerceSimulator): ChannelCredentials => ({
  channel: 'woocommerce',
  siteUrl: `${sim.baseUrl}/`,
  ...sim.keys,
  webhookSecret: 'unused',
});

describe('Shopify write-back', () => {
  it('writes the fulfilment with the AWB, tracking page and courier, then the scans as fulfilment events', async () => {
    const orderId = addShopifyOrder();
    const s = await linkedShipment(shopifyCredentials, orderId, true);
    await rounds();
    const gid = `gid://shopify/Order/${orderId}`;
    const [fulfilment, ...more] = shopify.fulfillmentsOf(gid);
    expect(more).toEqual([]);
    expect(await courierNameOf(s.shipmentId)).toBe('Shadowfax Standard');
    expect(fulfilment).toMatchObject({
      status: 'SUCCESS',
      notifyCustomer: true,
      trackingInfo: [{ number: s.awb, url: await trackUrlOf(s.shipmentId), company: 'Shadowfax Standard' }],
    });
    expect(await ledgerOf(s.shipmentId)).toEqual({ fulfilment_reference: fulfilment!.id, fulfilled_awb: s.awb });

    await scan(
      s.awb,
      { status: 'in_transit', sub_status: 'picked_up', location: 'Delhi' },
      { status: 'in_transit', sub_status: 'reached_destination_hub', location: 'Mumbai' },
      { status: 'out_for_delivery', location: 'Mumbai' },
      { status: 'ndr_raised', ndr_reason: 'customer_unavailable', location: 'Mumbai' },
      { status: 'out_for_delivery', location: 'Mumbai' },
      { status: 'delivered', location: 'Mumbai' },
    );
    await rounds();
    const events = shopify.eventsOf(fulfilment!.id).map((e) => [e.status, e.message, e.happenedAt]);
    // The second in_transit scan moved only the sub-status: the store is told of status moves.
    expect(events).toEqual([
      ['IN_TRANSIT', 'In transit', at(1)],
      ['OUT_FOR_DELIVERY', 'Out for delivery', at(3)],
      ['ATTEMPTED_DELIVERY', 'Delivery attempted: customer unavailable', at(4)],
      ['OUT_FOR_DELIVERY', 'Out for delivery', at(5)],
      ['DELIVERED', 'Delivered', at(6)],
    ]);
    expect(shopify.eventsOf(fulfilment!.id)[0]).toMatchObject({ city: 'Delhi' });
    expect((await jobsOf(s.shipmentId)).map((j) => [j.kind, j.status, j.attempts])).toEqual([
      ['fulfil', 'done', 1],
      ['track', 'done', 1],
      ['track', 'done', 1],
      ['track', 'done', 1],
      ['track', 'done', 1],
      ['track', 'done', 1],
    ]);
  });

  it('sends notifyCustomer false when the channel says so, and an RTO as a failure', async () => {
    const orderId = addShopifyOrder();
    const s = await linkedShipment(shopifyCredentials, orderId, false);
    await scan(
      s.awb,
      { status: 'in_transit' },
      { status: 'ndr_raised', ndr_reason: 'customer_unavailable' },
      { status: 'rto_initiated', rto_reason: 'customer_refused' },
    );
    await rounds();
    const [fulfilment] = shopify.fulfillmentsOf(`gid://shopify/Order/${orderId}`);
    expect(fulfilment?.notifyCustomer).toBe(false);
    expect(shopify.eventsOf(fulfilment!.id).map((e) => [e.status, e.message])).toEqual([
      ['IN_TRANSIT', 'In transit'],
      ['ATTEMPTED_DELIVERY', 'Delivery attempted: customer unavailable'],
      ['FAILURE', 'Returning to the sender: customer refused'],
    ]);
  });

  it('cancels the fulfilment when the shipment is cancelled', async () => {
    const orderId = addShopifyOrder();
    const s = await linkedShipment(shopifyCredentials, orderId, false);
    await rounds();
    const cancelled = await post(ctx, s.apiKey, CANCEL, { awbs: [s.awb] });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await rounds();
    const gid = `gid://shopify/Order/${orderId}`;
    expect(shopify.fulfillmentsOf(gid).map((f) => f.status)).toEqual(['CANCELLED']);
    expect(shopify.fulfillmentOrdersOf(gid).map((fo) => fo.status)).toEqual(['OPEN']);
    expect(await ledgerOf(s.shipmentId)).toEqual({ fulfilment_reference: null, fulfilled_awb: null });
    expect((await jobsOf(s.shipmentId)).map((j) => [j.kind, j.status])).toEqual([
      ['fulfil', 'done'],
      ['cancel', 'done'],
    ]);
  });

  it('waits the longest delay on refused credentials, holds the scan behind the fulfilment, and never writes twice', async () => {
    const orderId = addShopifyOrder();
    const s = await linkedShipment(shopifyCredentials, orderId, false);
    await scan(s.awb, { status: 'in_transit' });
    // The merchant rotated the app's token in Shopify: the store refuses the one Dakiya holds.
    await queryRows(
      ctx.database.db,
      sql`update sales_channels set sealed = ${sealCredentials(box, { ...shopifyCredentials, accessToken: 'shpat_wrong' })} where id = ${s.channelId}`,
    );
    await rounds();
    const gid = `gid://shopify/Order/${orderId}`;
    expect(shopify.fulfillmentsOf(gid)).toEqual([]);
    expect(await jobsOf(s.shipmentId)).toEqual([
      { kind: 'fulfil', status: 'pending', attempts: 1, last_error: expect.stringMatching(/^refused_credentials: /) },
      // The scan waits behind the fulfilment it belongs to.
      { kind: 'track', status: 'pending', attempts: 0, last_error: null },
    ]);
    const health = await channelHealth(s.channelId);
    expect(health).toMatchObject({ status: 'connected', last_error: expect.stringMatching(/^refused_credentials: /) });
    expect(Date.parse(health!.last_error_at!)).toBe(ctx.clock.now().getTime());

    // The merchant fixes the token; the job is retried on the longest delay, not before.
    await queryRows(
      ctx.database.db,
      sql`update sales_channels set sealed = ${sealCredentials(box, shopifyCredentials)} where id = ${s.channelId}`,
    );
    ctx.clock.advance(59_000);
    await rounds();
    expect(shopify.fulfillmentsOf(gid)).toEqual([]);
    ctx.clock.advance(60_000);
    await rounds();
    const [fulfilment, ...more] = shopify.fulfillmentsOf(gid);
    expect(more).toEqual([]);
    expect(shopify.eventsOf(fulfilment!.id).map((e) => e.status)).toEqual(['IN_TRANSIT']);
    expect((await jobsOf(s.shipmentId)).map((j) => [j.kind, j.status, j.attempts])).toEqual([
      ['fulfil', 'done', 2],
      ['track', 'done', 1],
    ]);
    // The failure stays on the channel's health with its time: only the intake's sync clears it.
    expect((await channelHealth(s.channelId))?.last_error).toMatch(/^refused_credentials: /);

    // Replaying the whole log plans nothing twice and writes nothing twice.
    await queryRows(
      ctx.database.db,
      sql`update event_consumers set after_txid = '0'::xid8, after_position = 0 where name = 'channel-writeback'`,
    );
    await rounds();
    expect(shopify.fulfillmentsOf(gid)).toHaveLength(1);
    expect(await jobsOf(s.shipmentId)).toHaveLength(2);
  });
});

/** Records an event as a change of this shipment would (a re-booking under another AWB, which no route does yet). */
async function recordEvent(s: Linked, type: string, data: Record<string, unknown>) {
  await queryRows(
    ctx.database.db,
    sql`insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at)
      select ${s.accountId}, ${type}, 'shipment', ${s.shipmentId}, max(sequence) + 1, ${JSON.stringify(data)}::jsonb,
        ${ctx.clock.now().toISOString()}
      from events where account_id = ${s.accountId} and subject_id = ${s.shipmentId}`,
  );
}

describe('Shopify write-back of a new AWB', () => {
  it('updates the tracking of a re-booked parcel in place, and tells nothing of a label re-issued under the same AWB', async () => {
    const orderId = addShopifyOrder();
    const s = await linkedShipment(shopifyCredentials, orderId, false);
    await rounds();
    const gid = `gid://shopify/Order/${orderId}`;
    const [first] = shopify.fulfillmentsOf(gid);
    const url = await trackUrlOf(s.shipmentId);
    await recordEvent(s, 'shipment.label_reissued', {
      shipment: { attributes: { tracking_number: s.awb, track_url: url, carrier: { name: 'Shadowfax Standard' } } },
      label_version: 2,
      previous_version: 1,
      reason: null,
    });
    await recordEvent(s, 'shipment.booked', {
      shipment: { attributes: { tracking_number: 'BD77001', track_url: url } },
      awb: 'BD77001',
      carrier_id: 'CARBLDTAIR001',
      courier_name: 'Blue Dart Air',
    });
    await rounds();
    expect(shopify.fulfillmentsOf(gid)).toEqual([
      expect.objectContaining({
        id: first!.id,
        status: 'SUCCESS',
        trackingInfo: [{ company: 'Blue Dart Air', number: 'BD77001', url }],
      }),
    ]);
    expect(shopify.requests.at(-1)?.rootField).toBe('fulfillmentTrackingInfoUpdate');
    expect(await ledgerOf(s.shipmentId)).toEqual({ fulfilment_reference: first!.id, fulfilled_awb: 'BD77001' });
    expect((await jobsOf(s.shipmentId)).map((j) => [j.kind, j.status])).toEqual([
      ['fulfil', 'done'],
      ['update', 'done'],
    ]);
  });
});

describe('WooCommerce write-back', () => {
  it('adds a note naming the AWB, courier and link, and completes the order on delivery', async () => {
    const orderId = addWooOrder(woo);
    const s = await linkedShipment(wooCredentials(woo), String(orderId), true);
    await scan(s.awb, { status: 'in_transit' }, { status: 'out_for_delivery' });
    await rounds();
    const url = await trackUrlOf(s.shipmentId);
    const [note, ...more] = woo.notesOf(orderId);
    expect(more).toEqual([]);
    expect(note).toMatchObject({ note: `Shipped with Shadowfax Standard, AWB ${s.awb}: ${url}`, customer_note: true });
    expect(await ledgerOf(s.shipmentId)).toEqual({ fulfilment_reference: `note:${note!.id}`, fulfilled_awb: s.awb });
    expect(woo.statusOf(orderId)).toBe('processing');

    await scan(s.awb, { status: 'in_transit' }, { status: 'out_for_delivery' }, { status: 'delivered' });
    await rounds();
    expect(woo.statusOf(orderId)).toBe('completed');
    expect(woo.notesOf(orderId)).toHaveLength(1);
    expect((await jobsOf(s.shipmentId)).map((j) => [j.kind, j.status])).toEqual([
      ['fulfil', 'done'],
      ['track', 'done'],
      ['track', 'done'],
      ['track', 'done'],
    ]);
  });

  it("fills the Shipment Tracking extension's fields where the site has it", async () => {
    const orderId = addWooOrder(wooTracking);
    const s = await linkedShipment(wooCredentials(wooTracking), String(orderId), false);
    await rounds();
    const [item, ...more] = wooTracking.trackingsOf(orderId);
    expect(more).toEqual([]);
    // Booked at the test clock's 06:30Z: the 20th in India.
    expect(item).toEqual({
      tracking_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      tracking_number: s.awb,
      tracking_provider: 'Shadowfax Standard',
      tracking_link: await trackUrlOf(s.shipmentId),
      date_shipped: '2026-11-20',
    });
    expect(wooTracking.notesOf(orderId)).toEqual([]);
    expect(await ledgerOf(s.shipmentId)).toEqual({
      fulfilment_reference: `tracking:${item!.tracking_id}`,
      fulfilled_awb: s.awb,
    });
  });

  it('retries a store that is down on the schedule, then writes once; a replay after a lost answer writes nothing more', async () => {
    const orderId = addWooOrder(woo);
    const s = await linkedShipment(wooCredentials(woo), String(orderId), false);
    const failedAt = ctx.clock.now();
    woo.crashNext(100);
    await rounds();
    expect(woo.notesOf(orderId)).toEqual([]);
    const [job] = await jobsOf(s.shipmentId);
    expect(job).toEqual({
      kind: 'fulfil',
      status: 'pending',
      attempts: 1,
      last_error: expect.stringMatching(/^unavailable: /),
    });
    const health = await channelHealth(s.channelId);
    expect(health?.last_error).toBe(job!.last_error);
    expect(Date.parse(health!.last_error_at!)).toBe(failedAt.getTime());

    // Back up, but the first delay (10 s) has not passed: nothing is sent.
    woo.crashNext(0);
    ctx.clock.advance(9_000);
    await rounds();
    expect(woo.notesOf(orderId)).toEqual([]);
    ctx.clock.advance(1_000);
    await rounds();
    const [note, ...more] = woo.notesOf(orderId);
    expect(more).toEqual([]);
    expect((await jobsOf(s.shipmentId))[0]).toMatchObject({ status: 'done', attempts: 2 });

    // A crash after the store wrote it and before Dakiya recorded it: the job is sent again.
    await queryRows(
      ctx.database.db,
      sql`update channel_writebacks set status = 'pending', next_attempt_at = ${ctx.clock.now().toISOString()}, done_at = null
        where shipment_id = ${s.shipmentId}`,
    );
    await queryRows(
      ctx.database.db,
      sql`update channel_orders set fulfilment_reference = null, fulfilled_awb = null where shipment_id = ${s.shipmentId}`,
    );
    await rounds();
    expect(woo.notesOf(orderId)).toEqual([note]);
    expect(await ledgerOf(s.shipmentId)).toEqual({ fulfilment_reference: `note:${note!.id}`, fulfilled_awb: s.awb });
  });

  it('fails at once a call the store rejects, and skips the scans of a fulfilment never written', async () => {
    // The store has no such order.
    const s = await linkedShipment(wooCredentials(woo), '404404', false);
    await scan(s.awb, { status: 'in_transit' });
    await rounds();
    expect(await jobsOf(s.shipmentId)).toEqual([
      { kind: 'fulfil', status: 'failed', attempts: 1, last_error: expect.stringMatching(/^rejected: /) },
      { kind: 'track', status: 'skipped', attempts: 1, last_error: 'no fulfilment was written to the store' },
    ]);
  });
});

describe('isolation', () => {
  it("never writes another account's shipment to a store, nor a disconnected channel's", async () => {
    const orderId = addWooOrder(woo);
    const owner = await linkedShipment(wooCredentials(woo), String(orderId), false);
    await rounds();
    expect(woo.notesOf(orderId)).toHaveLength(1);
    const writes = woo.requests.length;

    // Another account's shipment, its ledger row naming this account's channel.
    const other = await merchant(ctx);
    const booked = await orchestrate(ctx, other.apiKey, orderBody(other.warehouseId, { carrier_id: SHADOWFAX }));
    const now = ctx.clock.now().toISOString();
    await queryRows(
      ctx.database.db,
      sql`insert into channel_orders (account_id, sales_channel_id, channel_order_id, channel_order_name, payload, cancelled,
          state, shipment_id, first_seen_at, updated_at)
        values (${other.id}, ${owner.channelId}, ${String(orderId + 1)}, 'x', '{}'::jsonb, false, 'imported',
          ${booked.shipment_id}, ${now}, ${now})`,
    );
    await scan(booked.awb_code!, { status: 'in_transit' });
    // This account's channel disconnected: its later scans are not told.
    await queryRows(
      ctx.database.db,
      sql`update sales_channels set status = 'disconnected', disconnected_at = ${now} where id = ${owner.channelId}`,
    );
    await scan(owner.awb, { status: 'in_transit' }, { status: 'delivered' });
    await rounds();
    expect(await jobsOf(booked.shipment_id)).toEqual([]);
    expect((await jobsOf(owner.shipmentId)).map((j) => j.kind)).toEqual(['fulfil']);
    expect(woo.requests.length).toBe(writes);
    expect(woo.statusOf(orderId)).toBe('processing');
  });
});

describe('fairness', () => {
  it("gives each store at most two sends at once, each shipment's first job only, and a store that is down slows no other", async () => {
    const busyOrders = [addWooOrder(woo), addWooOrder(woo), addWooOrder(woo)];
    const first = await linkedShipment(wooCredentials(woo), String(busyOrders[0]), false);
    const others = [
      await linkedShipment(wooCredentials(woo), String(busyOrders[1]), false, first),
      await linkedShipment(wooCredentials(woo), String(busyOrders[2]), false, first),
    ];
    await scan(first.awb, { status: 'in_transit' });
    const quietOrder = addWooOrder(wooTracking);
    const quiet = await linkedShipment(wooCredentials(wooTracking), String(quietOrder), false);
    await eventsSettled(ctx.database);
    const signal = new AbortController().signal;
    await tasks[0]!.run(signal);

    const now = ctx.clock.now();
    const candidates = await dueCandidates(ctx.database.db, now, [], PER_CHANNEL, 16);
    const ofChannel = (id: string) => candidates.filter((c) => c.salesChannelId === id).length;
    expect([ofChannel(first.channelId), ofChannel(quiet.channelId)]).toEqual([2, 1]);
    // first's scan waits behind its fulfilment: of its two jobs only the fulfilment is a candidate.
    const jobIds = await queryRows<{ id: string; kind: string }>(
      ctx.database.db,
      sql`select id, kind from channel_writebacks where shipment_id = ${first.shipmentId}`,
    );
    const track = jobIds.find((j) => j.kind === 'track')!;
    expect((await dueCandidates(ctx.database.db, now, [], 16, 16)).map((c) => c.id)).not.toContain(track.id);
    expect(await dueCandidates(ctx.database.db, now, [first.channelId], PER_CHANNEL, 16)).toEqual([
      { id: expect.any(String), salesChannelId: quiet.channelId },
    ]);

    // The busy store is down; the other store is told in the same rounds.
    woo.crashNext(1000);
    await rounds();
    woo.crashNext(0);
    expect(wooTracking.trackingsOf(quietOrder).map((t) => t.tracking_number)).toEqual([quiet.awb]);
    for (const order of busyOrders) expect(woo.notesOf(order)).toEqual([]);
    for (const s of [first, ...others])
      expect((await jobsOf(s.shipmentId))[0]).toMatchObject({ kind: 'fulfil', status: 'pending', attempts: 1 });

    ctx.clock.advance(10_000);
    await rounds();
    expect(busyOrders.map((order) => woo.notesOf(order).length)).toEqual([1, 1, 1]);
    expect((await jobsOf(first.shipmentId)).map((j) => [j.kind, j.status])).toEqual([
      ['fulfil', 'done'],
      ['track', 'done'],
    ]);
  });
});
