import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestContext } from '../../test/app.js';
import { SHADOWFAX } from '../../test/kit/couriers.js';
import { V1 } from '../../test/kit/http.js';
import { orderBodyFromFields } from '../../test/kit/orders.js';
import { issueCarrierToken } from '../../test/kit/tracking.js';
import { formData, png } from '../../test/kit/uploads.js';
import { createCityWarehouse } from '../../test/kit/warehouses.js';
import { DATE_BOUND_ERROR } from '../readers/shipments/shipments.schemas.js';

// Issue 11: one regression test per cause of a 5xx the fuzz suite (test/fuzz.test.ts) found, sent
// as it was found, plus the 405 and 414 rules. Each of these answered 500 (or 404) before.

const TEXT = 'must not contain NUL characters or unpaired UTF-16 surrogates';

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
let storeId: string;
let shipmentId: string;
let awb: string;
beforeAll(async () => {
  ctx = await createTestApp();
  apiKey = (await ctx.createAccount('Input Rules', { username: 'input-rules', password: 'input-rules-1' })).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  storeId = (
    await send({
      method: 'POST',
      url: `${V1}/client-stores`,
      payload: { store_name: 'rules', logo: png().toString('base64') },
    })
  ).json().data.id;
  const booked = await send({
    method: 'POST',
    url: `${V1}/forward-order-orchestration`,
    payload: orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }),
  });
  shipmentId = booked.json().payload.shipment_id;
  awb = booked.json().payload.awb_code;
});
afterAll(async () => {
  await ctx.close();
});

function send(request: InjectOptions) {
  return ctx.app.inject({ ...request, headers: { authorization: apiKey, ...request.headers } });
}

async function expect400(request: InjectOptions, fields: string[], message = TEXT) {
  const response = await send(request);
  expect(response.statusCode, response.body).toBe(400);
  const messages = fields.map((field) => `${field} ${message}`);
  expect(response.json()).toEqual({
    code: 'invalid_request',
    message: messages[0],
    errors: messages,
    details: fields.map((field, i) => ({ field, message: messages[i] })),
  });
}

describe('text that no value may hold (NUL, a lone UTF-16 surrogate): 400 naming the field, on every kind of input', () => {
  it('in a JSON body, on a route without a credential', async () => {
    await expect400(
      { method: 'POST', url: `${V1}/auth-token`, payload: { username: '\u0000fJkA', password: 'input-rules-1' } },
      ['username'],
    );
    await expect400(
      { method: 'POST', url: `${V1}/auth-token`, payload: { username: 'input\udc00rules', password: 'input-rules-1' } },
      ['username'],
    );
  });

  it('nested in a JSON body, and every such field at once', async () => {
    const body = {
      name: 'Hub',
      phone_number: '9876543210',
      address_attributes: {
        street_address: '!,\u0000$',
        zip: '110001',
        city: 'New\ud800 Delhi',
        state: 'Delhi',
        country: 'India',
      },
    };
    await expect400({ method: 'POST', url: `${V1}/warehouse`, payload: body }, [
      'address_attributes.street_address',
      'address_attributes.city',
    ]);
  });

  it('in an order, which then is not written', async () => {
    await expect400(
      {
        method: 'POST',
        url: `${V1}/forward-order`,
        payload: { ...orderBodyFromFields(warehouseId), billing_customer_name: 'x\udfffy' },
      },
      ['billing_customer_name'],
    );
    await expect400(
      {
        method: 'POST',
        url: `${V1}/forward-order`,
        payload: { ...orderBodyFromFields(warehouseId), company_name: 'Acme\u0000' },
      },
      ['company_name'],
    );
    const listed = await send({ method: 'POST', url: `${V1}/shipments`, payload: {} });
    expect(listed.json().meta.total).toBe(1);
  });

  it('in an array item', async () => {
    await expect400({ method: 'POST', url: `${V1}/order-tracking`, payload: { awbs: ['udmaafpnmU\u0000'] } }, [
      'awbs.0',
    ]);
  });

  it('in a store update and in a multipart field', async () => {
    await expect400({ method: 'PUT', url: `${V1}/client-stores/${storeId}`, payload: { brand_name: 'a\u0000b' } }, [
      'brand_name',
    ]);
    const form = formData([
      { name: 'store_name', value: 'multi' },
      { name: 'brand_name', value: 'a\u0000b' },
    ]);
    await expect400(
      { method: 'POST', url: `${V1}/client-stores`, ...form, headers: { ...form.headers, authorization: apiKey } },
      ['brand_name'],
    );
  });

  it('in a query string and in a path parameter', async () => {
    await expect400({ method: 'GET', url: `/public/v1/store-logos/${storeId}?v=a%00` }, ['v']);
    await expect400(
      {
        method: 'DELETE',
        url: '/admin/v1/api-keys/c183e7b4-9411%00',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      },
      ['key_prefix_or_id'],
    );
    await expect400({ method: 'GET', url: `${V1}/client-stores/${storeId.slice(0, 30)}%00` }, ['id']);
  });

  it('a lone surrogate in a URL is not UTF-8: 400, malformed URL', async () => {
    const response = await send({ method: 'GET', url: `${V1}/warehouses/82ec5acc-8e07-48ed-90d%ED%B0%809-35f202e` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'malformed_url',
      message: 'Malformed URL: invalid percent-encoding',
      errors: ['Malformed URL: invalid percent-encoding'],
    });
  });

  it('well-formed text outside the Basic Multilingual Plane is taken', async () => {
    const response = await send({
      method: 'PUT',
      url: `${V1}/client-stores/${storeId}`,
      payload: { brand_name: 'Rules 𓂀 😀' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.brand_name).toBe('Rules 𓂀 😀');
  });
});

describe('every number a route takes is bounded: 400, not an out-of-range value in a query', () => {
  const list = (payload: object) => ({ method: 'POST' as const, url: `${V1}/shipments`, payload });

  it.each([
    ['attempts_count__gte', 5_715_761_616_368_806],
    ['attempts_count__lte', 2 ** 31],
  ])('%s %d', async (field, value) => {
    await expect400(list({ [field]: value }), [field], 'must be <= 1000');
  });

  it('applied weights', async () => {
    await expect400(list({ applied_weight_max: 1e308 }), ['applied_weight_max'], 'must be <= 100000000');
  });

  it('a pincode sent as a number', async () => {
    const body = { ...orderBodyFromFields(warehouseId), vendor_details: { name: 'Vendor', pin_code: 1e15 } };
    const response = await send({ method: 'POST', url: `${V1}/forward-order`, payload: body });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { field: 'vendor_details.pin_code', message: 'vendor_details.pin_code must be <= 2147483647' },
    ]);
  });
});

// PostgreSQL reads timestamps written with four-digit years; JavaScript writes years past 9999 as
// +010000 and the year before 1 as 0000, which no query can take.
describe('every instant a route takes lies in the years 1 to 9999', () => {
  const list = (payload: object) => ({ method: 'POST' as const, url: `${V1}/shipments`, payload });
  const INSTANT = 'must be an instant in the years 1 to 9999';

  it.each([
    ['created_at__gte', 999_999_999_999, INSTANT],
    ['start_time', 999_999_999_999, INSTANT],
    ['end_time', 253_402_300_800, INSTANT],
    ['delivered_at__lte', '9999-12-31T23:59:59-12:00', DATE_BOUND_ERROR],
  ])('a listing filter: %s %s', async (field, value, message) => {
    await expect400(list({ [field]: value }), [field], message);
  });

  it('the furthest instants they take', async () => {
    for (const body of [
      { created_at__lte: '99999999999999' },
      { end_time: 253_402_300_799 },
      { created_at__gte: '1000-01-02' },
    ]) {
      const response = await send(list(body));
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it('a listing cursor', async () => {
    await expect400(list({ search_after: ['999999999999999', shipmentId] }), ['search_after.0'], INSTANT);
    const response = await send(list({ search_after: ['253402300799999', shipmentId] }));
    expect(response.statusCode, response.body).toBe(200);
  });

  it('a courier scan', async () => {
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/carrier/v1/tracking-events',
      headers: { authorization: `Bearer ${token}` },
      payload: { events: [{ awb, status: 'in_transit', event_time: '9999-12-31T23:59:59-12:00' }] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toEqual([
      {
        awb,
        accepted: false,
        error: 'event_time must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-20T14:30:00+05:30',
      },
    ]);
  });

  it.each(['0000-06-01 10:00', '9999-12-31T23:59:59-12:00'])('an order date: %s', async (orderDate) => {
    await expect400(
      { method: 'POST', url: `${V1}/forward-order`, payload: orderBodyFromFields(warehouseId, { orderDate }) },
      ['order_date'],
      'must be YYYY-MM-DD HH:MM, YYYY-MM-DD or an ISO 8601 timestamp',
    );
  });
});

describe('routing', () => {
  it('a method a known path does not take: 405 with Allow, in the error envelope, before any credential check', async () => {
    const cases: [InjectOptions['method'], string, string][] = [
      ['POST', '/healthz', 'GET, HEAD'],
      ['PATCH', `${V1}/client-stores/${storeId}`, 'GET, HEAD, PUT, DELETE'],
      ['DELETE', `${V1}/client-stores`, 'GET, HEAD, POST'],
      ['GET', `${V1}/shipments`, 'POST'],
    ];
    for (const [method, url, allow] of cases) {
      const response = await ctx.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers.allow).toBe(allow);
      const message = `Method ${method} is not allowed on ${url}: use ${allow}`;
      expect(response.json()).toEqual({ code: 'method_not_allowed', message, errors: [message] });
    }
  });

  it('an unknown path is still a 404', async () => {
    const response = await ctx.app.inject({ method: 'PATCH', url: `${V1}/client-stores/${storeId}/logo` });
    expect(response.statusCode).toBe(404);
  });

  it('documents 400 on every route that takes input, 414 on every route with a path parameter and 503 on every route but /healthz', async () => {
    const spec = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, methods] of Object.entries<
      Record<string, { parameters?: unknown[]; requestBody?: unknown; responses: object }>
    >(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const codes = Object.keys(operation.responses);
        if (operation.parameters?.length || operation.requestBody) expect(codes, `${method} ${path}`).toContain('400');
        expect(codes.includes('414'), `${method} ${path}`).toBe(path.includes('{'));
        // Every route but liveness reaches the database, which may not answer.
        expect(codes.includes('503'), `${method} ${path}`).toBe(path !== '/healthz');
      }
    }
  });
});
