import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../test/app.js';
import { authed, FORWARD_ORDER, ORCHESTRATE, SHIPMENTS, V1, WAREHOUSE } from '../../test/kit/http.js';
import { nextOrderId, orderBody } from '../../test/kit/orders.js';
import { warehouseBody } from '../../test/kit/warehouses.js';
import { IGNORED, unknownField, useLenientInputApp } from '../../test/lenient-input.js';

// Issue 46, "the first hour": a typo'd field was named only in Dakiya-Ignored-Fields, so a body
// with "billing_pincod" was told "billing_pincode is required" by someone who thought they sent
// it. Now the answer's body names each unknown field with the known one nearest to its name: a
// 400 after its own problems, a success in `warnings`.

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
const { post } = useLenientInputApp((app, key, warehouse) => {
  ctx = app;
  apiKey = key;
  warehouseId = warehouse;
});

describe('a 400 names the unknown fields after its problems', () => {
  it('forward-order with billing_pincod: billing_pincode is required, and billing_pincod was ignored (did you mean billing_pincode?)', async () => {
    const { billing_pincode: pincode, ...body } = orderBody(warehouseId);
    const response = await post(FORWARD_ORDER, { ...body, billing_pincod: pincode });
    expect(response.statusCode).toBe(400);
    const required = 'billing_pincode is required';
    const typo = 'billing_pincod is not a field of this request and was ignored; did you mean billing_pincode?';
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message: required,
      errors: [required, typo],
      details: [
        { field: 'billing_pincode', message: required },
        { field: 'billing_pincod', message: typo },
      ],
    });
    expect(response.headers[IGNORED]).toBe('billing_pincod');
  });

  it('lists the first 20 and counts the rest, each name cut at 100 characters', async () => {
    const junk = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`junk_${i}_${'x'.repeat(120)}`, i]));
    const response = await post(WAREHOUSE, { ...warehouseBody(), phone_number: '12345', ...junk });
    expect(response.statusCode).toBe(400);
    const { errors, details } = response.json() as { errors: string[]; details: { field: string }[] };
    expect(errors[0]).toBe('phone_number must be a valid Indian phone number (10 digits)');
    expect(details).toHaveLength(1 + 21);
    const cut = (i: number) => `junk_${i}_${'x'.repeat(100 - `junk_${i}_`.length)}...`;
    expect(details[1]).toEqual(unknownField(cut(0)));
    expect(details[20]).toEqual(unknownField(cut(19)));
    expect(details[21]).toEqual({
      field: cut(20),
      message: `${cut(20)} and 4 more fields this request does not know were ignored`,
    });
    expect(errors.slice(1)).toEqual(details.slice(1).map((d) => (d as unknown as { message: string }).message));
  });
});

describe('a success names them in warnings', () => {
  it('a warehouse with contact_persn and notes: 201, each named, the nearest known name where there is one', async () => {
    const { contact_person: person, ...body } = warehouseBody({ name: 'Bhiwandi Hub' });
    const response = await post(WAREHOUSE, { ...body, contact_persn: person, notes: 'gate 2' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      payload: { warehouse_id: expect.any(String) },
      warnings: [unknownField('contact_persn', 'contact_person'), unknownField('notes')],
    });
  });

  it("the listing's answer, which the database writes as text, gets them too (serch: did you mean search?)", async () => {
    const response = await post(SHIPMENTS, { per_page: 1, serch: 'Asha' });
    expect(response.statusCode, response.body).toBe(200);
    const { data, meta, warnings } = response.json();
    expect([Array.isArray(data), typeof meta]).toEqual([true, 'object']);
    expect(warnings).toEqual([unknownField('serch', 'search')]);
  });

  it('an idempotent booking: the answer and its replay name them alike; payload.warnings stays its own', async () => {
    const orderId = nextOrderId('UNK');
    const body = { ...orderBody(warehouseId, { order_id: orderId }), pickup_location: 'HomeNew' };
    const headers = { ...authed(apiKey), 'idempotency-key': `unknown-fields-${orderId}` };
    const send = () => ctx.app.inject({ method: 'POST', url: ORCHESTRATE, headers, payload: { ...body, wieght: 0.5 } });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const answer = first.json();
    expect(answer.warnings).toEqual([unknownField('wieght', 'weight')]);
    // The pickup_location mismatch is the booking's own warning, where Velocity's clients read it.
    expect(answer.payload.warnings.map((w: { field: string }) => w.field)).toEqual(['pickup_location']);
    const replay = await send();
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toBe(first.body);
  });

  it("follows an answer's own top-level warnings (an allocation rule's overlaps)", async () => {
    const rules = `${V1}/allocation/rules`;
    const rule = { name: 'Cheapest', priority: 1, strategy: 'cheapest' };
    expect((await post(rules, rule)).statusCode).toBe(201);
    const response = await post(rules, { ...rule, name: 'Cheapest again', priority: 2, stratgy: 'fastest' });
    expect(response.statusCode, response.body).toBe(201);
    const { warnings } = response.json() as { warnings: { field: string; message: string }[] };
    expect(warnings.length).toBeGreaterThan(1);
    expect(warnings.at(-1)).toEqual(unknownField('stratgy', 'strategy'));
    expect(warnings.slice(0, -1).every((w) => !w.message.includes('was ignored'))).toBe(true);
  });
});

describe('the document', () => {
  it('states warnings on the successes of lenient routes, and says how a 400 names unknown fields', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const success = document.paths[FORWARD_ORDER].post.responses['200'].content['application/json'].schema;
    expect(success.properties.warnings).toMatchObject({ type: 'array' });
    expect(success.properties.warnings.description).toMatch(/did you mean billing_pincode\?/);
    expect(document.components.schemas.ErrorBody.properties.details.description).toMatch(/nearest to its name/);
  });
});
