import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../test/app.js';
import { admin, AUTH_TOKEN, authed, FORWARD_ORDER, RATES, SHIPMENTS, STORES, WAREHOUSE } from '../../test/kit/http.js';
import { orderBody } from '../../test/kit/orders.js';
import { countRows } from '../../test/kit/rows.js';
import { createWarehouse, warehouseBody } from '../../test/kit/warehouses.js';
import { fieldError, IGNORED, PASSWORD, QUOTE, useLenientInputApp } from '../../test/lenient-input.js';
import { queryRows } from '../base/db/client.js';

// Issue 10, across routes: on /custom/api/v1 a plain decimal string is read as the number a field
// expects, a number as the text a field expects, "true"/"false" as booleans. Anything else is still
// a 400 naming the field, and the operator and courier routes stay strict. Unknown fields are in
// lenient-input-ignored-fields.once.test.ts.

let ctx: TestContext;
let warehouseId: string;
const { post, postText, storedRow, storedItems } = useLenientInputApp((app, _key, warehouse) => {
  ctx = app;
  warehouseId = warehouse;
});

describe('values are read where the route expects another JSON type, inside arrays and unions too', () => {
  it('an order with numbers as strings, text as numbers and booleans as text is stored as the plain order', async () => {
    const plain = await post(FORWARD_ORDER, orderBody(warehouseId, { tags: ['2026', 'sale'] }));
    expect(plain.statusCode, plain.body).toBe(200);
    const body = orderBody(warehouseId);
    const [item] = body.order_items as Record<string, unknown>[];
    const read = await post(FORWARD_ORDER, {
      ...body,
      billing_phone: 9123456780,
      billing_pincode: 400001,
      sub_total: '998',
      cod_collectible: '0',
      length: '10',
      weight: '0.5',
      shipping_is_billing: 'true',
      print_label: 'true',
      tags: [2026, 'sale'],
      order_items: [{ ...item, units: '2', selling_price: '499', tax: '5', hsn: 6211 }],
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.headers).not.toHaveProperty(IGNORED);
    const [plainId, readId] = [plain.json().payload.order_id, read.json().payload.order_id];
    const differing = ['id', 'merchant_order_id'];
    expect(await storedRow('orders', readId, differing)).toEqual(await storedRow('orders', plainId, differing));
    expect(await storedItems(readId)).toEqual(await storedItems(plainId));
  });

  it('a pincode sent as a number stays accepted (the field takes a string or an integer)', async () => {
    const asText = await post(RATES, QUOTE);
    const asNumbers = await post(RATES, { ...QUOTE, origin_pincode: 110001, destination_pincode: 400001 });
    expect(asNumbers.statusCode).toBe(200);
    expect(asNumbers.json()).toEqual(asText.json());
    expect(asNumbers.headers).not.toHaveProperty(IGNORED);
  });

  describe('the listing', () => {
    let listKey: string;
    beforeAll(async () => {
      listKey = (await ctx.createAccount('Lenient listing')).apiKey;
      const warehouse = await createWarehouse(ctx, listKey);
      for (let i = 0; i < 6; i++) {
        const item = { name: 'Mug', sku: i === 0 ? '12345' : `MUG-${i}`, units: 1, selling_price: 300 };
        const response = await post(
          FORWARD_ORDER,
          orderBody(warehouse, { order_items: [item], sub_total: 300, tags: i < 2 ? ['2026'] : ['other'] }),
          listKey,
        );
        if (response.statusCode !== 200) throw new Error(`order failed: ${response.body}`);
        ctx.clock.advance(1000);
      }
    });
    const list = (body: unknown) => post(SHIPMENTS, body, listKey);
    const ids = async (body: unknown) => {
      const response = await list(body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((row: { id: string }) => row.id);
    };

    it('per_page "5" and page "2" are read as 5 and 2', async () => {
      const asText = await list({ per_page: '5', page: '2' });
      expect(asText.statusCode, asText.body).toBe(200);
      expect(asText.json()).toEqual((await list({ per_page: 5, page: 2 })).json());
      expect(asText.json().meta).toMatchObject({ current_page: 2, per_page: 5, total: 6 });
      expect(asText.json().data).toHaveLength(1);
    });

    it('per_page "" is taken as absent (the default page size)', async () => {
      const response = await list({ per_page: '' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual((await list({})).json());
    });

    it('filters of "one value or a list" read numbers as text, alone or in the list', async () => {
      const tagged = await ids({ tags: ['2026'] });
      expect(tagged).toHaveLength(2);
      expect(await ids({ tags: [2026] })).toEqual(tagged);
      expect(await ids({ 'tags[]': 2026 })).toEqual(tagged);
      const bySku = await ids({ sku: '12345' });
      expect(bySku).toHaveLength(1);
      expect(await ids({ sku: 12345 })).toEqual(bySku);
      expect(await ids({ sku: [12345, 'MUG-1'] })).toEqual(await ids({ sku: ['12345', 'MUG-1'] }));
    });

    it('is_cod "false" is read as false; search_after with a number is read as its text', async () => {
      expect(await ids({ is_cod: 'false' })).toEqual(await ids({ is_cod: false }));
      const first = (await list({ per_page: 2 })).json().meta.next_search_after as [string, string];
      expect(await ids({ per_page: 2, search_after: [Number(first[0]), first[1]] })).toEqual(
        await ids({ per_page: 2, search_after: first }),
      );
    });

    it.each([
      ['per_page', '1e1', 'per_page must be a whole number from 1 to 100'],
      ['per_page', ' 5', 'per_page must be a whole number from 1 to 100'],
      ['per_page', '0x5', 'per_page must be a whole number from 1 to 100'],
      ['per_page', '5.5', 'per_page must be a whole number from 1 to 100'],
      ['per_page', null, 'per_page must be a whole number from 1 to 100'],
      ['per_page', true, 'per_page must be a whole number from 1 to 100'],
      ['is_cod', 1, 'is_cod must be true or false'],
      ['is_cod', 0, 'is_cod must be true or false'],
      ['is_cod', 'TRUE', 'is_cod must be true or false'],
      ['is_cod', 'yes', 'is_cod must be true or false'],
    ])('%s %j is still a 400 naming it', async (field, value, message) => {
      const response = await list({ [field]: value });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fieldError(field, message));
    });
  });

  it.each([
    [
      RATES,
      { ...QUOTE, journey_type: 'return', qc_applicable: 1 },
      'qc_applicable',
      'qc_applicable must be of type boolean',
    ],
    [
      RATES,
      { ...QUOTE, journey_type: 'return', qc_applicable: 0 },
      'qc_applicable',
      'qc_applicable must be of type boolean',
    ],
    [FORWARD_ORDER, { print_label: 1 }, 'print_label', 'print_label must be of type boolean'],
    [FORWARD_ORDER, { shipping_is_billing: 0 }, 'shipping_is_billing', 'shipping_is_billing must be of type boolean'],
  ])('a number where a boolean is expected is still a 400 (%s, %j)', async (url, change, field, message) => {
    const body = url === FORWARD_ORDER ? orderBody(warehouseId, change) : change;
    const response = await post(url, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError(field, message));
  });

  it('a number read as text must then be valid text: phone_number 12345 is a 400 naming it', async () => {
    const response = await post(WAREHOUSE, warehouseBody({ phone_number: 12345 as unknown as string }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(
      fieldError('phone_number', 'phone_number must be a valid Indian phone number (10 digits)'),
    );
  });

  it.each([['1e400'], ['1e21'], ['1.5e-7']])(
    'a number whose text is not a plain decimal (%s) is not read as text: 400 naming the field',
    async (literal) => {
      const response = await postText(STORES, `{"store_name": ${literal}}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        fieldError('store_name', 'store_name must be 1 to 64 characters of letters, digits and hyphens only'),
      );
    },
  );

  it('logs in with a mobile-number username sent as a JSON number', async () => {
    const response = await post(AUTH_TOKEN, { username: 9876500123, password: PASSWORD }, null);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers).not.toHaveProperty(IGNORED);
  });
});

describe('a body that is valid as sent is passed through untouched', () => {
  it('text that looks like a number or a boolean stays text where text is expected', async () => {
    const response = await post(STORES, { store_name: '007', brand_name: 'false' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ store_name: '007', brand_name: 'false' });
    expect(response.headers).not.toHaveProperty(IGNORED);
    const [row] = await queryRows<{ store_name: string; brand_name: string }>(
      ctx.database.db,
      sql`select store_name, brand_name from stores where id = ${response.json().data.id}`,
    );
    expect(row).toEqual({ store_name: '007', brand_name: 'false' });
  });

  it('a number where a pincode may be a number or text is kept as sent, and the warehouse stores its text', async () => {
    const body = warehouseBody();
    const response = await post(WAREHOUSE, {
      ...body,
      address_attributes: { ...body.address_attributes, zip: 110001 },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers).not.toHaveProperty(IGNORED);
    const [row] = await queryRows<{ pincode: string }>(
      ctx.database.db,
      sql`select pincode from warehouses where id = ${response.json().payload.warehouse_id}`,
    );
    expect(row).toEqual({ pincode: '110001' });
  });

  it('the same bytes quote the same whether or not another request was reshaped before', async () => {
    const text = JSON.stringify(QUOTE);
    const first = await postText(RATES, text);
    await post(RATES, { ...QUOTE, dead_weight: '400', colour: 'red' });
    const second = await postText(RATES, text);
    expect(second.json()).toEqual(first.json());
    expect(second.headers).not.toHaveProperty(IGNORED);
  });
});

describe('the operator and courier routes stay strict', () => {
  it('/admin/v1/accounts refuses an unknown field (400) and creates nothing', async () => {
    const before = await countRows(ctx.database, 'accounts');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/accounts',
      headers: admin,
      payload: { name: 'Strict', colour: 'red' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('colour', 'colour is not a known field'));
    expect(response.headers).not.toHaveProperty(IGNORED);
    expect(await countRows(ctx.database, 'accounts')).toBe(before);
  });

  it('/admin/v1/carrier-tokens reads no number as text (400)', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/carrier-tokens',
      headers: admin,
      payload: { carrier_id: 12 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('carrier_id', 'carrier_id must be of type string'));
  });

  it('/carrier/v1/tracking-events refuses an unknown field, top-level or in an event (400)', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/carrier-tokens',
      headers: admin,
      payload: { carrier_id: 'CARDELHSURF01' },
    });
    expect(issued.statusCode).toBe(201);
    const headers = authed(`Bearer ${issued.json().token}`);
    const event = { awb: 'DLS0000000001', status: 'in_transit', event_time: '2026-11-20T10:00:00+05:30' };
    const inEvent = await ctx.app.inject({
      method: 'POST',
      url: '/carrier/v1/tracking-events',
      headers,
      payload: { events: [{ ...event, colour: 'red' }] },
    });
    expect(inEvent.statusCode).toBe(400);
    expect(inEvent.json()).toEqual(fieldError('events.0.colour', 'events.0.colour is not a known field'));
    expect(inEvent.headers).not.toHaveProperty(IGNORED);
    const topLevel = await ctx.app.inject({
      method: 'POST',
      url: '/carrier/v1/tracking-events',
      headers,
      payload: { events: [event], batch: 1 },
    });
    expect(topLevel.statusCode).toBe(400);
    expect(topLevel.json()).toEqual(fieldError('batch', 'batch is not a known field'));
  });
});
