import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { withRealIds } from '../../../test/kit/examples.js';
import { authed, FORWARD_ORDER, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { nextOrderId } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { createCityWarehouse, merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { ORDER_REQUESTS } from './orders.examples.js';

// PUT /order with only the fields that change, keyed by order_id, as integrations send it
// (VELOCITY.md, "More from Velocity's API document"); before, such a body was a 400 for every
// field it left out.

const ORDER = '/custom/api/v1/order';
const NEW_ADDRESS = 'Flat 3B, 42, 5th Cross, Koramangala 4th Block';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

const put = (m: Merchant, payload: Record<string, unknown>) =>
  ctx.app.inject({ method: 'PUT', url: ORDER, headers: authed(m.apiKey), payload });

/** The documented order example (COD ₹1299, 0.5 kg, Bengaluru 560034) in this merchant's warehouse, through `url`. */
async function placed(m: Merchant, url: string, overrides: Record<string, unknown> = {}) {
  const orderId = nextOrderId();
  const body = withRealIds(
    ORDER_REQUESTS.forwardOrder,
    { warehouseId: m.warehouseId },
    { store_name: undefined, order_id: orderId, ...overrides },
  );
  const response = await post(ctx, m.apiKey, url, body);
  expect(response.statusCode, response.body).toBe(200);
  return { orderId, payload: response.json().payload };
}

async function storedOrder(orderId: string) {
  const [row] = await queryRows<Record<string, unknown>>(
    ctx.database.db,
    sql`select o.billing_address, o.billing_phone, o.billing_email, o.billing_last_name, o.shipping_is_billing, o.shipping_address,
          o.shipping_pincode, o.shipping_city, o.payment_method, o.cod_collectible_paise::int as cod, o.weight_grams, o.warehouse_id,
          (select json_agg(i.sku order by i.position) from order_items i where i.order_id = o.id) as skus
        from orders o where o.merchant_order_id = ${orderId}`,
  );
  return row!;
}

describe('PUT /order with only the fields that change, before an AWB', () => {
  it('merges the documented partial update into the order, keeping every field it leaves out', async () => {
    const m = await merchant(ctx);
    const { orderId, payload: created } = await placed(m, FORWARD_ORDER);
    const before = await storedOrder(orderId);
    const response = await put(m, withRealIds(ORDER_REQUESTS.partialUpdate, { orderId }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().payload).toMatchObject({
      order_id: created.order_id,
      shipment_id: created.shipment_id,
      channel_order_id: orderId,
      status: 'pending',
      zone: created.zone,
      applied_weight: created.applied_weight,
      cod: 1,
    });
    expect(await storedOrder(orderId)).toEqual({
      ...before,
      billing_address: NEW_ADDRESS,
      billing_phone: '9123456781',
      // Shipped to the billing address: it moves with it.
      shipping_address: NEW_ADDRESS,
    });
    expect(before.billing_email).toBe('priya.sharma@example.in');
  });

  it('prices the shipment again when the parcel changes, and takes a new payment pair', async () => {
    const m = await merchant(ctx);
    const { orderId } = await placed(m, FORWARD_ORDER);
    const response = await put(m, { order_id: orderId, weight: '2.25', payment_method: 'Prepaid', cod_collectible: 0 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().payload).toMatchObject({ applied_weight: 2.25, cod: 0 });
    expect(await storedOrder(orderId)).toMatchObject({
      weight_grams: 2250,
      payment_method: 'prepaid',
      cod: 0,
      skus: ['KURTA-M-BLUE'],
    });
  });

  it('ships to a new address when shipping_* alone is sent to an order shipped to its billing address', async () => {
    const m = await merchant(ctx);
    const { orderId } = await placed(m, FORWARD_ORDER);
    const response = await put(m, {
      order_id: orderId,
      shipping_address: '4 Hill Road',
      shipping_city: 'Mumbai',
      shipping_pincode: 400050,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedOrder(orderId)).toMatchObject({
      shipping_is_billing: false,
      shipping_address: '4 Hill Road',
      shipping_city: 'Mumbai',
      shipping_pincode: '400050',
      billing_address: '42, 5th Cross, Koramangala 4th Block',
    });
  });

  it('moves the order to the warehouse pickup_location names when sent without warehouse_id', async () => {
    const m = await merchant(ctx);
    const mumbai = await createCityWarehouse(ctx, m.apiKey, 'mumbai', 'HomeNew');
    const { orderId } = await placed(m, FORWARD_ORDER);
    const response = await put(m, { order_id: orderId, pickup_location: 'homenew' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().payload).not.toHaveProperty('warnings');
    expect((await storedOrder(orderId)).warehouse_id).toBe(mumbai);
  });

  it('refuses what the merged order cannot be with a 4xx naming the field, writing nothing', async () => {
    const m = await merchant(ctx);
    const { orderId } = await placed(m, FORWARD_ORDER);
    const cases: [Record<string, unknown>, number, string, string][] = [
      [
        { billing_phone: '12345' },
        400,
        'billing_phone',
        'billing_phone must be a valid Indian phone number (10 digits)',
      ],
      [{ payment_method: 'PREPAID' }, 400, 'cod_collectible', 'cod_collectible must be 0 for a PREPAID order'],
      [{ sub_total: 500 }, 400, 'cod_collectible', 'cod_collectible must not exceed the order value (sub_total)'],
      [
        { weight: 450 },
        422,
        '',
        'No courier service can carry this shipment: check the pincodes, weight and payment method',
      ],
    ];
    for (const [change, status, field, message] of cases) {
      const response = await expectNothingWritten(ctx.database, () => put(m, { order_id: orderId, ...change }));
      expect(response.statusCode, JSON.stringify(change)).toBe(status);
      expect(response.json().message).toBe(message);
      if (field) expect(response.json().details).toEqual([{ field, message }]);
    }
    const unknown = await put(m, { order_id: 'NO-SUCH-ORDER', billing_phone: '9123456781' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("Order 'NO-SUCH-ORDER' not found");
  });
});

describe('PUT /order with only the fields that change, after an AWB', () => {
  it('changes the address and phone of a booked order, keeping its AWB and charges (weight 1.1 kg unchanged by the round trip)', async () => {
    const m = await merchant(ctx);
    const { orderId, payload: booked } = await placed(m, ORCHESTRATE, { weight: 1.1 });
    const response = await put(m, withRealIds(ORDER_REQUESTS.partialUpdate, { orderId }));
    expect(response.statusCode, response.body).toBe(200);
    const updated = response.json().payload;
    expect(updated).toMatchObject({
      awb_code: booked.awb_code,
      charges: booked.charges,
      zone: booked.zone,
      applied_weight: 1.1,
    });
    expect(await storedOrder(orderId)).toMatchObject({ billing_address: NEW_ADDRESS, billing_phone: '9123456781' });
  });

  it('refuses each field the courier booked and priced on, naming it and why', async () => {
    const m = await merchant(ctx);
    const { orderId } = await placed(m, ORCHESTRATE);
    const why =
      'cannot change once an AWB is assigned (it would change the price or the courier): cancel the shipment and book it again';
    const cases: [Record<string, unknown>, string[]][] = [
      [{ weight: 2 }, ['weight']],
      [{ length: 40, height: 30 }, ['length', 'height']],
      [{ billing_pincode: '400001', billing_city: 'Mumbai' }, ['billing_pincode']],
      [{ payment_method: 'PREPAID', cod_collectible: 0 }, ['payment_method', 'cod_collectible']],
      [{ cod_collectible: 999 }, ['cod_collectible']],
    ];
    for (const [change, fields] of cases) {
      const response = await expectNothingWritten(ctx.database, () => put(m, { order_id: orderId, ...change }));
      expect(response.statusCode, JSON.stringify(change)).toBe(422);
      expect(response.json().details).toEqual(fields.map((field) => ({ field, message: `${field} ${why}` })));
    }
  });
});
