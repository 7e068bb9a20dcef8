import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';

// POST /return-requests and GET /return-requests/{id}: the contract a merchant's support desk
// codes against (the rules themselves: return-requests.test.ts).

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const REQUESTS = `${V1}/return-requests`;

async function deliveredOrder() {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `desk-${m.id.slice(0, 8)}` });
  const policy = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: { window_days: 10, reasons: ['size_issue'], non_returnable_skus: [], non_returnable_categories: [] },
  });
  expect(policy.statusCode).toBe(200);
  const forward = await deliveredForward(ctx, m, { storeName: store.store_name, lastName: 'Menon' });
  return { m, store, forward };
}

const file = (apiKey: string, payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url: REQUESTS, headers: { ...authed(apiKey), ...headers }, payload });

describe('POST /return-requests', () => {
  it('answers 201 with the pending request, which GET /return-requests/{id} shows the same', async () => {
    const { m, store, forward } = await deliveredOrder();
    ctx.clock.set('2026-11-23T04:00:00.000Z');
    const response = await file(m.apiKey, {
      shipment_id: forward.shipment_id,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 2 }],
      reason: 'size_issue',
      resolution: 'exchange',
      exchange_for: 'Size L',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      shipment_id: forward.shipment_id,
      order_id: forward.order_id,
      store_id: store.id,
      status: 'pending',
      items: [{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', quantity: 2 }],
      reason: 'size_issue',
      comment: null,
      resolution: 'exchange',
      exchange_for: 'Size L',
      pickup_address: expect.objectContaining({ name: 'Asha', last_name: 'Menon', pincode: '400001' }),
      language: 'en',
      created_at: '2026-11-23T04:00:00.000Z',
      updated_at: '2026-11-23T04:00:00.000Z',
    });
    const read = await ctx.app.inject({ method: 'GET', url: `${REQUESTS}/${data.id}`, headers: authed(m.apiKey) });
    expect(read.json()).toEqual({ data });
  });

  it('answers 422 naming each refused field in the language asked for, and a repeated Idempotency-Key the first answer', async () => {
    const { m, forward } = await deliveredOrder();
    const body = {
      shipment_id: forward.shipment_id,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'size_issue',
      resolution: 'refund',
    };
    const first = await file(m.apiKey, body, { 'idempotency-key': 'desk-call-1' });
    expect(first.statusCode).toBe(201);
    const replay = await file(m.apiKey, body, { 'idempotency-key': 'desk-call-1' });
    expect(replay.json()).toEqual(first.json());

    const refused = await file(m.apiKey, { ...body, items: [{ sku: 'KURTA-M-BLUE', quantity: 5 }], language: 'hi' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'return_request_refused',
      details: [{ field: 'items[0].sku', message: 'Cotton Kurta की वापसी का अनुरोध पहले से जाँच में है।' }],
    });
  });

  it('takes an exchange not yet said what for, and answers 404 for a shipment or request of another account', async () => {
    const { m, forward } = await deliveredOrder();
    const stranger = await ctx.createAccount();
    const body = {
      shipment_id: forward.shipment_id,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'size_issue',
      resolution: 'exchange',
    };
    const theirs = await file(stranger.apiKey, { ...body, exchange_for: 'Size L' });
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, 'return_request_shipment_not_found']);
    const made = (await file(m.apiKey, body)).json().data;
    expect(made).toMatchObject({ resolution: 'exchange', exchange_for: null });
    for (const id of [made.id, UNKNOWN_ID, 'not-an-id']) {
      const read = await ctx.app.inject({ method: 'GET', url: `${REQUESTS}/${id}`, headers: authed(stranger.apiKey) });
      expect([read.statusCode, read.json().code]).toEqual([404, 'return_request_not_found']);
    }
  });
});
