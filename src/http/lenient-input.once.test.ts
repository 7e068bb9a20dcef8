import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { admin, AUTH_TOKEN, authed, FORWARD_ORDER, RATES, SERVICEABILITY, SHIPMENTS, STORES, V1, WAREHOUSE, WAREHOUSES } from '../../test/kit/http.js';
import { orderBody } from '../../test/kit/orders.js';
import { countRows } from '../../test/kit/rows.js';
import { multipart } from '../../test/kit/uploads.js';
import { createWarehouse, warehouseBody } from '../../test/kit/warehouses.js';
import { queryRows } from '../base/db/client.js';

// Issue 10, across routes: on /custom/api/v1 an unknown body field is dropped and named in
// Dakiya-Ignored-Fields, a plain decimal string is read as the number a field expects, a number as
// the text a field expects, "true"/"false" as booleans. Anything else is still a 400 naming the
// field, and the operator and courier routes stay strict.

const IGNORED = 'dakiya-ignored-fields';
const USERNAME = '+919876500123';
const PASSWORD = 'lenient input password';

const QUOTE = {
  journey_type: 'forward',
  origin_pincode: '110001',
  destination_pincode: '400001',
  dead_weight: 400,
  length: 10,
  width: 10,
  height: 10,
  payment_method: 'cod',
  shipment_value: 1000,
};

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
let storeCounter = 0;
const storeName = () => `lenient-${++storeCounter}`;

beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('Lenient input', { username: USERNAME, password: PASSWORD })).apiKey;
  warehouseId = await createWarehouse(ctx, apiKey);
});
afterAll(async () => {
  await ctx.close();
});

const post = (url: string, payload: unknown, credential: string | null = apiKey) =>
  ctx.app.inject({ method: 'POST', url, headers: credential === null ? {} : authed(credential), payload: payload as object });
const postText = (url: string, text: string) =>
  ctx.app.inject({ method: 'POST', url, headers: { ...authed(apiKey), 'content-type': 'application/json' }, payload: text });
const fieldError = (field: string, message: string) => ({ message, errors: [message], details: [{ field, message }] });

/** A stored row as the database has it, without the columns that differ between two creations. */
async function storedRow(table: string, id: string, differing: string[]) {
  const [row] = await queryRows<Record<string, unknown>>(ctx.database.db, sql`select * from ${sql.identifier(table)} where id = ${id}`);
  expect(row, `${table} ${id}`).toBeDefined();
  return Object.fromEntries(Object.entries(row!).filter(([column]) => !differing.includes(column)));
}

async function storedItems(orderId: string) {
  const rows = await queryRows<Record<string, unknown>>(
    ctx.database.db,
    sql`select * from order_items where order_id = ${orderId} order by position`,
  );
  return rows.map(({ id: _id, order_id: _order, ...rest }) => rest);
}

describe('unknown fields are ignored and named, on every /custom/api/v1 route that takes a body', () => {
  // [route, a valid body (fresh for each call where the route creates something), status]
  const routes: [string, () => Record<string, unknown>, number][] = [
    [RATES, () => ({ ...QUOTE }), 200],
    [SERVICEABILITY, () => ({ from: '110001', to: '400001', payment_mode: 'cod', shipment_type: 'forward' }), 200],
    [STORES, () => ({ store_name: storeName() }), 201],
    [WAREHOUSE, () => ({ ...warehouseBody() }), 201],
    [FORWARD_ORDER, () => orderBody(warehouseId), 200],
    [SHIPMENTS, () => ({ per_page: 1 }), 200],
    [`${V1}/order-tracking`, () => ({ awbs: ['NOSUCHAWB1'] }), 200],
    [AUTH_TOKEN, () => ({ username: USERNAME, password: PASSWORD }), 200],
  ];

  it.each(routes)('%s answers %s as without them, and only then names them', async (url, body, status) => {
    const plain = await post(url, body());
    expect(plain.statusCode, plain.body).toBe(status);
    expect(plain.headers[IGNORED]).toBeUndefined();
    const response = await post(url, { ...body(), idempotency_key: 'k-1', x_custom: { nested: [1, 2] } });
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers[IGNORED]).toBe('idempotency_key, x_custom');
    expect(Object.keys(response.json())).toEqual(Object.keys(plain.json()));
  });

  it('the quote is exactly the plain one (a read-only route shows it best)', async () => {
    const plain = await post(RATES, QUOTE);
    const response = await post(RATES, { weight: 99_999, ...QUOTE, zone: 'E', cod_amount: 5 });
    expect(response.json()).toEqual(plain.json());
    expect(response.headers[IGNORED]).toBe('weight, zone, cod_amount');
  });

  it('names a nested field by its dotted path: warehouse address_attributes.landmark', async () => {
    const body = warehouseBody();
    const response = await post(WAREHOUSE, { ...body, address_attributes: { ...body.address_attributes, landmark: 'Near metro' } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers[IGNORED]).toBe('address_attributes.landmark');
  });

  it('names fields inside array items by index: order_items.0.colour, order_items.1.size', async () => {
    const body = orderBody(warehouseId);
    const [item] = body.order_items as Record<string, unknown>[];
    const response = await post(FORWARD_ORDER, {
      ...body,
      order_items: [
        { ...item, colour: 'blue' },
        { ...item, sku: 'KURTA-L-BLUE', size: 'L' },
      ],
      sub_total: 1996,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers[IGNORED]).toBe('order_items.0.colour, order_items.1.size');
  });

  it('a multipart store names an unknown text part', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: STORES,
      ...multipart(apiKey, [
        { name: 'store_name', value: storeName() },
        { name: 'channel', value: 'shopify' },
      ]),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.channel).toBe('manual_order');
    expect(response.headers[IGNORED]).toBe('channel');
  });

  it('names them on a 400 caused by another field, which is still refused exactly', async () => {
    const message = 'dead_weight must be a number greater than 0 and at most 500000 (grams)';
    const response = await post(RATES, { ...QUOTE, dead_weight: 'ten', idempotency_key: 'k-2' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('dead_weight', message));
    expect(response.headers[IGNORED]).toBe('idempotency_key');

    const body = warehouseBody();
    const before = await countRows(ctx.database, 'warehouses');
    const refused = await post(WAREHOUSE, {
      ...body,
      phone_number: '12345',
      address_attributes: { ...body.address_attributes, landmark: 'Near metro' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(fieldError('phone_number', 'phone_number must be a valid Indian phone number (10 digits)'));
    expect(refused.headers[IGNORED]).toBe('address_attributes.landmark');
    expect(await countRows(ctx.database, 'warehouses')).toBe(before);
  });

  it('names them on answers the service refuses too (422 taken name, 404 unknown store)', async () => {
    const name = storeName();
    expect((await post(STORES, { store_name: name })).statusCode).toBe(201);
    const taken = await post(STORES, { store_name: name, colour: 'red' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual(fieldError('store_name', 'Store name has already been taken'));
    expect(taken.headers[IGNORED]).toBe('colour');

    const unknown = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/00000000-0000-4000-8000-000000000000`,
      headers: authed(apiKey),
      payload: { brand_name: 'Acme', colour: 'red' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Store not found', errors: ['Store not found'] });
    expect(unknown.headers[IGNORED]).toBe('colour');
  });

  it('sends no header when nothing was ignored, on a success or a refusal', async () => {
    const ok = await post(RATES, QUOTE);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers).not.toHaveProperty(IGNORED);
    const refused = await post(RATES, { ...QUOTE, dead_weight: 'ten' });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers).not.toHaveProperty(IGNORED);
    // Checked before the body is read, so nothing is named.
    const anonymous = await post(STORES, { store_name: storeName(), colour: 'red' }, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers).not.toHaveProperty(IGNORED);
  });
});

describe('the header stays a safe, bounded header', () => {
  it.each([
    ['Devanagari', 'रंग', '%E0%A4%B0%E0%A4%82%E0%A4%97'],
    ['an accented letter', 'café', 'caf%C3%A9'],
    ['an emoji', 'tag😀', 'tag%F0%9F%98%80'],
    ['a space', 'gift wrap', 'gift%20wrap'],
    ['a comma', 'a,b', 'a%2Cb'],
    ['a semicolon', 'a;b', 'a%3Bb'],
    ['a double quote', 'say"hi', 'say%22hi'],
    ['a colon', 'x:y', 'x%3Ay'],
    ['a percent sign', '100%', '100%25'],
    ['a line feed', 'line\nbreak', 'line%0Abreak'],
    ['a carriage return and line feed', 'x\r\nSet-Cookie: a=b', 'x%0D%0ASet-Cookie%3A%20a%3Db'],
    ['a NUL', 'nul\u0000byte', 'nul%00byte'],
    ['a tab', 'tab\there', 'tab%09here'],
    ['a DEL', 'del\u007f', 'del%7F'],
    ['the empty name', '', ''],
  ])('a field named with %s is percent-encoded, never a 500', async (_label, name, encoded) => {
    const response = await post(RATES, { ...QUOTE, [name]: 1 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers[IGNORED]).toBe(encoded);
  });

  it.each([['idempotency_key'], ['foo[]'], ['a.b'], ['x-y_Z9']])('a plain name (%s) is sent as it is', async (name) => {
    const response = await post(RATES, { ...QUOTE, [name]: 1 });
    expect(response.statusCode).toBe(200);
    expect(response.headers[IGNORED]).toBe(name);
  });

  it('encodes each name on its own, nested paths included, and keeps the separator unambiguous', async () => {
    const body = warehouseBody();
    const response = await post(WAREHOUSE, {
      ...body,
      'a, b': 1,
      plain: 2,
      address_attributes: { ...body.address_attributes, 'पता 2': 'x' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers[IGNORED]).toBe('address_attributes.%E0%A4%AA%E0%A4%A4%E0%A4%BE%202, a%2C%20b, plain');
  });

  const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, i]));
  const named = (count: number) => Array.from({ length: count }, (_, i) => `f${i}`).join(', ');

  it.each([
    [1, 'f0'],
    [20, named(20)],
    [21, `${named(20)}, ... (1 more)`],
    [25, `${named(20)}, ... (5 more)`],
    [1000, `${named(20)}, ... (980 more)`],
  ])('%s ignored fields: at most 20 are named, the rest counted', async (count, header) => {
    const response = await post(RATES, { ...QUOTE, ...fields(count) });
    expect(response.statusCode).toBe(200);
    expect(response.headers[IGNORED]).toBe(header);
  });

  it('a lone UTF-16 surrogate in a name is encoded as U+FFFD, never a 500', async () => {
    const response = await postText(RATES, JSON.stringify(QUOTE).replace('{', '{"\\ud800x":1,'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers[IGNORED]).toBe('%EF%BF%BDx');
  });

  it('cuts a name past 100 characters, and keeps the header within 1 KiB whatever the names', async () => {
    const long = 'x'.repeat(20_000);
    const one = await post(RATES, { ...QUOTE, [long]: 1 });
    expect(one.statusCode).toBe(200);
    expect(one.headers[IGNORED]).toBe(`${'x'.repeat(100)}...`);

    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}`.padStart(3, '0') + 'y'.repeat(5_000), i]));
    const response = await post(RATES, { ...QUOTE, ...many });
    expect(response.statusCode).toBe(200);
    const header = String(response.headers[IGNORED]);
    expect(header.length).toBeLessThanOrEqual(1024 + ', ... (20 more)'.length);
    // Each cut name is 103 characters; nine fit in 1 KiB with their separators, the rest are counted.
    const names = Array.from({ length: 9 }, (_, i) => `${`${i}`.padStart(3, '0')}${'y'.repeat(97)}...`);
    expect(header).toBe(`${names.join(', ')}, ... (11 more)`);
  });

  it('counts nested fields toward the 20 as well', async () => {
    const body = warehouseBody();
    const response = await post(WAREHOUSE, { ...fields(19), ...body, address_attributes: { ...body.address_attributes, ...fields(3) } });
    expect(response.statusCode).toBe(201);
    expect(response.headers[IGNORED]).toBe(`${named(19)}, address_attributes.f0, ... (2 more)`);
  });
});

describe('an ignored field changes nothing that is stored', () => {
  it('a store: the row is the one a plain request makes, whatever the ignored fields are called', async () => {
    const plain = await post(STORES, { store_name: 'stored-plain', brand_name: 'Acme' });
    const noisy = await post(STORES, {
      id: '00000000-0000-4000-8000-000000000000',
      store_name: 'stored-noisy',
      brand_name: 'Acme',
      status: 'disconnected',
      channel: 'shopify',
      logo_url: 'https://evil.example/logo.png',
      created_at: '2020-01-01T00:00:00Z',
    });
    expect(noisy.statusCode, noisy.body).toBe(201);
    expect(noisy.headers[IGNORED]).toBe('id, status, channel, logo_url, created_at');
    const differing = ['id', 'store_name'];
    expect(await storedRow('stores', noisy.json().data.id, differing)).toEqual(await storedRow('stores', plain.json().data.id, differing));
    expect(noisy.json().data.id).not.toBe('00000000-0000-4000-8000-000000000000');
  });

  it('a warehouse: the row and the GET answer are those of a plain request', async () => {
    const body = warehouseBody();
    const plain = (await post(WAREHOUSE, body)).json().payload.warehouse_id;
    const noisy = await post(WAREHOUSE, {
      ...body,
      pincode: '400001',
      is_default: true,
      address_attributes: { ...body.address_attributes, landmark: 'Near metro', zip_code: '400001' },
    });
    expect(noisy.statusCode, noisy.body).toBe(201);
    const id = noisy.json().payload.warehouse_id;
    expect(await storedRow('warehouses', id, ['id'])).toEqual(await storedRow('warehouses', plain, ['id']));
    const get = async (warehouse: string) => {
      const { id: _id, ...rest } = (await ctx.app.inject({ method: 'GET', url: `${WAREHOUSES}/${warehouse}`, headers: authed(apiKey) })).json().data;
      return rest;
    };
    expect(await get(id)).toEqual(await get(plain));
  });

  it('an order: its row and its items are those of a plain request', async () => {
    const plain = await post(FORWARD_ORDER, orderBody(warehouseId));
    expect(plain.statusCode, plain.body).toBe(200);
    const body = orderBody(warehouseId);
    const [item] = body.order_items as Record<string, unknown>[];
    const noisy = await post(FORWARD_ORDER, {
      ...body,
      idempotency_key: 'k-3',
      cod_amount: 5000,
      customer_notes: 'Leave at the door',
      order_items: [{ ...item, colour: 'blue', weight: 9 }],
    });
    expect(noisy.statusCode, noisy.body).toBe(200);
    expect(noisy.headers[IGNORED]).toBe('order_items.0.colour, order_items.0.weight, idempotency_key, cod_amount, customer_notes');
    const [plainId, noisyId] = [plain.json().payload.order_id, noisy.json().payload.order_id];
    const differing = ['id', 'merchant_order_id'];
    expect(await storedRow('orders', noisyId, differing)).toEqual(await storedRow('orders', plainId, differing));
    expect(await storedItems(noisyId)).toEqual(await storedItems(plainId));
  });
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
      expect(await ids({ per_page: 2, search_after: [Number(first[0]), first[1]] })).toEqual(await ids({ per_page: 2, search_after: first }));
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
    [RATES, { ...QUOTE, journey_type: 'return', qc_applicable: 1 }, 'qc_applicable', 'qc_applicable must be of type boolean'],
    [RATES, { ...QUOTE, journey_type: 'return', qc_applicable: 0 }, 'qc_applicable', 'qc_applicable must be of type boolean'],
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
    expect(response.json()).toEqual(fieldError('phone_number', 'phone_number must be a valid Indian phone number (10 digits)'));
  });

  it.each([['1e400'], ['1e21'], ['1.5e-7']])("a number whose text is not a plain decimal (%s) is not read as text: 400 naming the field", async (literal) => {
    const response = await postText(STORES, `{"store_name": ${literal}}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('store_name', 'store_name must be 1 to 64 characters of letters, digits and hyphens only'));
  });

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
    const response = await post(WAREHOUSE, { ...body, address_attributes: { ...body.address_attributes, zip: 110001 } });
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
    const response = await ctx.app.inject({ method: 'POST', url: '/admin/v1/accounts', headers: admin, payload: { name: 'Strict', colour: 'red' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('colour', 'colour is not a known field'));
    expect(response.headers).not.toHaveProperty(IGNORED);
    expect(await countRows(ctx.database, 'accounts')).toBe(before);
  });

  it('/admin/v1/carrier-tokens reads no number as text (400)', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/admin/v1/carrier-tokens', headers: admin, payload: { carrier_id: 12 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError('carrier_id', 'carrier_id must be of type string'));
  });

  it('/carrier/v1/tracking-events refuses an unknown field, top-level or in an event (400)', async () => {
    const issued = await ctx.app.inject({ method: 'POST', url: '/admin/v1/carrier-tokens', headers: admin, payload: { carrier_id: 'CARDELHSURF01' } });
    expect(issued.statusCode).toBe(201);
    const headers = authed(`Bearer ${issued.json().token}`);
    const event = { awb: 'DLS0000000001', status: 'in_transit', event_time: '2026-11-20T10:00:00+05:30' };
    const inEvent = await ctx.app.inject({ method: 'POST', url: '/carrier/v1/tracking-events', headers, payload: { events: [{ ...event, colour: 'red' }] } });
    expect(inEvent.statusCode).toBe(400);
    expect(inEvent.json()).toEqual(fieldError('events.0.colour', 'events.0.colour is not a known field'));
    expect(inEvent.headers).not.toHaveProperty(IGNORED);
    const topLevel = await ctx.app.inject({ method: 'POST', url: '/carrier/v1/tracking-events', headers, payload: { events: [event], batch: 1 } });
    expect(topLevel.statusCode).toBe(400);
    expect(topLevel.json()).toEqual(fieldError('batch', 'batch is not a known field'));
  });
});
