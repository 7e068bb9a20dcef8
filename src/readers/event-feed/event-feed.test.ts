import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import {
  ASSIGN,
  authed,
  CANCEL,
  FORWARD_ORDER,
  ORCHESTRATE,
  post,
  SHIPMENTS,
  STORES,
  UNKNOWN_ID,
} from '../../../test/kit/http.js';
import { book, orderBodyFromFields } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse, merchantWithCityWarehouse as returnMerchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

const EVENTS = '/custom/api/v1/events';

interface Event {
  id: string;
  type: string;
  created_at: string;
  sequence: number;
  data: {
    [key: string]: unknown;
    shipment: { id: string; attributes: { status: string; tracking_number: string | null; ndr_actions: unknown[] } };
    return: { attributes: { status: string } };
  };
}

let ctx: TestContext;
let shadowfax: string;
useTestApp(async (app) => {
  ctx = app;
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
});

const get = (apiKey: string, query = '') =>
  ctx.app.inject({ method: 'GET', url: `${EVENTS}${query}`, headers: authed(apiKey) });

async function listEvents(apiKey: string, query = ''): Promise<Event[]> {
  await eventsSettled(ctx.database);
  const response = await get(apiKey, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const summary = (events: Event[]) => events.map((e) => [e.type, e.sequence]);

/** The shipment as the listing shows it, less its label link: a link is signed per read, so events leave it out. */
async function listed(apiKey: string, shipmentId: string) {
  const response = await post(ctx, apiKey, SHIPMENTS, {});
  const element = response.json().data.find((s: { id: string }) => s.id === shipmentId);
  const { label_url: _signedPerRead, ...attributes } = element.attributes;
  return { ...element, attributes };
}

async function eventCount() {
  const [row] = await queryRows<{ n: number | string }>(ctx.database.db, sql`select count(*) as n from events`);
  return Number(row!.n);
}

describe('events of a shipment', () => {
  it('booking in two steps: shipment.created then shipment.booked, each with the shipment as the listing shows it then', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const created = (await post(ctx, apiKey, FORWARD_ORDER, orderBodyFromFields(warehouseId))).json().payload;
    const atCreation = await listed(apiKey, created.shipment_id);
    ctx.clock.set('2026-11-20T06:35:00.000Z');
    const assigned = await post(ctx, apiKey, ASSIGN, { shipment_id: created.shipment_id, carrier_id: SHADOWFAX });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const awb = assigned.json().payload.awb_code;

    const events = await listEvents(apiKey);
    expect(summary(events)).toEqual([
      ['shipment.created', 1],
      ['shipment.booked', 2],
    ]);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'shipment.created',
      created_at: '2026-11-20T06:30:00.000Z',
      sequence: 1,
      data: { shipment: atCreation },
    });
    expect(events[1]!.created_at).toBe('2026-11-20T06:35:00.000Z');
    expect(events[1]!.data).toEqual({
      shipment: await listed(apiKey, created.shipment_id),
      awb,
      carrier_id: SHADOWFAX,
      courier_name: 'Shadowfax Standard',
    });
    expect(events[1]!.data.shipment.attributes.tracking_number).toBe(awb);
  });

  it('booking in one step: shipment.created and shipment.booked, written by the booking itself, each with the booked shipment as the listing shows it', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    await createStore(ctx, apiKey, { store_name: 'kurta-kart' });
    const response = await post(ctx, apiKey, ORCHESTRATE, {
      ...orderBodyFromFields(warehouseId),
      carrier_id: SHADOWFAX,
      store_name: 'kurta-kart',
    });
    expect(response.statusCode, response.body).toBe(200);
    const booked = response.json().payload;

    const events = await listEvents(apiKey);
    expect(summary(events)).toEqual([
      ['shipment.created', 1],
      ['shipment.booked', 2],
    ]);
    const shipment = await listed(apiKey, booked.shipment_id);
    expect(shipment.attributes.order.store_name).toBe('kurta-kart');
    expect(shipment.attributes.shipment_milestones).toHaveLength(4);
    expect(events.map((e) => e.created_at)).toEqual(['2026-11-20T06:30:00.000Z', '2026-11-20T06:30:00.000Z']);
    expect(events[0]!.data).toEqual({ shipment });
    expect(events[1]!.data).toEqual({
      shipment,
      awb: booked.awb_code,
      carrier_id: SHADOWFAX,
      courier_name: 'Shadowfax Standard',
    });
  });

  it('tracking, cancellation and their milestone events, in sequence; a replayed scan raises nothing', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const delivered = await book(ctx, apiKey, warehouseId);
    const cancelled = await book(ctx, apiKey, warehouseId);
    ctx.clock.set('2026-11-20T12:00:00.000Z');
    const scans = [
      {
        awb: delivered.awb_code!,
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: at(30),
        location: 'Okhla Hub',
      },
      { awb: delivered.awb_code!, status: 'out_for_delivery', event_time: at(200), location: 'Colaba' },
    ];
    await sendEvents(ctx, shadowfax, scans);
    await sendEvents(ctx, shadowfax, [
      { awb: delivered.awb_code!, status: 'delivered', event_time: at(240), location: 'Colaba' },
    ]);
    await sendEvents(ctx, shadowfax, scans);
    expect((await post(ctx, apiKey, CANCEL, { awbs: [cancelled.awb_code] })).json().results[0].cancelled).toBe(true);

    const events = await listEvents(apiKey);
    const of = (id: string) => events.filter((e) => e.data.shipment.id === id);
    // One batch of two scans is two changes, each with its own scan, and each scan is announced;
    // the replayed batch raises nothing.
    expect(summary(of(delivered.shipment_id))).toEqual([
      ['shipment.created', 1],
      ['shipment.booked', 2],
      ['shipment.status_changed', 3],
      ['shipment.tracking_added', 4],
      ['shipment.status_changed', 5],
      ['shipment.tracking_added', 6],
      ['shipment.status_changed', 7],
      ['shipment.delivered', 8],
      ['shipment.tracking_added', 9],
    ]);
    const [, , pickedUp, scanned, moved, , arrived, done] = of(delivered.shipment_id);
    expect(pickedUp!.data).toMatchObject({
      from: 'pending',
      to: 'in_transit',
      sub_status: 'picked_up',
      location: 'Okhla Hub',
      event_time: at(30),
    });
    const { shipment: _s, ...change } = moved!.data;
    expect(change).toEqual({
      from: 'in_transit',
      from_sub_status: 'picked_up',
      to: 'out_for_delivery',
      sub_status: null,
      location: 'Colaba',
      event_time: at(200),
      attempt_count: 0,
      ndr_reason: null,
      rto_reason: null,
    });
    const { shipment: _t, ...scan } = scanned!.data;
    expect(scan).toEqual({
      tracking: {
        id: expect.any(String),
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: at(30),
        location: 'Okhla Hub',
        description: null,
      },
      status: 'in_transit',
      sub_status: 'picked_up',
    });
    // Every event of one change carries the shipment as that change left it.
    expect(moved!.data.shipment.attributes.status).toBe('out_for_delivery');
    expect(pickedUp!.data.shipment.attributes.status).toBe('out_for_delivery');
    expect(arrived!.data).toMatchObject({
      from: 'out_for_delivery',
      to: 'delivered',
      location: 'Colaba',
      event_time: at(240),
    });
    expect(done!.data).toEqual(arrived!.data);
    expect(done!.data.shipment).toEqual(await listed(apiKey, delivered.shipment_id));

    expect(summary(of(cancelled.shipment_id))).toEqual([
      ['shipment.created', 1],
      ['shipment.booked', 2],
      ['shipment.status_changed', 3],
      ['shipment.cancelled', 4],
    ]);
    expect(of(cancelled.shipment_id)[3]!.data).toMatchObject({
      from: 'pending',
      to: 'cancelled',
      sub_status: 'cancelled_by_merchant',
    });
  });

  it('NDR raised, a reattempt requested, then RTO initiated by the merchant', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey } = await ctx.createAccount();
    const booked = await book(ctx, apiKey, await createCityWarehouse(ctx, apiKey));
    const awb = booked.awb_code!;
    ctx.clock.set('2026-11-20T10:00:00.000Z');
    await sendEvents(ctx, shadowfax, [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: at(10) },
      { awb, status: 'out_for_delivery', event_time: at(60) },
    ]);
    await sendEvents(ctx, shadowfax, [
      { awb, status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: at(90), location: 'Andheri' },
    ]);
    const reattempt = await post(ctx, apiKey, '/custom/api/v1/reattempt', { awb, comments: 'Call before coming' });
    expect(reattempt.statusCode, reattempt.body).toBe(200);
    const rto = await post(ctx, apiKey, '/custom/api/v1/initiate-rto', { awb });
    expect(rto.statusCode, rto.body).toBe(200);

    const events = (await listEvents(apiKey)).filter((e) => e.type !== 'shipment.tracking_added');
    expect(summary(events.slice(3))).toEqual([
      ['shipment.status_changed', 5],
      ['shipment.status_changed', 7],
      ['shipment.ndr_raised', 8],
      ['shipment.reattempt_requested', 10],
      ['shipment.status_changed', 11],
      ['shipment.rto_initiated', 12],
    ]);
    expect(events[2]!.data).toMatchObject({
      from: 'pending',
      to: 'in_transit',
      sub_status: 'picked_up',
      event_time: at(10),
    });
    expect(events[3]!.data).toMatchObject({ from: 'in_transit', to: 'out_for_delivery', event_time: at(60) });
    expect(events[5]!.data).toMatchObject({
      from: 'out_for_delivery',
      to: 'ndr_raised',
      sub_status: null,
      location: 'Andheri',
      event_time: at(90),
      attempt_count: 1,
      ndr_reason: 'customer_unavailable',
    });
    expect(events[6]!.data.action).toMatchObject({ id: reattempt.json().data.action_id, action: 'reattempt' });
    expect(events[6]!.data.shipment.attributes.ndr_actions).toHaveLength(1);
    expect(events[8]!.data).toMatchObject({
      from: 'ndr_raised',
      to: 'rto_initiated',
      rto_reason: 'merchant_requested',
    });
  });
});

describe('events of stores and returns', () => {
  it('store.updated on an update and on a disconnection, naming what changed', async () => {
    const { apiKey } = await ctx.createAccount();
    const storeId = (await createStore(ctx, apiKey, { store_name: 'chai-point' })).id;
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${storeId}`,
      headers: authed(apiKey),
      payload: { brand_name: 'Chai Point' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const removed = await ctx.app.inject({ method: 'DELETE', url: `${STORES}/${storeId}`, headers: authed(apiKey) });
    expect(removed.statusCode, removed.body).toBe(200);
    const events = await listEvents(apiKey);
    expect(events.map((e) => [e.type, e.sequence, e.data.changed])).toEqual([
      ['store.updated', 1, ['brand_name']],
      ['store.updated', 2, ['status']],
    ]);
    expect(events[0]!.data.store).toEqual(updated.json().data);
    expect(events[1]!.data.store).toEqual(removed.json().data);
  });

  it('return.created and return.booked, then return.status_changed and return.cancelled on cancel-order', async () => {
    const { apiKey, warehouseId } = await returnMerchant(ctx);
    const booked = await bookReturn(ctx, apiKey, warehouseId);
    const listedReturn = (await post(ctx, apiKey, '/custom/api/v1/returns', {})).json().data[0];
    expect((await post(ctx, apiKey, CANCEL, { awbs: [booked.awb_code] })).json().results[0].cancelled).toBe(true);
    const events = await listEvents(apiKey);
    expect(summary(events)).toEqual([
      ['return.created', 1],
      ['return.booked', 2],
      ['return.status_changed', 3],
      ['return.cancelled', 4],
    ]);
    expect(events[1]!.data).toEqual({
      return: listedReturn,
      awb: booked.awb_code,
      carrier_id: booked.courier_company_id,
      courier_name: expect.any(String),
      qc_enabled: false,
    });
    expect(events[3]!.data).toMatchObject({ from: 'return_pickup_scheduled', to: 'return_cancelled', qc_status: null });
    expect(events[3]!.data.return.attributes.status).toBe('return_cancelled');
  });
});

describe('GET /events', () => {
  it('pages oldest first with after, filters by type[], and never shows another account', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { apiKey } = await ctx.createAccount();
    const other = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const shipments = [await book(ctx, apiKey, warehouseId), await book(ctx, apiKey, warehouseId)];
    await book(ctx, other.apiKey, await createCityWarehouse(ctx, other.apiKey));

    const all = await listEvents(apiKey);
    expect(all.map((e) => [e.type, e.data.shipment.id])).toEqual([
      ['shipment.created', shipments[0]!.shipment_id],
      ['shipment.booked', shipments[0]!.shipment_id],
      ['shipment.created', shipments[1]!.shipment_id],
      ['shipment.booked', shipments[1]!.shipment_id],
    ]);
    const first = await get(apiKey, '?limit=3');
    expect(first.json().meta).toEqual({ next_after: all[2]!.id, has_more: true });
    expect(first.json().data).toEqual(all.slice(0, 3));
    const rest = await get(apiKey, `?limit=3&after=${all[2]!.id}`);
    expect(rest.json()).toEqual({ data: [all[3]], meta: { next_after: all[3]!.id, has_more: false } });
    const caughtUp = await get(apiKey, `?after=${all[3]!.id}`);
    expect(caughtUp.json()).toEqual({ data: [], meta: { next_after: all[3]!.id, has_more: false } });

    expect(summary(await listEvents(apiKey, '?type[]=shipment.booked'))).toEqual([
      ['shipment.booked', 2],
      ['shipment.booked', 2],
    ]);
    expect(await listEvents(apiKey, '?type[]=shipment.booked&type[]=shipment.created')).toEqual(all);
    expect(await listEvents(apiKey, '?type=shipment.delivered')).toEqual([]);

    const others = await listEvents(other.apiKey);
    expect(others).toHaveLength(2);
    expect(others.every((e) => !all.some((mine) => mine.id === e.id))).toBe(true);
    // Another account's event id is no cursor here.
    const foreign = await get(apiKey, `?after=${others[0]!.id}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('after must be the id of one of your events');
    expect(foreign.json().code).toBe('cursor_unknown');
  });

  it('names the field of a bad query', async () => {
    const { apiKey } = await ctx.createAccount();
    const cases: [string, string][] = [
      ['?after=nope', 'after'],
      [`?after=${UNKNOWN_ID}`, 'after'],
      ['?type[]=shipment.teleported', 'type[]'],
      ['?type=parcel', 'type'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?cursor=1', 'cursor'],
    ];
    for (const [query, field] of cases) {
      const response = await get(apiKey, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(field);
    }
    expect((await ctx.app.inject({ method: 'GET', url: EVENTS })).statusCode).toBe(401);
  });

  it('a refused change writes no event: no event without its change', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const body = orderBodyFromFields(warehouseId);
    expect((await post(ctx, apiKey, FORWARD_ORDER, body)).statusCode).toBe(200);
    const before = await eventCount();
    const duplicate = await post(ctx, apiKey, FORWARD_ORDER, body);
    expect(duplicate.statusCode).toBe(422);
    const wrongCourier = await post(ctx, apiKey, '/custom/api/v1/forward-order-orchestration', {
      ...orderBodyFromFields(warehouseId),
      carrier_id: 'CARNOSUCHONE1',
    });
    expect(wrongCourier.statusCode).toBe(422);
    expect(await eventCount()).toBe(before);
  });
});
