import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../test/app.js';
import {
  AUTH_TOKEN,
  authed,
  FORWARD_ORDER,
  RATES,
  SERVICEABILITY,
  SHIPMENTS,
  STORES,
  V1,
  WAREHOUSE,
  WAREHOUSES,
} from '../../test/kit/http.js';
import { orderBody } from '../../test/kit/orders.js';
import { countRows } from '../../test/kit/rows.js';
import { multipart } from '../../test/kit/uploads.js';
import { warehouseBody } from '../../test/kit/warehouses.js';
import {
  fieldError,
  IGNORED,
  PASSWORD,
  QUOTE,
  unknownField,
  useLenientInputApp,
  USERNAME,
  withUnknown,
} from '../../test/lenient-input.js';

// Issue 10, across routes: on /custom/api/v1 an unknown body field is dropped, named in
// Dakiya-Ignored-Fields (a header that stays safe and bounded), and changes nothing that is stored.
// How values of another JSON type are read is in lenient-input-types.once.test.ts.

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
const { storeName, post, postText, storedRow, storedItems } = useLenientInputApp((app, key, warehouse) => {
  ctx = app;
  apiKey = key;
  warehouseId = warehouse;
});

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

  it.each(routes)('%s answers as without them, and only then names them', async (url, body, status) => {
    const plain = await post(url, body());
    expect(plain.statusCode, plain.body).toBe(status);
    expect(plain.headers[IGNORED]).toBeUndefined();
    expect(plain.json()).not.toHaveProperty('warnings');
    const response = await post(url, { ...body(), idempotency_key: 'k-1', x_custom: { nested: [1, 2] } });
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers[IGNORED]).toBe('idempotency_key, x_custom');
    const { warnings, ...answer } = response.json();
    expect(Object.keys(answer)).toEqual(Object.keys(plain.json()));
    expect(warnings).toEqual([unknownField('idempotency_key'), unknownField('x_custom')]);
  });

  it('the quote is exactly the plain one (a read-only route shows it best), its warnings apart', async () => {
    const plain = await post(RATES, QUOTE);
    const response = await post(RATES, { weight: 99_999, ...QUOTE, zone: 'E', cod_amount: 5 });
    const { warnings, ...answer } = response.json();
    expect(answer).toEqual(plain.json());
    expect(response.headers[IGNORED]).toBe('weight, zone, cod_amount');
    expect(warnings).toEqual([unknownField('weight', 'dead_weight'), unknownField('zone'), unknownField('cod_amount')]);
  });

  it('names a nested field by its dotted path: warehouse address_attributes.landmark', async () => {
    const body = warehouseBody();
    const response = await post(WAREHOUSE, {
      ...body,
      address_attributes: { ...body.address_attributes, landmark: 'Near metro' },
    });
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
    expect(response.json().warnings).toEqual([
      unknownField('order_items.0.colour'),
      unknownField('order_items.1.size'),
    ]);
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
    expect(response.json().warnings).toEqual([unknownField('channel')]);
  });

  it('names them on a 400 caused by another field, which is still refused exactly, after its problems', async () => {
    const message = 'dead_weight must be a number greater than 0 and at most 500000 (grams)';
    const response = await post(RATES, { ...QUOTE, dead_weight: 'ten', idempotency_key: 'k-2' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(withUnknown(fieldError('dead_weight', message), unknownField('idempotency_key')));
    expect(response.headers[IGNORED]).toBe('idempotency_key');

    const body = warehouseBody();
    const before = await countRows(ctx.database, 'warehouses');
    const refused = await post(WAREHOUSE, {
      ...body,
      phone_number: '12345',
      address_attributes: { ...body.address_attributes, landmark: 'Near metro' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(
      withUnknown(
        fieldError('phone_number', 'phone_number must be a valid Indian phone number (10 digits)'),
        unknownField('address_attributes.landmark'),
      ),
    );
    expect(refused.headers[IGNORED]).toBe('address_attributes.landmark');
    expect(await countRows(ctx.database, 'warehouses')).toBe(before);
  });

  it('names them on answers the service refuses too (422 taken name, 404 unknown store)', async () => {
    const name = storeName();
    expect((await post(STORES, { store_name: name })).statusCode).toBe(201);
    const taken = await post(STORES, { store_name: name, colour: 'red' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual(fieldError('store_name', 'Store name has already been taken', 'store_name_taken'));
    expect(taken.headers[IGNORED]).toBe('colour');

    const unknown = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/00000000-0000-4000-8000-000000000000`,
      headers: authed(apiKey),
      payload: { brand_name: 'Acme', colour: 'red' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      code: 'store_not_found',
      message: 'Store not found',
      errors: ['Store not found'],
    });
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

    const many = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`${i}`.padStart(3, '0') + 'y'.repeat(5_000), i]),
    );
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
    const response = await post(WAREHOUSE, {
      ...fields(19),
      ...body,
      address_attributes: { ...body.address_attributes, ...fields(3) },
    });
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
    expect(await storedRow('stores', noisy.json().data.id, differing)).toEqual(
      await storedRow('stores', plain.json().data.id, differing),
    );
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
      const { id: _id, ...rest } = (
        await ctx.app.inject({ method: 'GET', url: `${WAREHOUSES}/${warehouse}`, headers: authed(apiKey) })
      ).json().data;
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
    expect(noisy.headers[IGNORED]).toBe(
      'order_items.0.colour, order_items.0.weight, idempotency_key, cod_amount, customer_notes',
    );
    const [plainId, noisyId] = [plain.json().payload.order_id, noisy.json().payload.order_id];
    const differing = ['id', 'merchant_order_id'];
    expect(await storedRow('orders', noisyId, differing)).toEqual(await storedRow('orders', plainId, differing));
    expect(await storedItems(noisyId)).toEqual(await storedItems(plainId));
  });
});
