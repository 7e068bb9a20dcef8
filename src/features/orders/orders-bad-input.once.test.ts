import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unknownField } from '../../../test/lenient-input.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { ASSIGN, authed, FORWARD_ORDER, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { codOrderBody, orderBody, REQUIRED_ORDER_FIELDS } from '../../../test/kit/orders.js';
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

/** Sends the body to the route and checks: 400, exactly this message naming this field, nothing written. */
async function expect400(url: string, body: unknown, field: string, message: string) {
  const response = await expectNothingWritten(ctx.database, () => post(ctx, apiKey, url, body));
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({
    code: 'invalid_request',
    message,
    errors: [message],
    details: [{ field, message }],
  });
}

const without = (body: Record<string, unknown>, field: string) => {
  const copy = { ...body };
  delete copy[field];
  return copy;
};

describe.each(ROUTES)('%s refuses bad input with 400 naming the field, writing nothing', (url) => {
  it.each(REQUIRED_ORDER_FIELDS)('without %s', async (field) => {
    await expect400(url, without(orderBody(warehouseId), field), field, `${field} is required`);
  });

  it.each(['name', 'sku', 'units', 'selling_price'])('with an item without %s', async (field) => {
    const [item] = orderBody(warehouseId).order_items as Record<string, unknown>[];
    await expect400(
      url,
      orderBody(warehouseId, { order_items: [without(item!, field)] }),
      `order_items.0.${field}`,
      `order_items.0.${field} is required`,
    );
  });

  it.each([
    ['order_id', true, 'order_id must be 1 to 100 printable characters without spaces'],
    ['order_id', 'ORD 1', 'order_id must be 1 to 100 printable characters without spaces'],
    ['order_id', '', 'order_id must be 1 to 100 printable characters without spaces'],
    ['order_date', { day: 20 }, 'order_date must be of type string'],
    ['billing_customer_name', false, 'billing_customer_name must be 1 to 200 characters on one line, not blank'],
    ['billing_customer_name', '   ', 'billing_customer_name must be 1 to 200 characters on one line, not blank'],
    ['billing_address', null, 'billing_address must be 1 to 500 characters, not blank'],
    ['billing_phone', true, 'billing_phone must be of type string'],
    ['billing_phone', 12345, 'billing_phone must be a valid Indian phone number (10 digits)'],
    ['billing_pincode', true, 'billing_pincode must be of type string or integer'],
    ['shipping_is_billing', 'yes', 'shipping_is_billing must be of type boolean'],
    ['print_label', 1, 'print_label must be of type boolean'],
    ['order_items', { name: 'Kurta' }, 'order_items must list 1 to 100 items'],
    ['payment_method', true, 'payment_method must be COD or PREPAID'],
    ['sub_total', '998 rupees', 'sub_total must be a number from 0 to 100000000 (rupees)'],
    ['sub_total', '1e3', 'sub_total must be a number from 0 to 100000000 (rupees)'],
    ['sub_total', -1, 'sub_total must be a number from 0 to 100000000 (rupees)'],
    ['cod_collectible', 'zero', 'cod_collectible must be a number from 0 to 100000000 (rupees)'],
    ['length', '10cm', 'length must be greater than 0 and at most 500 cm'],
    ['weight', '0,5', 'weight must be greater than 0 and at most 500 kg'],
    ['weight', '', 'weight must be greater than 0 and at most 500 kg'],
    ['warehouse_id', true, 'warehouse_id must be of type string'],
    ['store_name', ['acme'], 'store_name must be of type string'],
    ['total_discount', 'none', 'total_discount must be a number from 0 to 100000000 (rupees)'],
    ['billing_isd_code', '1', 'billing_isd_code must be 91: Dakiya ships within India'],
    ['billing_email', 'arun@', 'billing_email must be an email address'],
    ['vendor_details', 'Kurta House', 'vendor_details must be of type object'],
    ['tags', 'festive', 'tags must be of type array'],
    ['tags', [''], 'tags.0 must be at least 1 character long'],
    ['language', 'fr', 'language must be one of en, hi, mr, bn, gu, ta, te, kn, ml'],
    ['language', 'Marathi', 'language must be one of en, hi, mr, bn, gu, ta, te, kn, ml'],
    ['language', null, 'language must be one of en, hi, mr, bn, gu, ta, te, kn, ml'],
  ])('with %s = %j', async (field, value, message) => {
    await expect400(url, orderBody(warehouseId, { [field]: value }), message.split(' ')[0]!, message);
  });

  it.each([
    ['units', '2 pcs', 'order_items.0.units must be a whole number from 1 to 100000'],
    ['units', '1.5', 'order_items.0.units must be a whole number from 1 to 100000'],
    ['units', 1.5, 'order_items.0.units must be a whole number from 1 to 100000'],
    ['units', 0, 'order_items.0.units must be a whole number from 1 to 100000'],
    ['units', -1, 'order_items.0.units must be a whole number from 1 to 100000'],
    ['selling_price', 'Rs 499', 'order_items.0.selling_price must be a number from 0 to 100000000 (rupees)'],
    ['selling_price', -1, 'order_items.0.selling_price must be a number from 0 to 100000000 (rupees)'],
    ['name', '', 'order_items.0.name must be 1 to 300 characters, not blank'],
    ['sku', ' ', 'order_items.0.sku must be 1 to 100 characters, not blank'],
    ['discount', -5, 'order_items.0.discount must be a number from 0 to 100000000 (rupees)'],
  ])('with an item whose %s is %j', async (field, value, message) => {
    const [item] = orderBody(warehouseId).order_items as Record<string, unknown>[];
    const messageField = message.split(' ')[0]!;
    await expect400(url, orderBody(warehouseId, { order_items: [{ ...item, [field]: value }] }), messageField, message);
  });

  it('with empty order_items', async () => {
    await expect400(
      url,
      orderBody(warehouseId, { order_items: [] }),
      'order_items',
      'order_items must list 1 to 100 items',
    );
  });

  it('with more than 100 order_items', async () => {
    const items = Array.from({ length: 101 }, (_, i) => ({
      name: `Item ${i}`,
      sku: `SKU-${i}`,
      units: 1,
      selling_price: 1,
    }));
    await expect400(
      url,
      orderBody(warehouseId, { order_items: items }),
      'order_items',
      'order_items must list 1 to 100 items',
    );
  });

  it.each([
    ['billing_pincode', '40001', 'billing_pincode must be a 6-digit Indian pincode'],
    ['billing_pincode', '4000011', 'billing_pincode must be a 6-digit Indian pincode'],
    ['billing_pincode', '040001', 'billing_pincode 040001 is not a pincode in the directory'],
    ['billing_pincode', '000000', 'billing_pincode 000000 is not a pincode in the directory'],
    ['billing_pincode', 'ABCDEF', 'billing_pincode must be a 6-digit Indian pincode'],
    ['billing_pincode', 40000.5, 'billing_pincode must be of type string or integer'],
    ['billing_pincode', '123456', 'billing_pincode 123456 is not a pincode in the directory'],
    ['billing_pincode', 123456, 'billing_pincode 123456 is not a pincode in the directory'],
  ])('with %s = %j', async (field, value, message) => {
    await expect400(url, orderBody(warehouseId, { [field]: value }), field, message);
  });

  it.each(['12345', '0123456789', '98765432101', '+1 415 555 0100', 'not a phone', '98765O4321'])(
    'with billing_phone %j',
    async (phone) => {
      await expect400(
        url,
        orderBody(warehouseId, { billing_phone: phone }),
        'billing_phone',
        'billing_phone must be a valid Indian phone number (10 digits)',
      );
    },
  );

  it.each(['CARD', 'UPI', 'cash', 'PRE-PAID', 'COD ', ''])('with payment_method %j', async (method) => {
    await expect400(
      url,
      orderBody(warehouseId, { payment_method: method }),
      'payment_method',
      'payment_method must be COD or PREPAID',
    );
  });

  it.each([
    [{ cod_collectible: undefined }, 'cod_collectible must be greater than 0 for a COD order'],
    [{ cod_collectible: 0 }, 'cod_collectible must be greater than 0 for a COD order'],
    [{ cod_collectible: 998.01 }, 'cod_collectible must not exceed the order value (sub_total)'],
    [{ cod_collectible: 2000 }, 'cod_collectible must not exceed the order value (sub_total)'],
  ])('with a COD order and %j', async (overrides, message) => {
    const body = codOrderBody(warehouseId, overrides);
    if (overrides.cod_collectible === undefined) delete body.cod_collectible;
    await expect400(url, body, 'cod_collectible', message);
  });

  it.each([0.01, 1, 998])('with a PREPAID order and cod_collectible %j', async (amount) => {
    await expect400(
      url,
      orderBody(warehouseId, { cod_collectible: amount }),
      'cod_collectible',
      'cod_collectible must be 0 for a PREPAID order',
    );
  });

  it.each([
    ['length', 0, 'cm'],
    ['length', -10, 'cm'],
    ['breadth', 0, 'cm'],
    ['breadth', -0.1, 'cm'],
    ['height', 0, 'cm'],
    ['height', -5, 'cm'],
    ['length', 501, 'cm'],
    ['weight', 0, 'kg'],
    ['weight', -0.5, 'kg'],
    ['weight', 501, 'kg'],
  ])('with %s = %j', async (field, value, unit) => {
    await expect400(
      url,
      orderBody(warehouseId, { [field]: value }),
      field,
      `${field} must be greater than 0 and at most 500 ${unit}`,
    );
  });

  it.each([
    '20/11/2026',
    '2026/11/20 14:30',
    '20-11-2026',
    'yesterday',
    '',
    '2026-02-30',
    '2026-02-29 10:00',
    '2026-04-31',
    '2026-13-01',
    '2026-11-20 25:00',
    '2026-11-20 14:61',
  ])('with order_date %j', async (date) => {
    await expect400(
      url,
      orderBody(warehouseId, { order_date: date }),
      'order_date',
      'order_date must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp',
    );
  });

  it('without warehouse_id or pickup_location', async () => {
    await expect400(
      url,
      without(orderBody(warehouseId), 'warehouse_id'),
      'warehouse_id',
      'warehouse_id is required, or pickup_location (a warehouse name)',
    );
    await expect400(
      url,
      orderBody(warehouseId, { warehouse_id: '', pickup_location: '  ' }),
      'warehouse_id',
      'warehouse_id is required, or pickup_location (a warehouse name)',
    );
  });

  it('with total_discount above sub_total', async () => {
    await expect400(
      url,
      orderBody(warehouseId, { total_discount: 998.01 }),
      'total_discount',
      'total_discount must not exceed the order value (sub_total)',
    );
  });

  it('with a bad vendor_details phone or pincode', async () => {
    await expect400(
      url,
      orderBody(warehouseId, { vendor_details: { name: 'Kurta House', phone: '12345' } }),
      'vendor_details.phone',
      'vendor_details.phone must be a valid Indian phone number (10 digits)',
    );
    await expect400(
      url,
      orderBody(warehouseId, { vendor_details: { name: 'Kurta House', pin_code: '123456' } }),
      'vendor_details.pin_code',
      'vendor_details.pin_code 123456 is not a pincode in the directory',
    );
  });

  it('with a bad value beside an unknown field: the 400 names the bad field, then the ignored one (and the header)', async () => {
    const response = await expectNothingWritten(ctx.database, () =>
      post(ctx, apiKey, url, orderBody(warehouseId, { gift_wrap: true, weight: 'heavy' })),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { field: 'weight', message: 'weight must be greater than 0 and at most 500 kg' },
      unknownField('gift_wrap'),
    ]);
    expect(response.headers['dakiya-ignored-fields']).toBe('gift_wrap');
  });

  it.each([
    'shipping_customer_name',
    'shipping_address',
    'shipping_city',
    'shipping_pincode',
    'shipping_state',
    'shipping_country',
    'shipping_phone',
  ])('with shipping_is_billing false and no %s', async (field) => {
    const shipping = {
      shipping_is_billing: false,
      shipping_customer_name: 'Ravi',
      shipping_address: '5 MG Road',
      shipping_city: 'Bengaluru',
      shipping_pincode: '560001',
      shipping_state: 'Karnataka',
      shipping_country: 'India',
      shipping_phone: '9811122233',
    };
    await expect400(
      url,
      without(orderBody(warehouseId, shipping), field),
      field,
      `${field} is required when shipping_is_billing is false`,
    );
  });

  it('with shipping_is_billing false and an invalid shipping pincode or phone', async () => {
    const shipping = {
      shipping_is_billing: false,
      shipping_customer_name: 'Ravi',
      shipping_address: '5 MG Road',
      shipping_city: 'Bengaluru',
      shipping_pincode: '560001',
      shipping_state: 'Karnataka',
      shipping_country: 'India',
      shipping_phone: '9811122233',
    };
    await expect400(
      url,
      orderBody(warehouseId, { ...shipping, shipping_pincode: '123456' }),
      'shipping_pincode',
      'shipping_pincode 123456 is not a pincode in the directory',
    );
    await expect400(
      url,
      orderBody(warehouseId, { ...shipping, shipping_pincode: '000000' }),
      'shipping_pincode',
      'shipping_pincode 000000 is not a pincode in the directory',
    );
    await expect400(
      url,
      orderBody(warehouseId, { ...shipping, shipping_phone: '12345' }),
      'shipping_phone',
      'shipping_phone must be a valid Indian phone number (10 digits)',
    );
  });

  it('with no body, a JSON array, malformed JSON, or form data', async () => {
    const send = (payload: string | undefined, contentType?: string) =>
      expectNothingWritten(ctx.database, () =>
        ctx.app.inject({
          method: 'POST',
          url,
          headers: { ...authed(apiKey), ...(contentType && { 'content-type': contentType }) },
          ...(payload !== undefined && { payload }),
        }),
      );
    expect((await send(undefined)).statusCode).toBe(400);
    expect((await send('[]', 'application/json')).statusCode).toBe(400);
    expect((await send('{"order_id": ', 'application/json')).json()).toEqual({
      code: 'malformed_json',
      message: 'Malformed JSON body',
      errors: ['Malformed JSON body'],
    });
    expect((await send('order_id=1', 'application/x-www-form-urlencoded')).statusCode).toBe(415);
  });
});

describe('forward-order refuses carrier_id (it belongs to booking)', () => {
  it('answers 400 naming carrier_id, writing nothing', async () => {
    await expect400(
      FORWARD_ORDER,
      orderBody(warehouseId, { carrier_id: 'CARDELHSURF01' }),
      'carrier_id',
      'carrier_id belongs to forward-order-shipment or forward-order-orchestration',
    );
  });
});

describe('forward-order-shipment refuses bad input with 400, writing nothing', () => {
  it.each([
    [{}, 'shipment_id', 'shipment_id is required'],
    [{ shipment_id: 'not-a-uuid' }, 'shipment_id', 'shipment_id must match format "uuid"'],
    [{ shipment_id: true }, 'shipment_id', 'shipment_id must be of type string'],
    [{ shipment_id: 42 }, 'shipment_id', 'shipment_id must match format "uuid"'],
    [
      { shipment_id: '00000000-0000-4000-8000-000000000000', carrier_id: false },
      'carrier_id',
      'carrier_id must be of type string',
    ],
  ])('%j', async (body, field, message) => {
    await expect400(ASSIGN, body, field, message);
  });
});
