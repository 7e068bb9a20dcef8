import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { DTDC } from '../../../test/kit/couriers.js';
import { EXCHANGE, exchangeBody } from '../../../test/kit/exchange-bodies.js';
import { post } from '../../../test/kit/http.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { IGNORED, unknownField } from '../../../test/lenient-input.js';
import { queryRows } from '../../base/db/client.js';

// What the exchange route takes: Velocity's loose typing and unknown fields, and every bad input
// named. Nothing here depends on the database engine.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const fields = (body: { details: { field: string }[] }) => body.details.map((detail) => detail.field).sort();

async function written(accountId: string) {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select ((select count(*) from orders where account_id = ${accountId}) + (select count(*) from returns where account_id = ${accountId})
      + (select count(*) from exchanges where account_id = ${accountId}))::int as n`,
  );
  return Number(row!.n);
}

describe('POST /exchange-order-orchestration input', () => {
  it("takes Velocity's loose typing, and ignores unknown fields, naming them", async () => {
    const m = await merchant(ctx);
    const body = exchangeBody(m.warehouseId, {
      billing_pincode: 400001,
      billing_phone: 9123456780,
      pickup_pincode: 400001,
      weight: '0.5',
      return_weight: '0.75',
      order_items: [{ name: 'Cotton Kurta', sku: 'KURTA-L-BLUE', units: '2', selling_price: '499.50', discount: '0' }],
      velocity_client_ref: 'abc',
    });
    const response = await post(ctx, m.apiKey, EXCHANGE, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers[IGNORED]).toBe('velocity_client_ref');
    const { warnings, payload } = response.json();
    expect(warnings).toEqual([unknownField('velocity_client_ref')]);
    expect(payload.forward_applied_weight).toBe(0.5);
    expect(payload.reverse_applied_weight).toBe(0.75);
    const [order] = await queryRows<{ sub_total_paise: string }>(
      ctx.database.db,
      sql`select sub_total_paise from orders where id = ${payload.order_id}`,
    );
    // sub_total, not sent, is the items' value: 2 x 499.50.
    expect(Number(order!.sub_total_paise)).toBe(99_900);
  });

  it('names every missing field at once, writing nothing', async () => {
    const m = await merchant(ctx);
    const response = await post(ctx, m.apiKey, EXCHANGE, {});
    expect(response.statusCode).toBe(400);
    expect(fields(response.json())).toEqual(
      [
        'order_id',
        'order_date',
        'payment_method',
        'billing_customer_name',
        'billing_address',
        'billing_city',
        'billing_pincode',
        'billing_state',
        'billing_country',
        'billing_phone',
        'pickup_customer_name',
        'pickup_address',
        'pickup_city',
        'pickup_state',
        'pickup_country',
        'pickup_pincode',
        'pickup_phone',
        'order_items',
        'forward_warehouse_id',
        'length',
        'breadth',
        'height',
        'weight',
        'return_items',
      ].sort(),
    );
    expect(await written(m.id)).toBe(0);
  });

  it('names every wrong value at once, writing nothing', async () => {
    const m = await merchant(ctx);
    const body = exchangeBody(m.warehouseId, {
      payment_method: 'CARD',
      order_items: [],
      return_weight: 0,
      return_items: [
        {
          name: 'Cotton Kurta',
          sku: 'KURTA-M-BLUE',
          units: 1,
          selling_price: 499,
          qc_questions: ['1', '2', '3', '4', '5', '6', '7'],
        },
      ],
    });
    const response = await post(ctx, m.apiKey, EXCHANGE, body);
    expect(response.statusCode).toBe(400);
    expect(fields(response.json())).toEqual([
      'order_items',
      'payment_method',
      'return_items.0.qc_questions',
      'return_weight',
    ]);
    expect(await written(m.id)).toBe(0);
  });

  it('reports QC questions as accepted but not sent to couriers', async () => {
    const m = await merchant(ctx);
    const [item] = exchangeBody(m.warehouseId).return_items as Record<string, unknown>[];
    const body = exchangeBody(m.warehouseId, {
      return_items: [{ ...item, qc_questions: ['Is the tag attached?', 'Is it unwashed?'] }],
    });
    const response = await post(ctx, m.apiKey, EXCHANGE, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().payload.warnings).toEqual([
      {
        field: 'return_items.0.qc_questions',
        message:
          'return_items.0.qc_questions were accepted but not sent: the couriers Dakiya books check the product name, image, brand, size and colour',
      },
    ]);
  });

  it("names return_carrier_id when the pickup's courier cannot take it, writing neither leg", async () => {
    const m = await merchant(ctx);
    const response = await post(ctx, m.apiKey, EXCHANGE, exchangeBody(m.warehouseId, { return_carrier_id: DTDC }));
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(fields(body)).toEqual(['return_carrier_id']);
    expect(body.message).toMatch(/^The old item's pickup: .*does not carry QC returns/);
    expect(await written(m.id)).toBe(0);
  });
});
