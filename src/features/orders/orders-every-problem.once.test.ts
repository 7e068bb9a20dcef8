import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { FORWARD_ORDER, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { orderBody, REQUIRED_ORDER_FIELDS } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  ({ apiKey } = await ctx.createAccount());
  warehouseId = await createWarehouse(ctx, apiKey);
});
afterAll(async () => {
  await ctx.close();
});

const ROUTES = [FORWARD_ORDER, ORCHESTRATE];

const without = (body: Record<string, unknown>, field: string) => {
  const copy = { ...body };
  delete copy[field];
  return copy;
};

describe('every problem of one request at once (issue 16)', () => {
  it.each(ROUTES)('%s with {} names all 17 missing fields in one answer, the plain requirements first', async (url) => {
    const response = await expectNothingWritten(ctx.database, () => post(ctx, apiKey, url, {}));
    expect(response.statusCode).toBe(400);
    const messages = [
      ...REQUIRED_ORDER_FIELDS.map((f) => `${f} is required`),
      'warehouse_id is required, or pickup_location (a warehouse name)',
    ];
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message: 'order_id is required',
      errors: messages,
      details: [...REQUIRED_ORDER_FIELDS, 'warehouse_id'].map((field, i) => ({ field, message: messages[i] })),
    });
  });

  it('names every field that breaks its schema together, missing ones first', async () => {
    const body = { ...without(orderBody(warehouseId), 'billing_city'), weight: -1, payment_method: 'UPI' };
    const response = await expectNothingWritten(ctx.database, () => post(ctx, apiKey, FORWARD_ORDER, body));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      'billing_city is required',
      'payment_method must be COD or PREPAID',
      'weight must be greater than 0 and at most 500 kg',
    ]);
  });

  it('reports the independent checks of the service together: date, phones, pincodes, COD amount, vendor, carrier_id', async () => {
    const body = {
      ...orderBody(warehouseId),
      order_date: '2026-02-30',
      billing_phone: '12345',
      billing_pincode: '100000',
      shipping_is_billing: false,
      shipping_customer_name: 'Ravi',
      shipping_address: '7 MG Road',
      shipping_city: 'Pune',
      shipping_state: 'Maharashtra',
      shipping_country: 'India',
      shipping_pincode: '411001',
      shipping_phone: '+1 555 0100',
      payment_method: 'PREPAID',
      cod_collectible: 10,
      vendor_details: { name: 'Nila Textiles', phone: '12345', pin_code: '999999' },
      carrier_id: 'CARDELHSURF01',
    };
    const response = await expectNothingWritten(ctx.database, () => post(ctx, apiKey, FORWARD_ORDER, body));
    expect(response.statusCode).toBe(400);
    const details = [
      { field: 'order_date', message: 'order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp' },
      { field: 'billing_phone', message: 'billing_phone must be a valid Indian phone number (10 digits)' },
      { field: 'billing_pincode', message: 'billing_pincode 100000 is not a pincode in the directory' },
      { field: 'shipping_phone', message: 'shipping_phone must be a valid Indian phone number (10 digits)' },
      { field: 'cod_collectible', message: 'cod_collectible must be 0 for a PREPAID order' },
      {
        field: 'vendor_details.phone',
        message: 'vendor_details.phone must be a valid Indian phone number (10 digits)',
      },
      { field: 'vendor_details.pin_code', message: 'vendor_details.pin_code 999999 is not a pincode in the directory' },
      { field: 'carrier_id', message: 'carrier_id belongs to forward-order-shipment or forward-order-orchestration' },
    ];
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message: details[0]!.message,
      errors: details.map((d) => d.message),
      details,
    });
  });
});
