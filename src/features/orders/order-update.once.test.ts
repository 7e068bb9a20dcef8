import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { ASSIGN, authed, CANCEL, FORWARD_ORDER, post } from '../../../test/kit/http.js';
import { codOrderBody, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { listIds } from '../../../test/kit/shipments.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createWarehouse, merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

const ORDER = '/custom/api/v1/order';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const put = (apiKey: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'PUT', url: ORDER, headers: { ...authed(apiKey), ...headers }, payload });

/** A pending order (no AWB) made through forward-order; returns its body and answer. */
async function pendingOrder(apiKey: string, warehouseId: string, overrides: Record<string, unknown> = {}) {
  const body = orderBody(warehouseId, overrides);
  const response = await post(ctx, apiKey, FORWARD_ORDER, body);
  expect(response.statusCode).toBe(200);
  return { body, payload: response.json().payload };
}

/** The order's rows as stored, to prove a refused update changed none of them. */
async function storedRows(orderId: string) {
  const [row] = await queryRows<Record<string, unknown>>(
    ctx.database.db,
    sql`select (select row_to_json(o) from orders o where o.id = ${orderId})::text as "order",
      (select json_agg(i order by i.position)::text from order_items i where i.order_id = ${orderId}) as items,
      (select row_to_json(s)::text from shipments s where s.order_id = ${orderId}) as shipment`,
  );
  return row;
}

/** The listing's counters (summed over each key's shards), stored and recounted from shipments: they must agree after any update. */
async function countersAgree() {
  const [row] = await queryRows<{ stored: string; recounted: string }>(
    ctx.database.db,
    sql`select
      (select coalesce(json_agg(x order by x)::text, '[]') from (
        select account_id::text || status || zone || is_cod::text || carrier_id || sum(shipments)::text as x from shipment_counts
          group by account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason having sum(shipments) <> 0
        union all select account_id::text || facet || value || sum(shipments)::text from shipment_facet_counts
          group by account_id, facet, value having sum(shipments) <> 0) t) as stored,
      (select coalesce(json_agg(x order by x)::text, '[]') from (
        select account_id::text || status || zone || is_cod::text || coalesce(carrier_id, '') || count(*)::text as x from shipments
          group by account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason
        union all select account_id::text || 'warehouse' || warehouse_id::text || count(*)::text from shipments group by account_id, warehouse_id
        union all select account_id::text || 'store' || coalesce(store_id::text, '') || count(*)::text from shipments group by account_id, store_id
        union all select s.account_id::text || 'sku' || u.v || count(*)::text from shipments s, lateral (select distinct unnest(s.skus)) u (v) group by s.account_id, u.v
        union all select s.account_id::text || 'tag' || u.v || count(*)::text from shipments s, lateral (select distinct unnest(s.tags)) u (v) group by s.account_id, u.v) t) as recounted`,
  );
  expect(row!.stored).toEqual(row!.recounted);
}

const KOCHI = {
  billing_address: '4 Marine Drive',
  billing_city: 'Ernakulam',
  billing_pincode: '682001',
  billing_state: 'Kerala',
};

describe('PUT /order before an AWB exists', () => {
  it('replaces the order and prices the pending shipment again, as forward-order would have', async () => {
    const m = await merchant(ctx);
    const { body, payload: created } = await pendingOrder(m.apiKey, m.warehouseId);
    expect(created.zone).toBe('zone_c');
    const changed = {
      ...body,
      ...KOCHI,
      billing_customer_name: 'Meera',
      billing_phone: '9988776655',
      payment_method: 'COD',
      cod_collectible: 1500,
      sub_total: 1500,
      weight: 2.25,
      length: 30,
      breadth: 20,
      height: 15,
      order_items: [{ name: 'Silk Saree', sku: 'SAREE-RED', units: 1, selling_price: 1500 }],
    };
    const response = await put(m.apiKey, changed);
    expect(response.statusCode).toBe(200);
    const updated = response.json();
    expect(updated.status).toBe(1);
    expect(updated.payload).toMatchObject({
      order_id: created.order_id,
      channel_order_id: body.order_id,
      shipment_id: created.shipment_id,
      status: 'pending',
      zone: 'zone_e',
      // Volumetric 30x20x15/5 = 1800 g is below the 2250 g dead weight.
      applied_weight: 2.25,
      cod: 1,
      awb_code: null,
      charges: null,
      awb_generated: 0,
    });

    // Booking afterwards prices the new lane and parcel.
    const assigned = await post(ctx, m.apiKey, ASSIGN, { shipment_id: created.shipment_id });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().payload).toMatchObject({ zone: 'zone_e', applied_weight: 2.25, cod: 1 });
    expect(assigned.json().payload.charges.cod_charges).toBeGreaterThan(0);
  });

  it('keeps the listing consistent: search by the new name and phone, sku[] by the new items, exact counters', async () => {
    const m = await merchant(ctx);
    const { body, payload } = await pendingOrder(m.apiKey, m.warehouseId, { tags: ['diwali'] });
    const response = await put(m.apiKey, {
      ...body,
      billing_customer_name: 'Zubin',
      billing_phone: '9812345670',
      tags: ['returning'],
      order_items: [{ name: 'Wool Shawl', sku: 'SHAWL-GREY', units: 1, selling_price: 998 }],
    });
    expect(response.statusCode).toBe(200);
    expect(await listIds(ctx, m.apiKey, { search: 'zubin' })).toEqual([payload.shipment_id]);
    expect(await listIds(ctx, m.apiKey, { search: '9812345670' })).toEqual([payload.shipment_id]);
    expect(await listIds(ctx, m.apiKey, { search: '9123456780' })).toEqual([]);
    expect(await listIds(ctx, m.apiKey, { 'sku[]': ['SHAWL-GREY'] })).toEqual([payload.shipment_id]);
    expect(await listIds(ctx, m.apiKey, { 'sku[]': ['KURTA-M-BLUE'] })).toEqual([]);
    expect(await listIds(ctx, m.apiKey, { 'tags[]': ['returning'] })).toEqual([payload.shipment_id]);
    expect(await listIds(ctx, m.apiKey, { 'tags[]': ['diwali'] })).toEqual([]);
    await countersAgree();
  });

  it('clears an optional field the body leaves out (the whole body replaces the order)', async () => {
    const m = await merchant(ctx);
    const { body, payload } = await pendingOrder(m.apiKey, m.warehouseId);
    const { billing_email: _dropped, billing_last_name: _also, ...rest } = body;
    expect((await put(m.apiKey, rest)).statusCode).toBe(200);
    const [order] = await queryRows<{ billing_email: string | null; billing_last_name: string | null }>(
      ctx.database.db,
      sql`select billing_email, billing_last_name from orders where id = ${payload.order_id}`,
    );
    expect(order).toEqual({ billing_email: null, billing_last_name: null });
  });

  it('refuses a parcel no courier can carry with 422, writing nothing', async () => {
    const m = await merchant(ctx);
    const { body, payload } = await pendingOrder(m.apiKey, m.warehouseId);
    const before = await storedRows(payload.order_id);
    const response = await expectNothingWritten(ctx.database, () => put(m.apiKey, { ...body, weight: 450 }));
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toMatch(/^No courier service can carry this shipment/);
    expect(await storedRows(payload.order_id)).toEqual(before);
  });

  it('refuses carrier_id (it belongs to forward-order-shipment) with 400', async () => {
    const m = await merchant(ctx);
    const { body } = await pendingOrder(m.apiKey, m.warehouseId);
    const response = await put(m.apiKey, { ...body, carrier_id: SHADOWFAX });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { field: 'carrier_id', message: 'carrier_id belongs to forward-order-shipment or forward-order-orchestration' },
    ]);
  });

  it('refuses an invalid body with 400 naming the field, writing nothing', async () => {
    const m = await merchant(ctx);
    const { body, payload } = await pendingOrder(m.apiKey, m.warehouseId);
    const before = await storedRows(payload.order_id);
    const response = await put(m.apiKey, { ...body, billing_phone: '12345' });
    expect(response.statusCode).toBe(400);
    expect(response.json().details[0].field).toBe('billing_phone');
    expect(await storedRows(payload.order_id)).toEqual(before);
  });
});

describe('PUT /order after an AWB exists', () => {
  it('changes the address, phone, e-mail and items, keeping the booking, its price and its AWB', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const booked = await orchestrate(ctx, m.apiKey, { ...body, carrier_id: SHADOWFAX });
    const response = await put(m.apiKey, {
      ...body,
      carrier_id: SHADOWFAX,
      billing_address: '7 Nariman Point',
      billing_phone: '9000011111',
      billing_email: 'new@example.com',
      order_items: [{ name: 'Linen Shirt', sku: 'SHIRT-L', units: 2, selling_price: 499 }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({
      awb_code: booked.awb_code,
      courier_company_id: SHADOWFAX,
      zone: booked.zone,
      applied_weight: booked.applied_weight,
      charges: booked.charges,
    });
    expect(await listIds(ctx, m.apiKey, { search: '9000011111' })).toEqual([booked.shipment_id]);
    expect(await listIds(ctx, m.apiKey, { search: booked.awb_code! })).toEqual([booked.shipment_id]);
    expect(await listIds(ctx, m.apiKey, { 'sku[]': ['SHIRT-L'] })).toEqual([booked.shipment_id]);
    await countersAgree();
  });

  const frozen: [string, Record<string, unknown>][] = [
    ['billing_pincode', { billing_pincode: '400002' }],
    ['weight', { weight: 0.75 }],
    ['length', { length: 11 }],
    ['breadth', { breadth: 12 }],
    ['height', { height: 13 }],
    ['payment_method', { payment_method: 'COD', cod_collectible: 998 }],
  ];
  it.each(frozen)('refuses a change of %s with 422 naming it, writing nothing', async (field, change) => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const booked = await orchestrate(ctx, m.apiKey, body);
    const before = await storedRows(booked.order_id);
    const response = await expectNothingWritten(ctx.database, () => put(m.apiKey, { ...body, ...change }));
    expect(response.statusCode).toBe(422);
    const message = `${field} cannot change once an AWB is assigned (it would change the price or the courier): cancel the shipment and book it again`;
    expect(response.json().details).toContainEqual({ field, message });
    expect(await storedRows(booked.order_id)).toEqual(before);
  });

  it('names every frozen field at once: shipping_pincode, cod_collectible and the warehouse', async () => {
    const m = await merchant(ctx);
    const other = await createWarehouse(ctx, m.apiKey, { name: 'Second Hub' });
    const body = codOrderBody(m.warehouseId, {
      shipping_is_billing: false,
      shipping_customer_name: 'Ravi',
      shipping_address: '1 MG Road',
      shipping_city: 'Pune',
      shipping_pincode: '411001',
      shipping_state: 'Maharashtra',
      shipping_country: 'India',
      shipping_phone: '9123456781',
    });
    const booked = await orchestrate(ctx, m.apiKey, body);
    const response = await put(m.apiKey, {
      ...body,
      warehouse_id: other,
      shipping_pincode: '411002',
      cod_collectible: 500,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual([
      'warehouse_id',
      'shipping_pincode',
      'cod_collectible',
    ]);
    // The billing address is not where the parcel goes: its pincode may change.
    const billingOnly = await put(m.apiKey, { ...body, billing_pincode: '400002' });
    expect(billingOnly.statusCode).toBe(200);
    expect(billingOnly.json().payload.awb_code).toBe(booked.awb_code);
  });

  it('refuses another carrier_id with 422; the booked one is accepted', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId, { carrier_id: SHADOWFAX });
    await orchestrate(ctx, m.apiKey, body);
    const response = await put(m.apiKey, { ...body, carrier_id: 'CARDELHSURF01' });
    expect(response.statusCode).toBe(422);
    expect(response.json().details).toEqual([
      {
        field: 'carrier_id',
        message: 'carrier_id cannot change once an AWB is assigned: cancel the shipment and book it again',
      },
    ]);
  });
});

const IN_TRANSIT =
  'The shipment is in_transit; an order can only be updated before it is picked up, and its delivery address and phone while a failed delivery waits (ndr_raised)';

describe('PUT /order refusals by state and account', () => {
  it('refuses every change after pickup with 422 naming the status', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId, { carrier_id: SHADOWFAX });
    const booked = await orchestrate(ctx, m.apiKey, body);
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    await sendEvents(ctx, token, [
      { awb: booked.awb_code!, status: 'in_transit', event_time: '2026-11-20T12:05:00+05:30' },
    ]);
    const before = await storedRows(booked.order_id);
    const response = await put(m.apiKey, { ...body, billing_phone: '9000022222' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'order_not_updatable',
      message: IN_TRANSIT,
      errors: [IN_TRANSIT],
      details: [
        {
          field: 'order_id',
          message: IN_TRANSIT,
        },
      ],
    });
    expect(await storedRows(booked.order_id)).toEqual(before);
  });

  it('refuses a cancelled order with 422 naming the status', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    const booked = await orchestrate(ctx, m.apiKey, body);
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [booked.awb_code] })).statusCode).toBe(200);
    const response = await put(m.apiKey, { ...body, billing_phone: '9000022222' });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      'The shipment is cancelled; an order can only be updated before it is picked up, and its delivery address and phone while a failed delivery waits (ndr_raised)',
    );
  });

  it("answers another account's order_id exactly as an unknown one: 404, nothing revealed or written", async () => {
    const owner = await merchant(ctx);
    const stranger = await merchant(ctx);
    const body = orderBody(owner.warehouseId);
    const booked = await orchestrate(ctx, owner.apiKey, body);
    const before = await storedRows(booked.order_id);
    const theirs = await expectNothingWritten(ctx.database, () =>
      put(stranger.apiKey, { ...body, warehouse_id: stranger.warehouseId }),
    );
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({
      code: 'order_not_found',
      message: `Order '${body.order_id}' not found`,
      errors: [`Order '${body.order_id}' not found`],
    });
    const unknown = await put(stranger.apiKey, {
      ...body,
      order_id: 'NO-SUCH-ORDER',
      warehouse_id: stranger.warehouseId,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("Order 'NO-SUCH-ORDER' not found");
    expect(await storedRows(booked.order_id)).toEqual(before);
  });

  it('replays the answer for a repeated Idempotency-Key', async () => {
    const m = await merchant(ctx);
    const { body } = await pendingOrder(m.apiKey, m.warehouseId);
    const headers = { 'idempotency-key': `upd-${body.order_id}` };
    const first = await put(m.apiKey, { ...body, billing_phone: '9000033333' }, headers);
    const again = await put(m.apiKey, { ...body, billing_phone: '9000033333' }, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });
});
