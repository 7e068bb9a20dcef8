import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, ratesWith, SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, CANCEL, post, SHIPMENTS } from '../../../test/kit/http.js';
import { boxedOrderBody, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { type Receiver, startReceiver, until } from '../../../test/webhook-receiver.js';
import { queryRows } from '../../base/db/client.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../../demo/simulators/delhivery-simulator.js';

// A multi-piece shipment's tracking (docs/tracking.md, "Multi-piece shipments"), on both engines:
// each box's AWB moves its own box, through the push route and the poller; the shipment shows
// the boxes' roll-up, with one status change (and webhook event) per move of the roll-up, and a
// box that goes its own way raises shipment.box_exception. A one-box shipment is tracked as before.

let ctx: TestContext;
let sim: DelhiverySimulator;
let apiKey: string;
let warehouseId: string;
let token: string;
let receiver: Receiver;

beforeAll(async () => {
  sim = await startDelhiverySimulator();
  receiver = await startReceiver();
  ctx = await createTestApp({
    rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }),
    settings: {
      couriers: { delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl }, timeoutMs: 5000, pollSeconds: 60 },
      // Webhooks to a receiver on this machine, retried at once.
      webhooks: { retryDelaysSeconds: [0.05], timeoutMs: 10_000 },
      outbound: { allowHttp: true, allowPrivate: true },
      workers: { pollIntervalMs: 100 },
    },
    delivery: ['webhooks'],
  });
  ({ apiKey } = await ctx.createAccount());
  warehouseId = await createWarehouse(ctx, apiKey);
  token = await issueCarrierToken(ctx, SHADOWFAX);
  const endpoint = await ctx.app.inject({
    method: 'POST',
    url: '/custom/api/v1/webhooks',
    headers: authed(apiKey),
    payload: { url: receiver.url, events: ['shipment.delivered', 'shipment.box_exception'] },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
  await receiver?.close();
});

const db = () => ctx.database.db;

/**
 * A multi-piece order booked through the API on `carrierId` (linked shipments on a push courier,
 * Delhivery's native MPS on its simulator): its shipment, master AWB and every box's AWB.
 */
async function bookInBoxes(carrierId: string) {
  const booked = await orchestrate(ctx, apiKey, boxedOrderBody(warehouseId, { carrier_id: carrierId }));
  const awbs = (booked as typeof booked & { boxes: { awb: string }[] }).boxes.map((box) => box.awb);
  expect(awbs).toHaveLength(2);
  expect(awbs[0]).toBe(booked.awb_code);
  return { shipmentId: booked.shipment_id, master: booked.awb_code!, awbs };
}

async function shipment(id: string) {
  const [row] = await queryRows<{ status: string; sub_status: string | null; delivered_at: unknown }>(
    db(),
    sql`select status, sub_status, delivered_at from shipments where id = ${id}`,
  );
  return row!;
}

const boxes = (id: string) =>
  queryRows<{ box_no: number; status: string; sub_status: string | null }>(
    db(),
    sql`select box_no, status, sub_status from shipment_boxes where shipment_id = ${id} order by box_no`,
  );

/** The shipment's events, oldest first: type, and for status changes where to. */
const events = async (id: string) =>
  (
    await queryRows<{ type: string; data: Record<string, unknown> }>(
      db(),
      sql`select type, data from events where subject_id = ${id} order by sequence`,
    )
  ).filter((e) => !['shipment.created', 'shipment.booked'].includes(e.type));

const IST = (hhmm: string) => `2026-11-20T${hhmm}:00+05:30`;

describe('a multi-piece shipment scanned by box, through the push route', () => {
  let s: Awaited<ReturnType<typeof bookInBoxes>>;
  beforeAll(async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    s = await bookInBoxes(SHADOWFAX);
    ctx.clock.set('2026-11-20T09:00:00.000Z');
  });

  it('picked up together at the same instant: both boxes kept, the shipment in transit once', async () => {
    const results = await sendEvents(ctx, token, [
      { awb: s.awbs[0]!, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
      { awb: s.awbs[1]!, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
    ]);
    expect(results).toEqual([
      { awb: s.awbs[0], accepted: true },
      { awb: s.awbs[1], accepted: true },
    ]);
    expect(await shipment(s.shipmentId)).toMatchObject({ status: 'in_transit', sub_status: 'picked_up' });
    expect(await boxes(s.shipmentId)).toEqual([
      { box_no: 1, status: 'in_transit', sub_status: 'picked_up' },
      { box_no: 2, status: 'in_transit', sub_status: 'picked_up' },
    ]);
    const raised = await events(s.shipmentId);
    expect(raised.map((e) => e.type)).toEqual([
      'shipment.tracking_added',
      'shipment.status_changed',
      'shipment.tracking_added',
    ]);
    expect(raised.map((e) => (e.data.tracking as { box_no?: number } | undefined)?.box_no)).toEqual([1, undefined, 2]);
    expect(raised[0]!.data).toMatchObject({ status: 'pending', sub_status: null });
    expect(raised[1]!.data).toMatchObject({ from: 'pending', to: 'in_transit', sub_status: 'picked_up' });
  });

  it('one box delivered, the other in transit: the box is delivered, the shipment is not', async () => {
    const results = await sendEvents(ctx, token, [
      { awb: s.awbs[1]!, status: 'out_for_delivery', event_time: IST('13:00') },
      { awb: s.awbs[1]!, status: 'delivered', event_time: IST('13:30') },
    ]);
    // Each moved the box the courier named.
    expect(results).toEqual([
      { awb: s.awbs[1], accepted: true },
      { awb: s.awbs[1], accepted: true },
    ]);
    expect(await shipment(s.shipmentId)).toEqual({ status: 'in_transit', sub_status: 'picked_up', delivered_at: null });
    expect((await boxes(s.shipmentId)).map((b) => b.status)).toEqual(['in_transit', 'delivered']);
    expect((await events(s.shipmentId)).slice(3).map((e) => e.type)).toEqual([
      'shipment.tracking_added',
      'shipment.tracking_added',
    ]);
  });

  it('every box delivered: delivered once, one shipment.delivered; a replay changes nothing', async () => {
    await sendEvents(ctx, token, [
      { awb: s.awbs[0]!, status: 'out_for_delivery', event_time: IST('14:00') },
      { awb: s.awbs[0]!, status: 'delivered', event_time: IST('14:20') },
    ]);
    const replay = await sendEvents(ctx, token, [{ awb: s.awbs[0]!, status: 'delivered', event_time: IST('14:20') }]);
    expect(replay[0]).toMatchObject({ accepted: true, duplicate: true, changed: false });
    const row = await shipment(s.shipmentId);
    expect([row.status, row.sub_status, new Date(row.delivered_at as string).toISOString()]).toEqual([
      'delivered',
      null,
      '2026-11-20T08:50:00.000Z',
    ]);
    const moves = (await events(s.shipmentId)).slice(5);
    expect(moves.map((e) => [e.type, e.data.to ?? null])).toEqual([
      ['shipment.status_changed', 'out_for_delivery'],
      ['shipment.tracking_added', null],
      ['shipment.status_changed', 'delivered'],
      ['shipment.delivered', 'delivered'],
      ['shipment.tracking_added', null],
    ]);
    const all = await events(s.shipmentId);
    expect(all.filter((e) => e.type === 'shipment.delivered')).toHaveLength(1);
    expect(all.filter((e) => e.type === 'shipment.box_exception')).toEqual([]);
    // One webhook: the events' worker delivers each event once.
    const delivered = () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as { type: string; data: { shipment: { id: string } } })
        .filter((b) => b.type === 'shipment.delivered' && b.data.shipment.id === s.shipmentId);
    await until(() => delivered().length > 0, 'the shipment.delivered webhook');
    expect(delivered()).toHaveLength(1);
  });
});

describe('a box returned alone', () => {
  let s: Awaited<ReturnType<typeof bookInBoxes>>;
  beforeAll(async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    s = await bookInBoxes(SHADOWFAX);
    ctx.clock.set('2026-11-20T12:00:00.000Z');
    await sendEvents(ctx, token, [
      { awb: s.awbs[0]!, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
      { awb: s.awbs[1]!, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:11') },
      { awb: s.awbs[0]!, status: 'delivered', event_time: IST('15:00') },
    ]);
  });

  it('raises shipment.box_exception naming the box; the shipment is others / box_exception', async () => {
    await sendEvents(ctx, token, [
      { awb: s.awbs[1]!, status: 'rto_initiated', rto_reason: 'damaged_in_transit', event_time: IST('15:30') },
    ]);
    expect(await shipment(s.shipmentId)).toMatchObject({ status: 'others', sub_status: 'box_exception' });
    const raised = (await events(s.shipmentId)).filter((e) => e.type !== 'shipment.tracking_added');
    expect(raised.map((e) => [e.type, e.data.to ?? null])).toEqual([
      ['shipment.status_changed', 'in_transit'],
      ['shipment.status_changed', 'others'],
      ['shipment.box_exception', null],
    ]);
    const { shipment: _snapshot, ...exception } = raised[2]!.data;
    const box1 = { box_no: 1, awb: s.awbs[0], status: 'delivered', sub_status: null };
    const box2 = { box_no: 2, awb: s.awbs[1], status: 'rto_initiated', sub_status: null };
    expect(exception).toEqual({
      status: 'others',
      sub_status: 'box_exception',
      exceptions: [box2],
      boxes: [box1, box2],
      event_time: '2026-11-20T10:00:00.000Z',
    });
    const hooked = () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as { type: string; data: { shipment: { id: string }; exceptions: unknown } })
        .filter((b) => b.type === 'shipment.box_exception' && b.data.shipment.id === s.shipmentId);
    await until(() => hooked().length > 0, 'the shipment.box_exception webhook');
    expect(hooked().map((b) => b.data.exceptions)).toEqual([[box2]]);
  });

  it('each batch that changes the exception box’s state raises it again, with the state it left', async () => {
    await sendEvents(ctx, token, [
      { awb: s.awbs[1]!, status: 'rto_in_transit', sub_status: 'rto_in_transit', event_time: IST('16:00') },
      { awb: s.awbs[1]!, status: 'rto_in_transit', sub_status: 'rto_reached_origin_hub', event_time: IST('16:30') },
    ]);
    let exceptions = (await events(s.shipmentId)).filter((e) => e.type === 'shipment.box_exception');
    // One batch, one event: where the batch left the box (its origin hub), not each step.
    expect(exceptions.map((e) => (e.data.exceptions as { sub_status: string }[])[0]!.sub_status)).toEqual([
      null,
      'rto_reached_origin_hub',
    ]);
    await sendEvents(ctx, token, [{ awb: s.awbs[1]!, status: 'rto_delivered', event_time: IST('17:00') }]);
    exceptions = (await events(s.shipmentId)).filter((e) => e.type === 'shipment.box_exception');
    expect(exceptions).toHaveLength(3);
    expect(exceptions[2]!.data.exceptions).toEqual([
      { box_no: 2, awb: s.awbs[1], status: 'rto_delivered', sub_status: null },
    ]);
    // Neither delivered nor back: the roll-up stays the exception, which no later status change repeats.
    expect(await shipment(s.shipmentId)).toMatchObject({ status: 'others', sub_status: 'box_exception' });
    expect((await events(s.shipmentId)).filter((e) => e.type === 'shipment.status_changed')).toHaveLength(2);
  });

  it('the listing shows one row with its boxes, box_count and the roll-up', async () => {
    const response = await post(ctx, apiKey, SHIPMENTS, { search: s.master });
    expect(response.statusCode).toBe(200);
    const [row] = response.json().data as { attributes: Record<string, unknown> }[];
    expect(row!.attributes).toMatchObject({
      tracking_number: s.master,
      status: 'others',
      sub_status: 'box_exception',
      granular_status: 'need_attention',
      box_count: 2,
      boxes: [
        { box_no: 1, awb: s.awbs[0], status: 'delivered', sub_status: null, status_at: '2026-11-20T09:30:00.000Z' },
        { box_no: 2, awb: s.awbs[1], status: 'rto_delivered', sub_status: null, status_at: '2026-11-20T11:30:00.000Z' },
      ],
    });
  });
});

describe('the merchant’s own events on a multi-piece shipment', () => {
  it('a cancellation before pickup is every box’s: the shipment cancelled once, no exception', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const s = await bookInBoxes(SHADOWFAX);
    const response = await post(ctx, apiKey, CANCEL, { awbs: [s.master] });
    expect(response.statusCode, response.body).toBe(200);
    expect((await shipment(s.shipmentId)).status).toBe('cancelled');
    expect((await boxes(s.shipmentId)).map((b) => b.status)).toEqual(['cancelled', 'cancelled']);
    expect((await events(s.shipmentId)).map((e) => [e.type, e.data.to ?? null])).toEqual([
      ['shipment.status_changed', 'cancelled'],
      ['shipment.cancelled', 'cancelled'],
    ]);
  });
});

describe('a shipment in one box', () => {
  it('is tracked as before: no box, no box_no on its scans, box_count 1', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    ctx.clock.set('2026-11-20T12:00:00.000Z');
    const results = await sendEvents(ctx, token, [
      { awb: booked.awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: IST('12:10') },
      { awb: booked.awb_code!, status: 'delivered', event_time: IST('15:00') },
    ]);
    expect(results).toEqual([
      { awb: booked.awb_code, accepted: true },
      { awb: booked.awb_code, accepted: true },
    ]);
    expect(await shipment(booked.shipment_id)).toMatchObject({ status: 'delivered', sub_status: null });
    expect(await boxes(booked.shipment_id)).toEqual([]);
    const raised = await events(booked.shipment_id);
    expect(raised.map((e) => e.type)).toEqual([
      'shipment.status_changed',
      'shipment.tracking_added',
      'shipment.status_changed',
      'shipment.delivered',
      'shipment.tracking_added',
    ]);
    expect(raised[1]!.data.tracking).toEqual({
      id: expect.any(String),
      status: 'in_transit',
      sub_status: 'picked_up',
      event_time: '2026-11-20T06:40:00.000Z',
      location: null,
      description: null,
    });
    const [{ n }] = (await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from tracking_events where shipment_id = ${booked.shipment_id} and box_no = 0`,
    )) as [{ n: number }];
    expect(Number(n)).toBe(2);
    const response = await post(ctx, apiKey, SHIPMENTS, { search: booked.awb_code });
    expect(response.json().data[0].attributes).toMatchObject({ box_count: 1, boxes: null });
  });
});

describe('a multi-piece shipment asked about by the poller', () => {
  it('asks for every box’s AWB with the master’s, and each box’s scans move that box', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const s = await bookInBoxes(DELHIVERY_SURFACE);
    sim.scan(s.awbs[1]!, {
      ScanType: 'UD',
      Scan: 'In Transit',
      StatusCode: 'X-PPOM',
      ScanDateTime: '2026-11-20T12:05:00',
    });
    ctx.clock.set('2026-11-20T07:00:00.000Z');
    const from = sim.callsTo('/api/v1/packages/json').length;
    await ctx.app.courierPoller.runOnce();
    const asked = sim
      .callsTo('/api/v1/packages/json')
      .slice(from)
      .map((r) => r.query.get('waybill'));
    expect(asked).toEqual([`${s.master},${s.awbs[1]}`]);
    // Box 2 picked up, box 1 not yet: the shipment waits for its last box.
    expect((await boxes(s.shipmentId)).map((b) => b.status)).toEqual(['pending', 'in_transit']);
    expect((await shipment(s.shipmentId)).status).toBe('pending');

    sim.scan(s.master, {
      ScanType: 'UD',
      Scan: 'In Transit',
      StatusCode: 'X-PPOM',
      ScanDateTime: '2026-11-20T12:20:00',
    });
    ctx.clock.advance(10 * 60_000);
    await queryRows(db(), sql`update courier_polls set next_poll_at = ${ctx.clock.now().toISOString()}::timestamptz`);
    await ctx.app.courierPoller.runOnce();
    expect((await boxes(s.shipmentId)).map((b) => b.status)).toEqual(['in_transit', 'in_transit']);
    expect((await shipment(s.shipmentId)).status).toBe('in_transit');
    const [{ n }] = (await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from courier_polls where subject_id = ${s.shipmentId}`,
    )) as [{ n: number }];
    expect(Number(n)).toBe(1);
  });
});
