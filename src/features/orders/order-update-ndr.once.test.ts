import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { type OrderFields, nextOrderId, orderBodyFromFields } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { list } from '../../../test/kit/shipments.js';
import { at, sendEvents, track } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { FAILED_ONCE, NOW, useNdrApp } from '../../../test/ndr.js';

// Issue 46: a real Velocity client corrects the address with PUT /order while the delivery has
// failed (ndr_raised). Accepted: the address is recorded on the order and passed to the courier as
// an address correction, the instruction a reattempt's updated_address is; what cannot change after
// pickup is refused, each field named. The courier here is a push courier reading /carrier/v1/actions.

const ORDER = '/custom/api/v1/order';
const NEW_LINES = {
  billing_address: 'Flat 3B, Sea View Apartments, 14 Marine Drive',
  billing_address_2: 'Behind Churchgate station',
};

let ctx: TestContext;
let shadowfax: string;
const { reattempt, carrierGet } = useNdrApp((app, tokens) => {
  ctx = app;
  shadowfax = tokens.shadowfax;
});

const put = (apiKey: string, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PUT', url: ORDER, headers: authed(apiKey), payload });

/** A Shadowfax shipment to Mumbai (400001) whose first delivery failed; its whole order body. */
async function failedDelivery(fields: OrderFields = {}) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  const body = orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX, orderId: nextOrderId('NDR'), ...fields });
  const booked = await post(ctx, apiKey, ORCHESTRATE, body);
  expect(booked.statusCode, booked.body).toBe(200);
  const { awb_code: awb, shipment_id: shipmentId } = booked.json().payload as { awb_code: string; shipment_id: string };
  ctx.clock.set(NOW);
  await sendEvents(
    ctx,
    shadowfax,
    FAILED_ONCE.map((e) => ({ ...e, awb })),
  );
  return { apiKey, body, awb, shipmentId, orderId: body.order_id as string };
}

/** Another failed delivery of the same parcel, the next day's attempt: its scans, and the clock after them. */
async function failsAgain(awb: string) {
  const next = (minutes: number) => new Date(ctx.clock.now().getTime() + minutes * 60_000).toISOString();
  ctx.clock.advance(24 * 60 * 60_000);
  await sendEvents(ctx, shadowfax, [
    { awb, status: 'out_for_delivery', event_time: next(-120) },
    { awb, status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: next(-60) },
  ]);
}

/** The courier's open instructions for this AWB, as it reads them. */
async function courierSees(awb: string) {
  const response = await carrierGet(shadowfax, '?limit=100');
  expect(response.statusCode).toBe(200);
  return (response.json().data as { awb: string }[]).filter((a) => a.awb === awb);
}

/** The shipment as the listing shows it: its address, status and attempts. */
async function listed(apiKey: string, shipmentId: string) {
  const { data } = await list(ctx, apiKey, {});
  return data.find((s) => s.id === shipmentId)!.attributes as unknown as {
    status: string;
    shipping_address: Record<string, string | null>;
    order: { external_id: string };
  };
}

describe('PUT /order while a failed delivery waits (ndr_raised)', () => {
  it("Velocity's whole body with a new address and phone: 200, recorded, and passed to the courier as an address correction", async () => {
    const { apiKey, body, awb, shipmentId } = await failedDelivery();
    const response = await put(apiKey, { ...body, ...NEW_LINES, billing_phone: '9876501234' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().payload).toMatchObject({ shipment_id: shipmentId, awb_code: awb, status: 'ndr_raised' });

    expect((await listed(apiKey, shipmentId)).shipping_address).toMatchObject({
      address: NEW_LINES.billing_address,
      address_2: NEW_LINES.billing_address_2,
      phone: '9876501234',
      city: 'Mumbai',
      zip: '400001',
    });
    const correction = {
      action: 'reattempt',
      requested_by: 'merchant',
      requested_at: NOW,
      acknowledged_at: null,
      courier_status: 'waiting',
      refusal: null,
      details: {
        updated_address: { address_line: NEW_LINES.billing_address, landmark: NEW_LINES.billing_address_2 },
        // Canonical, as the reattempt route stores a phone.
        updated_phone_number: '+919876501234',
        address_correction: true,
      },
    };
    expect(await courierSees(awb)).toEqual([{ id: expect.any(String), awb, ...correction }]);
    expect((await track(ctx, apiKey, awb)) as unknown as { ndr_actions: unknown[] }).toMatchObject({
      ndr_actions: [correction],
    });
  });

  it('a partial body naming only the new street address: the correction carries the address alone', async () => {
    const { apiKey, awb, orderId } = await failedDelivery();
    const response = await put(apiKey, { order_id: orderId, billing_address: NEW_LINES.billing_address });
    expect(response.statusCode, response.body).toBe(200);
    const [action] = await courierSees(awb);
    expect(action).toMatchObject({
      details: { updated_address: { address_line: NEW_LINES.billing_address }, address_correction: true },
    });
    expect((action as unknown as { details: object }).details).not.toHaveProperty('updated_phone_number');
  });

  it('a change the courier needs not hear of (the e-mail, tags) is recorded and tells the courier nothing', async () => {
    const { apiKey, awb, orderId } = await failedDelivery();
    const response = await put(apiKey, { order_id: orderId, billing_email: 'asha.menon@example.com', tags: ['vip'] });
    expect(response.statusCode, response.body).toBe(200);
    expect(await courierSees(awb)).toEqual([]);
  });

  it('refuses what cannot change after pickup, each field named in one 422, writing nothing', async () => {
    const { apiKey, body } = await failedDelivery();
    const sent = {
      ...body,
      ...NEW_LINES,
      billing_pincode: '400002',
      billing_city: 'Pune',
      billing_state: 'Karnataka',
      weight: 1.5,
      length: 20,
      breadth: 15,
      height: 12,
      payment_method: 'COD',
      order_items: [{ name: 'Silk Saree', sku: 'SAREE-RED', units: 1, selling_price: 1200 }],
      sub_total: 1200,
      cod_collectible: 1200,
    };
    const response = await expectNothingWritten(ctx.database, () => put(apiKey, sent));
    expect(response.statusCode).toBe(422);
    const area = (field: string) => ({
      field,
      message: `${field} cannot change after pickup: the parcel goes to the area it was booked for; initiate an RTO and book a new shipment to the new address`,
    });
    const parcel = (field: string) => ({
      field,
      message: `${field} cannot change after pickup: the courier carries the parcel as it was booked and picked up`,
    });
    const details = [
      area('billing_pincode'),
      area('billing_city'),
      area('billing_state'),
      parcel('weight'),
      parcel('length'),
      parcel('breadth'),
      parcel('height'),
      parcel('payment_method'),
      parcel('cod_collectible'),
      parcel('order_items'),
      parcel('sub_total'),
    ];
    expect(response.json()).toEqual({
      code: 'order_change_refused',
      message: details[0]!.message,
      errors: details.map((d) => d.message),
      details,
    });
  });

  it('refuses an address naming another pincode and a phone the courier cannot call, writing nothing', async () => {
    const { apiKey, orderId } = await failedDelivery();
    const response = await expectNothingWritten(ctx.database, () =>
      put(apiKey, { order_id: orderId, billing_address: '14 FC Road, Pune 411004', billing_phone: '02226543210' }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().details).toEqual([
      {
        field: 'billing_address',
        message:
          'billing_address names pincode 411004 but the parcel goes to 400001: the delivery pincode cannot change after pickup',
      },
      {
        field: 'billing_phone',
        message: 'billing_phone must be a 10-digit Indian mobile number after a failed delivery: the courier calls it',
      },
    ]);
  });

  it("counts as the failed delivery's reattempt: the merchant's own reattempt for it spends none, and no correction is passed once both are used", async () => {
    const { apiKey, awb, orderId, shipmentId } = await failedDelivery();
    expect((await put(apiKey, { order_id: orderId, ...NEW_LINES })).statusCode).toBe(200);
    // The same failed delivery: a reattempt on a date, and a further correction, follow it.
    ctx.clock.advance(60_000);
    const first = await reattempt(apiKey, { awb, comments: 'Call before coming' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ reattempts_used: 1, reattempts_left: 1 });
    ctx.clock.advance(60_000);
    expect((await put(apiKey, { order_id: orderId, billing_phone: '9876501234' })).statusCode).toBe(200);
    expect((await courierSees(awb)).map((a) => (a as unknown as { details: object }).details)).toEqual([
      {
        updated_address: { address_line: NEW_LINES.billing_address, landmark: NEW_LINES.billing_address_2 },
        address_correction: true,
      },
      { comments: 'Call before coming' },
      { updated_phone_number: '+919876501234', address_correction: true },
    ]);

    await failsAgain(awb);
    const second = await reattempt(apiKey, { awb });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ reattempts_used: 2, reattempts_left: 0 });
    await failsAgain(awb);
    const refused = await expectNothingWritten(ctx.database, () =>
      put(apiKey, { order_id: orderId, billing_address: '15 Marine Drive' }),
    );
    expect(refused.statusCode).toBe(422);
    const message = 'All 2 reattempts allowed for this shipment are used: initiate an RTO instead';
    expect(refused.json()).toEqual({
      code: 'order_change_refused',
      message,
      errors: [message],
      details: [{ field: 'order_id', message }],
    });
    // What tells the courier nothing may still change.
    expect((await put(apiKey, { order_id: orderId, billing_email: 'asha@example.org' })).statusCode).toBe(200);
    expect((await listed(apiKey, shipmentId)).shipping_address.address).toBe(NEW_LINES.billing_address);
  });

  it('past the failed delivery (an RTO under way) every update is still refused, naming the status', async () => {
    const { apiKey, awb, orderId } = await failedDelivery();
    await sendEvents(ctx, shadowfax, [{ awb, status: 'rto_initiated', event_time: at(200) }]);
    const response = await expectNothingWritten(ctx.database, () => put(apiKey, { order_id: orderId, ...NEW_LINES }));
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(
      'The shipment is rto_initiated; an order can only be updated before it is picked up, and its delivery address and phone while a failed delivery waits (ndr_raised)',
    );
    expect(await courierSees(awb)).toEqual([]);
  });
});
