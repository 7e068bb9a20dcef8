import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { authed, STORES, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// POST /return-requests and GET /return-requests/{id}: the contract a merchant's support desk
// codes against (the rules themselves: return-requests.once.test.ts).

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
      refund_to: null,
      pickup_address: expect.objectContaining({ name: 'Asha', last_name: 'Menon', pincode: '400001' }),
      photos: [],
      language: 'en',
      decision_note: null,
      decided_by: null,
      decision_rule: null,
      return_id: null,
      exchange_id: null,
      created_at: '2026-11-23T04:00:00.000Z',
      updated_at: '2026-11-23T04:00:00.000Z',
      decided_at: null,
    });
    // Read back with the buyer's record beside it: one delivered order, no other request.
    const read = await ctx.app.inject({ method: 'GET', url: `${REQUESTS}/${data.id}`, headers: authed(m.apiKey) });
    expect(read.json()).toEqual({
      data: {
        ...data,
        buyer_history: { delivered: 1, rto: 0, refused: 0, other_return_requests: 0, other_returns_approved: 0 },
      },
    });
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

describe('POST /return-requests/{id}/approve and /reject', () => {
  const decide = (apiKey: string, id: string, verb: 'approve' | 'reject', payload?: object) =>
    ctx.app.inject({
      method: 'POST',
      url: `${REQUESTS}/${id}/${verb}`,
      headers: authed(apiKey),
      ...(payload && { payload }),
    });
  const request = async (m: { apiKey: string }, shipmentId: string, quantity = 1) =>
    (
      await file(m.apiKey, {
        shipment_id: shipmentId,
        items: [{ sku: 'KURTA-M-BLUE', quantity }],
        reason: 'size_issue',
        resolution: 'refund',
      })
    ).json().data;

  it("approves by booking the return from the buyer's address to the order's warehouse, linked to the order; once; then the order takes no more requests", async () => {
    const { m, forward } = await deliveredOrder();
    const made = await request(m, forward.shipment_id, 2);
    ctx.clock.set('2026-11-24T05:00:00.000Z');
    const approved = await decide(m.apiKey, made.id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    const { data } = approved.json();
    expect(data).toMatchObject({
      status: 'approved',
      return_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      decision_note: null,
      decided_by: 'merchant',
      decision_rule: null,
      decided_at: '2026-11-24T05:00:00.000Z',
      updated_at: '2026-11-24T05:00:00.000Z',
    });
    const [booked] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select r.merchant_order_id, r.status, r.forward_shipment_id, r.warehouse_id, r.pickup->>'pincode' as pincode,
            (select json_agg(json_build_object('sku', i.sku, 'units', i.units)) from return_items i where i.return_id = r.id) as items
          from returns r where r.account_id = ${m.id} and r.id = ${data.return_id}`,
    );
    expect(booked).toEqual({
      merchant_order_id: `${forward.channel_order_id}-R-${made.id.slice(0, 8)}`,
      status: 'return_pickup_scheduled',
      forward_shipment_id: forward.shipment_id,
      warehouse_id: m.warehouseId,
      pincode: '400001',
      items: [{ sku: 'KURTA-M-BLUE', units: 2 }],
    });
    for (const verb of ['approve', 'reject'] as const) {
      const again = await decide(m.apiKey, made.id, verb, verb === 'reject' ? { message: 'Too late' } : undefined);
      expect([again.statusCode, again.json().code]).toEqual([409, 'return_request_decided']);
    }
    // A delivered shipment takes one return: the one booked leaves nothing more to ask for.
    const more = await file(m.apiKey, {
      shipment_id: forward.shipment_id,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'size_issue',
      resolution: 'refund',
    });
    expect([more.statusCode, more.json().details]).toEqual([
      422,
      [{ field: 'order', message: 'This order already has a return under way. Please contact the seller.' }],
    ]);
    // Once that return is called off, its units are the buyer's to ask for again.
    await queryRows(ctx.database.db, sql`update returns set status = 'return_cancelled' where id = ${data.return_id}`);
    const again = await file(m.apiKey, {
      shipment_id: forward.shipment_id,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 2 }],
      reason: 'size_issue',
      resolution: 'refund',
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('rejects with the words the buyer is told, and records each step in the event log', async () => {
    const { m, forward } = await deliveredOrder();
    const made = await request(m, forward.shipment_id);
    const rejected = await decide(m.apiKey, made.id, 'reject', { message: 'The tag has been removed.' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({
      status: 'rejected',
      decision_note: 'The tag has been removed.',
      return_id: null,
    });
    const missing = await decide(m.apiKey, made.id, 'reject', {});
    expect([missing.statusCode, missing.json().details]).toEqual([
      400,
      [expect.objectContaining({ field: 'message' })],
    ]);
    await eventsSettled(ctx.database);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/events?type[]=return_request.created&type[]=return_request.rejected`,
      headers: authed(m.apiKey),
    });
    expect(
      listed
        .json()
        .data.map((e: { type: string; data: { return_request: { id: string; status: string } } }) => [
          e.type,
          e.data.return_request.id,
          e.data.return_request.status,
        ]),
    ).toEqual([
      ['return_request.created', made.id, 'pending'],
      ['return_request.rejected', made.id, 'rejected'],
    ]);
  });

  it('leaves the request pending, and books nothing, when the return is refused', async () => {
    const { m, forward } = await deliveredOrder();
    const made = await request(m, forward.shipment_id);
    // A pincode no courier serves for pickups.
    await queryRows(
      ctx.database.db,
      sql`update return_requests set pickup = jsonb_set(pickup, '{pincode}', '"999999"') where id = ${made.id}`,
    );
    const refused = await decide(m.apiKey, made.id, 'approve');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'return_request_unbookable',
      details: [{ field: 'pickup_address', message: expect.stringMatching(/^The return's booking: .*999999/) }],
    });
    const read = await ctx.app.inject({ method: 'GET', url: `${REQUESTS}/${made.id}`, headers: authed(m.apiKey) });
    expect(read.json().data).toMatchObject({ status: 'pending', return_id: null, decided_at: null });
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from returns where account_id = ${m.id}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });
});

describe('POST /return-requests/{id}/approve with QC', () => {
  const refundRequest = async (apiKey: string, shipmentId: string) =>
    (
      await file(apiKey, {
        shipment_id: shipmentId,
        items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
        reason: 'size_issue',
        resolution: 'refund',
      })
    ).json().data;

  it('books a quality-checked pickup with a courier that does them, the items checked against their pictures', async () => {
    const { m, forward } = await deliveredOrder();
    const made = await refundRequest(m.apiKey, forward.shipment_id);
    const approved = await ctx.app.inject({
      method: 'POST',
      url: `${REQUESTS}/${made.id}/approve`,
      headers: authed(m.apiKey),
      payload: {
        qc: { items: [{ sku: 'KURTA-M-BLUE', image_url: 'https://cdn.acme.example/kurta-blue.jpg', size: 'M' }] },
      },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const [booked] = (await queryRows<{ qc_applied: boolean; carrier_id: string }>(
      ctx.database.db,
      sql`select qc_applied, carrier_id from returns where id = ${approved.json().data.return_id}`,
    )) as [{ qc_applied: boolean; carrier_id: string }];
    expect(booked.qc_applied).toBe(true);
    // The QC-capable couriers of the catalogue: Delhivery's and Shadowfax's services.
    expect(['CARDELHSURF01', 'CARDELHAIR001', 'CARSHFXSTD001']).toContain(booked.carrier_id);
  });

  it('refuses a QC item that is not in the request, and a picture that is not a URL, deciding nothing', async () => {
    const { m, forward } = await deliveredOrder();
    const made = await refundRequest(m.apiKey, forward.shipment_id);
    const approve = (qc: object) =>
      ctx.app.inject({
        method: 'POST',
        url: `${REQUESTS}/${made.id}/approve`,
        headers: authed(m.apiKey),
        payload: { qc },
      });
    const stranger = await approve({ items: [{ sku: 'SAREE-RED', image_url: 'https://cdn.acme.example/saree.jpg' }] });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json()).toMatchObject({
      code: 'return_request_unbookable',
      details: [{ field: 'qc.items[0].sku', message: 'is not an item of the request' }],
    });
    const notUrl = await approve({ items: [{ sku: 'KURTA-M-BLUE', image_url: 'kurta.jpg' }] });
    expect(notUrl.statusCode).toBe(400);
    expect(notUrl.json().details).toEqual([
      { field: 'qc.items.0.image_url', message: 'qc.items.0.image_url must be an http(s) URL' },
    ]);
    const read = await ctx.app.inject({ method: 'GET', url: `${REQUESTS}/${made.id}`, headers: authed(m.apiKey) });
    expect(read.json().data.status).toBe('pending');
  });
});
