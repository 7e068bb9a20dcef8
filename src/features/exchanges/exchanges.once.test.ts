import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { QC_CAPABLE } from '../../../test/kit/couriers.js';
import { EXCHANGE, EXCHANGE_SETTINGS, exchange, exchangeBody } from '../../../test/kit/exchange-bodies.js';
import { post, UUID } from '../../../test/kit/http.js';
import { LABEL_URL } from '../../../test/kit/labels.js';
import { orchestrate, orderBody, ratesFor } from '../../../test/kit/orders.js';
import { returnQuotes } from '../../../test/kit/returns.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const AWB = /^[A-Z][A-Z0-9]{1,4}\d{10}$/;
const TRACK = /^https:\/\/dakiya\.test\/t\/r?[0-9a-zA-Z_-]{22,64}$/;

async function counts(accountId: string) {
  const [row] = await queryRows<{ orders: number; returns: number; exchanges: number }>(
    ctx.database.db,
    sql`select (select count(*) from orders where account_id = ${accountId})::int as orders,
      (select count(*) from returns where account_id = ${accountId})::int as returns,
      (select count(*) from exchanges where account_id = ${accountId})::int as exchanges`,
  );
  return { orders: Number(row!.orders), returns: Number(row!.returns), exchanges: Number(row!.exchanges) };
}

const put = (apiKey: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url: EXCHANGE_SETTINGS, headers: { authorization: apiKey }, payload });

describe('POST /exchange-order-orchestration', () => {
  it("books the replacement and the old item's pickup together, in Velocity's answer, charged as /rates quotes each leg", async () => {
    const m = await merchant(ctx);
    const body = exchangeBody(m.warehouseId);
    const payload = await exchange(ctx, m.apiKey, body);

    const [cheapestForward] = await ratesFor(ctx, m.apiKey, orderBody(m.warehouseId));
    const [cheapestReturn] = await returnQuotes(ctx, m.apiKey, body, true);
    expect(QC_CAPABLE).toContain(cheapestReturn!.carrier_id);
    const forwardLeg = payload.forward_shipment_details;
    const returnLeg = payload.return_shipment;
    expect(forwardLeg).toEqual({
      shipment_id: payload.shipment_id,
      awb: expect.stringMatching(AWB),
      label_url: expect.stringMatching(LABEL_URL),
      courier_name: expect.any(String),
      courier_company_id: cheapestForward!.carrier_id,
      applied_weight: 0.5,
      status: 'pending',
      track_url: expect.stringMatching(TRACK),
    });
    expect(returnLeg).toEqual({
      shipment_id: payload.return_shipment_id,
      awb: expect.stringMatching(AWB),
      label_url: expect.stringMatching(LABEL_URL),
      courier_name: expect.any(String),
      courier_company_id: cheapestReturn!.carrier_id,
      applied_weight: 0.5,
      status: 'return_pickup_scheduled',
      track_url: expect.stringMatching(TRACK),
    });
    const freight = cheapestForward!.charges.forward_freight_charges;
    const reverse = cheapestReturn!.charges;
    expect(payload).toEqual({
      pickup_location_added: 1,
      order_created: 1,
      return_created: 1,
      awb_generated: 2,
      label_generated: 2,
      pickup_generated: 2,
      manifest_generated: 0,
      order_id: expect.stringMatching(UUID),
      return_id: expect.stringMatching(UUID),
      exchange_order_id: expect.stringMatching(UUID),
      shipment_id: expect.stringMatching(UUID),
      forward_shipment_id: payload.shipment_id,
      return_shipment_id: expect.stringMatching(UUID),
      forward_awb: forwardLeg.awb,
      forward_awb_code: forwardLeg.awb,
      reverse_awb: returnLeg.awb,
      // Velocity's plain awb_code is the pickup's.
      awb_code: returnLeg.awb,
      label_url: forwardLeg.label_url,
      forward_shipment_label: forwardLeg.label_url,
      reverse_shipment_label: returnLeg.label_url,
      courier_name: returnLeg.courier_name,
      forward_courier_name: forwardLeg.courier_name,
      reverse_courier_name: returnLeg.courier_name,
      applied_weight: 0.5,
      forward_applied_weight: 0.5,
      reverse_applied_weight: 0.5,
      cod: 0,
      is_exchange: 1,
      exchange_order_details: {
        id: payload.exchange_order_id,
        unique_id: expect.stringMatching(/^EX[A-Z2-9]{10}$/),
        display_id: body.order_id,
        status: 'pending',
        order_id: body.order_id,
        return_id: payload.return_id,
        channel: 'website',
        return_reason: 'Size too small',
        release_on: 'at_once',
        replacement_held: false,
        qc_failed: false,
        created_at: '2026-11-20 12:00:00',
      },
      forward_shipment_details: forwardLeg,
      return_shipment: returnLeg,
      charges: {
        total: (freight + reverse.return_freight_charges + reverse.qc_charges).toFixed(2),
        forward: {
          forward_charges: freight.toFixed(2),
          forward_cod_charges: '0.00',
          forward_rto_charges: cheapestForward!.charges.rto_charges.toFixed(2),
        },
        reverse: {
          return_pickup_charges: reverse.return_freight_charges.toFixed(2),
          qc_charges: reverse.qc_charges.toFixed(2),
          exchange_charges: '0.00',
        },
      },
      test_mode: false,
    });
    expect(forwardLeg.awb).not.toBe(returnLeg.awb);
    expect(await counts(m.id)).toEqual({ orders: 1, returns: 1, exchanges: 1 });
    // Each leg is an ordinary booking: the replacement under the exchange's order_id, the pickup too.
    const [legs] = await queryRows<{ forward_order: string; return_order: string; reason: string }>(
      ctx.database.db,
      sql`select o.merchant_order_id as forward_order, r.merchant_order_id as return_order, e.return_reason as reason
        from exchanges e join orders o on o.id = e.forward_order_id join returns r on r.id = e.return_id
        where e.id = ${payload.exchange_order_id}`,
    );
    expect(legs).toEqual({ forward_order: body.order_id, return_order: body.order_id, reason: 'Size too small' });
  });

  it('answers a repeated order_id with the exchange already made, booking nothing more', async () => {
    const m = await merchant(ctx);
    const body = exchangeBody(m.warehouseId);
    const first = await exchange(ctx, m.apiKey, body);
    const again = await exchange(ctx, m.apiKey, { ...body, return_reason: 'Changed my mind' });
    expect(again).toEqual(first);
    expect(await counts(m.id)).toEqual({ orders: 1, returns: 1, exchanges: 1 });
    // Another account's exchange of the same order_id is its own.
    const other = await merchant(ctx);
    const theirs = await exchange(ctx, other.apiKey, exchangeBody(other.warehouseId, { order_id: body.order_id }));
    expect(theirs.exchange_order_id).not.toBe(first.exchange_order_id);
    expect(await counts(m.id)).toEqual({ orders: 1, returns: 1, exchanges: 1 });
  });

  it("with forward_order_id, names the replacement by it and the pickup by order_id (the original order's)", async () => {
    const m = await merchant(ctx);
    const original = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const body = exchangeBody(m.warehouseId, {
      order_id: original.channel_order_id,
      forward_order_id: `${original.channel_order_id}-X1`,
    });
    const payload = await exchange(ctx, m.apiKey, body);
    expect(payload.exchange_order_details).toMatchObject({
      display_id: original.channel_order_id,
      order_id: `${original.channel_order_id}-X1`,
    });
    expect(await counts(m.id)).toEqual({ orders: 2, returns: 1, exchanges: 1 });
  });

  it('refuses an order_id that is already an order, telling the merchant to send forward_order_id', async () => {
    const m = await merchant(ctx);
    const original = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const response = await post(
      ctx,
      m.apiKey,
      EXCHANGE,
      exchangeBody(m.warehouseId, { order_id: original.channel_order_id }),
    );
    expect(response.statusCode).toBe(422);
    const message = `order_id '${original.channel_order_id}' is already an order of this account: to exchange an item of that order, send the replacement's own id as forward_order_id`;
    expect(response.json()).toMatchObject({
      code: 'order_id_taken',
      message,
      details: [{ field: 'order_id', message }],
    });
    expect(await counts(m.id)).toEqual({ orders: 1, returns: 0, exchanges: 0 });
  });

  it("refuses the whole exchange when the pickup's leg is refused, naming the exchange's field, and keeps neither leg", async () => {
    const m = await merchant(ctx);
    const response = await post(
      ctx,
      m.apiKey,
      EXCHANGE,
      exchangeBody(m.warehouseId, { return_warehouse_id: '6f0c9a7d-2b14-4f6e-9c83-71a4d2e6b0f9' }),
    );
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.details).toEqual([{ field: 'return_warehouse_id', message: expect.stringContaining('6f0c9a7d') }]);
    expect(body.message).toMatch(/^The old item's pickup: /);
    expect(await counts(m.id)).toEqual({ orders: 0, returns: 0, exchanges: 0 });
  });

  it("refuses the whole exchange when the replacement's leg is refused, naming forward_warehouse_id", async () => {
    const m = await merchant(ctx);
    const response = await post(
      ctx,
      m.apiKey,
      EXCHANGE,
      exchangeBody(m.warehouseId, { forward_warehouse_id: '6f0c9a7d-2b14-4f6e-9c83-71a4d2e6b0f9' }),
    );
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.details).toEqual([{ field: 'forward_warehouse_id', message: expect.stringContaining('6f0c9a7d') }]);
    expect(body.message).toMatch(/^The replacement's booking: /);
    expect(await counts(m.id)).toEqual({ orders: 0, returns: 0, exchanges: 0 });
  });
});

describe('the exchange terms', () => {
  it('are the defaults until set; charged and held as set for exchanges booked after', async () => {
    const m = await merchant(ctx);
    const read = await ctx.app.inject({ method: 'GET', url: EXCHANGE_SETTINGS, headers: { authorization: m.apiKey } });
    expect(read.json()).toEqual({ data: { release_on: 'at_once', qc_charge: null, exchange_charge: 0 } });
    const before = await exchange(ctx, m.apiKey, exchangeBody(m.warehouseId));

    const set = await put(m.apiKey, { release_on: 'return_picked_up', qc_charge: 15, exchange_charge: 29.99 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ data: { release_on: 'return_picked_up', qc_charge: 15, exchange_charge: 29.99 } });
    const after = await exchange(ctx, m.apiKey, exchangeBody(m.warehouseId));
    expect(after.charges.reverse).toEqual({
      return_pickup_charges: before.charges.reverse.return_pickup_charges,
      qc_charges: '15.00',
      exchange_charges: '29.99',
    });
    const total = (paise: number) => (paise / 100).toFixed(2);
    const paise = (rupees: string) => Math.round(Number(rupees) * 100);
    expect(after.charges.total).toBe(
      total(paise(before.charges.total) - paise(before.charges.reverse.qc_charges) + 1500 + 2999),
    );
    expect(after.exchange_order_details).toMatchObject({
      status: 'awaiting_return',
      release_on: 'return_picked_up',
      replacement_held: true,
    });
    // The exchange booked before keeps its terms.
    const repeated = await exchange(
      ctx,
      m.apiKey,
      exchangeBody(m.warehouseId, { order_id: before.exchange_order_details.display_id }),
    );
    expect(repeated.charges).toEqual(before.charges);
    expect(repeated.exchange_order_details.release_on).toBe('at_once');
  });

  it('refuses a bad term, naming each field', async () => {
    const m = await merchant(ctx);
    const response = await put(m.apiKey, { release_on: 'whenever', qc_charge: -1 });
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['exchange_charge', 'qc_charge', 'release_on']);
  });
});
