import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, MINUTE, STORES, V1 } from '../../../test/kit/http.js';
import { shipCod } from '../../../test/kit/cod.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';

// GET /return-requests: the merchant's queue, oldest first, filtered and paged by cursor; only the
// account's own.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const REQUESTS = `${V1}/return-requests`;
type Listed = {
  data: { id: string; status: string; store_id: string }[];
  meta: { next_after: string | null; has_more: boolean };
};

async function storeTakingReturns(m: { apiKey: string }, name: string) {
  const store = await createStore(ctx, m.apiKey, { store_name: name });
  const set = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: { window_days: 30, reasons: ['damaged'], non_returnable_skus: [], non_returnable_categories: [] },
  });
  expect(set.statusCode).toBe(200);
  return store;
}

/** A refund of one damaged kurta of the shipment, asked through the API. */
const askRefund = (apiKey: string, shipmentId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: REQUESTS,
    headers: authed(apiKey),
    payload: {
      shipment_id: shipmentId,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'damaged',
      resolution: 'refund',
    },
  });

const list = async (apiKey: string, query = '') =>
  (await ctx.app.inject({ method: 'GET', url: `${REQUESTS}${query}`, headers: authed(apiKey) })).json() as Listed;

describe('GET /return-requests', () => {
  it("lists the account's requests oldest first, by status, store and shipment, a page at a time", async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const m = await merchant(ctx);
    const kurtas = await storeTakingReturns(m, `kurtas-${m.id.slice(0, 8)}`);
    const sarees = await storeTakingReturns(m, `sarees-${m.id.slice(0, 8)}`);
    const made: { id: string; store: string; shipment: string }[] = [];
    for (const store of [kurtas, sarees, kurtas]) {
      const forward = await deliveredForward(ctx, m, { storeName: store.store_name });
      ctx.clock.advance(MINUTE);
      const response = await askRefund(m.apiKey, forward.shipment_id);
      expect(response.statusCode, response.body).toBe(201);
      made.push({ id: response.json().data.id, store: store.id, shipment: forward.shipment_id });
    }
    const rejected = await ctx.app.inject({
      method: 'POST',
      url: `${REQUESTS}/${made[1]!.id}/reject`,
      headers: authed(m.apiKey),
      payload: { message: 'Sarees are checked in store only.' },
    });
    expect(rejected.statusCode).toBe(200);

    const ids = (page: Listed) => page.data.map((r) => r.id);
    expect(ids(await list(m.apiKey))).toEqual(made.map((r) => r.id));
    expect(ids(await list(m.apiKey, '?status=pending'))).toEqual([made[0]!.id, made[2]!.id]);
    expect(ids(await list(m.apiKey, `?store_id=${kurtas.id}`))).toEqual([made[0]!.id, made[2]!.id]);
    expect(ids(await list(m.apiKey, `?shipment_id=${made[1]!.shipment}&status=rejected`))).toEqual([made[1]!.id]);
    expect(ids(await list(m.apiKey, `?store_id=${sarees.id}&status=pending`))).toEqual([]);

    const first = await list(m.apiKey, '?limit=2');
    expect([ids(first), first.meta]).toEqual([[made[0]!.id, made[1]!.id], { next_after: made[1]!.id, has_more: true }]);
    const second = await list(m.apiKey, `?limit=2&after=${first.meta.next_after}`);
    expect([ids(second), second.meta]).toEqual([[made[2]!.id], { next_after: made[2]!.id, has_more: false }]);

    const stranger = await ctx.createAccount();
    expect(await list(stranger.apiKey)).toEqual({ data: [], meta: { next_after: null, has_more: false } });
    const foreignCursor = await ctx.app.inject({
      method: 'GET',
      url: `${REQUESTS}?after=${made[0]!.id}`,
      headers: authed(stranger.apiKey),
    });
    expect([foreignCursor.statusCode, foreignCursor.json().details]).toEqual([
      400,
      [{ field: 'after', message: 'after must be the id of one of your return requests' }],
    ]);
  });

  it("shows each request's buyer history by their phone: deliveries, RTOs, refusals and their other requests", async () => {
    const m = await merchant(ctx);
    const store = await storeTakingReturns(m, `history-${m.id.slice(0, 8)}`);
    // The buyer (9123456780): one order refused at the door and sent back, then three delivered.
    await shipCod(ctx, m, [650], { end: 'rto_initiated' });
    const asked: string[] = [];
    for (let n = 0; n < 2; n++) {
      const forward = await deliveredForward(ctx, m, { storeName: store.store_name });
      const made = await askRefund(m.apiKey, forward.shipment_id);
      expect(made.statusCode, made.body).toBe(201);
      asked.push(made.json().data.id);
    }
    // Another buyer's delivery and request count for them alone.
    const other = await deliveredForward(ctx, m, { storeName: store.store_name, phone: '9988776655' });
    const theirs = await askRefund(m.apiKey, other.shipment_id);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const approved = await ctx.app.inject({
      method: 'POST',
      url: `${REQUESTS}/${asked[0]}/approve`,
      headers: authed(m.apiKey),
    });
    expect(approved.statusCode, approved.body).toBe(200);

    const queue = (await ctx.app.inject({ method: 'GET', url: REQUESTS, headers: authed(m.apiKey) })).json();
    const history = (id: string) => queue.data.find((r: { id: string }) => r.id === id).buyer_history;
    expect(history(asked[0]!)).toEqual({
      delivered: 2,
      rto: 1,
      refused: 0,
      other_return_requests: 1,
      other_returns_approved: 0,
    });
    expect(history(asked[1]!)).toEqual({
      delivered: 2,
      rto: 1,
      refused: 0,
      other_return_requests: 1,
      other_returns_approved: 1,
    });
    expect(history(theirs.json().data.id)).toEqual({
      delivered: 1,
      rto: 0,
      refused: 0,
      other_return_requests: 0,
      other_returns_approved: 0,
    });
    // One request reads the same as the queue; the buyer's own page never shows it.
    const one = await ctx.app.inject({ method: 'GET', url: `${REQUESTS}/${asked[1]}`, headers: authed(m.apiKey) });
    expect(one.json().data.buyer_history).toEqual(history(asked[1]!));
    expect(approved.json().data).not.toHaveProperty('buyer_history');
  });

  it.each([
    ['status=open', 'status'],
    ['store_id=kurtas', 'store_id'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['after=last', 'after'],
  ])('refuses ?%s, naming %s', async (query, field) => {
    const { apiKey } = await ctx.createAccount();
    const response = await ctx.app.inject({ method: 'GET', url: `${REQUESTS}?${query}`, headers: authed(apiKey) });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual([field]);
  });
});
