import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// An exchange request's approval (docs/returns.md): it books the exchange through
// exchange-order-orchestration's own path, the replacement (another size, prepaid, to the delivery
// address, under the order's store) and the old item's pickup, both or neither, in the approval's
// transaction; no refund is owed.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const ITEMS = [
  { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499, discount: 50 },
  { name: 'Socks, three pairs', sku: 'SOCKS-3PK', units: 1, selling_price: 199 },
];
type Merchant = Awaited<ReturnType<typeof merchant>>;

/** A COD order of a store taking requests, delivered, and its buyer's exchange request for a kurta. */
async function exchangeRequest(exchangeFor?: string, cod = true) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `swap-${m.id.slice(0, 8)}` });
  const policy = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: { window_days: 7, reasons: ['size_issue'], non_returnable_skus: [], non_returnable_categories: [] },
  });
  expect(policy.statusCode).toBe(200);
  const forward = await deliveredForward(ctx, m, {
    storeName: store.store_name,
    items: ITEMS,
    cod,
    lastName: 'Menon',
    orderId: `SWAP-${m.id.slice(0, 8)}`,
  });
  const asked = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests`,
    headers: authed(m.apiKey),
    payload: {
      shipment_id: forward.shipment_id,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'size_issue',
      resolution: 'exchange',
      ...(exchangeFor && { exchange_for: exchangeFor }),
    },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  return { m, store, forward, request: asked.json().data };
}

const approve = (m: Merchant, id: string, body?: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests/${id}/approve`,
    headers: authed(m.apiKey),
    ...(body && { payload: body }),
  });

/** The exchange the approval booked: its legs' orders and items, as stored. */
async function booked(exchangeId: string) {
  const db = ctx.database.db;
  const [exchange] = await queryRows<{
    display_id: string;
    return_id: string;
    forward_order_id: string;
    return_reason: string;
  }>(db, sql`select display_id, return_id, forward_order_id, return_reason from exchanges where id = ${exchangeId}`);
  const [order] = await queryRows<{
    payment_method: string;
    shipping_name: string;
    shipping_pincode: string;
    store_id: string;
  }>(
    db,
    sql`select payment_method, shipping_name, shipping_pincode, store_id from orders where id = ${exchange!.forward_order_id}`,
  );
  const replacement = await queryRows(
    db,
    sql`select sku, name, units, selling_price_paise::int as selling_price_paise from order_items where order_id = ${exchange!.forward_order_id} order by position`,
  );
  const pickedUp = await queryRows(
    db,
    sql`select sku, name, units, selling_price_paise::int as selling_price_paise from return_items where return_id = ${exchange!.return_id} order by position`,
  );
  return { exchange: exchange!, order: order!, replacement, pickedUp };
}

describe("an exchange request's approval", () => {
  it('books the replacement the merchant names with the pickup of the old item, and owes no refund', async () => {
    const { m, store, forward, request } = await exchangeRequest('Size L');
    const approved = await approve(m, request.id, {
      replacements: [{ sku: 'KURTA-M-BLUE', replacement_sku: 'KURTA-L-BLUE', replacement_name: 'Cotton Kurta, L' }],
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const data = approved.json().data;
    expect(data).toMatchObject({ status: 'approved', decided_by: 'merchant' });
    expect(data.exchange_id).toMatch(/^[0-9a-f-]{36}$/);
    const { exchange, order, replacement, pickedUp } = await booked(data.exchange_id);
    expect(exchange.return_id).toBe(data.return_id);
    // The pickup is the delivered shipment's return, as a request's return is: it takes no second one.
    const [linked] = await queryRows<{ forward_shipment_id: string }>(
      ctx.database.db,
      sql`select forward_shipment_id from returns where id = ${data.return_id}`,
    );
    expect(linked!.forward_shipment_id).toBe(forward.shipment_id);
    const again = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests`,
      headers: authed(m.apiKey),
      payload: {
        shipment_id: forward.shipment_id,
        items: [{ sku: 'SOCKS-3PK', quantity: 1 }],
        reason: 'size_issue',
        resolution: 'refund',
      },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().details).toEqual([
      { field: 'order', message: 'This order already has a return under way. Please contact the seller.' },
    ]);
    expect(exchange.display_id).toBe(`SWAP-${m.id.slice(0, 8)}-X-${request.id.slice(0, 8)}`);
    expect(exchange.return_reason).toBe('size_issue');
    // Prepaid (the buyer paid for the kurta already), to where it was delivered, under the store.
    expect(order).toEqual({
      payment_method: 'prepaid',
      shipping_name: 'Asha',
      shipping_pincode: '400001',
      store_id: store.id,
    });
    // The price paid for one kurta: ₹499 less its ₹50 discount.
    expect(replacement).toEqual([
      { sku: 'KURTA-L-BLUE', name: 'Cotton Kurta, L', units: 1, selling_price_paise: 44_900 },
    ]);
    expect(pickedUp).toEqual([{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', units: 1, selling_price_paise: 44_900 }]);
    const refunds = await ctx.app.inject({ method: 'GET', url: `${V1}/refunds`, headers: authed(m.apiKey) });
    expect(refunds.json().data).toEqual([]);
    // The exchange is the listing's, and its creation an event as a direct call's is.
    const listed = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/exchange-orders`,
      headers: authed(m.apiKey),
      payload: {},
    });
    expect(listed.json().data.map((e: { id: string }) => e.id)).toEqual([data.exchange_id]);
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from events where account_id = ${m.id} and type = 'exchange.created' and subject_id = ${data.exchange_id}`,
    )) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('replaces an item by its own SKU unless told otherwise, named with what the buyer asked for', async () => {
    const { m, request } = await exchangeRequest('Size L');
    const approved = await approve(m, request.id);
    expect(approved.statusCode, approved.body).toBe(200);
    const { replacement } = await booked(approved.json().data.exchange_id);
    expect(replacement).toEqual([
      { sku: 'KURTA-M-BLUE', name: 'Cotton Kurta (Size L)', units: 1, selling_price_paise: 44_900 },
    ]);
  });

  it('refuses a replacement of an item the request does not hold, or replacements for a refund, booking nothing', async () => {
    const { m, request } = await exchangeRequest();
    const unknown = await approve(m, request.id, {
      replacements: [
        { sku: 'SOCKS-3PK', replacement_sku: 'SOCKS-5PK' },
        { sku: 'KURTA-M-BLUE', replacement_sku: 'KURTA-L-BLUE' },
        { sku: 'KURTA-M-BLUE', replacement_sku: 'KURTA-XL-BLUE' },
      ],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({
      code: 'return_request_unbookable',
      details: [
        { field: 'replacements[0].sku', message: 'is not an item of the request' },
        { field: 'replacements[2].sku', message: 'is replaced twice' },
      ],
    });
    const still = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/return-requests/${request.id}`,
      headers: authed(m.apiKey),
    });
    expect([still.json().data.status, still.json().data.exchange_id]).toEqual(['pending', null]);
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select (select count(*) from exchanges where account_id = ${m.id})::int
        + (select count(*) from returns where account_id = ${m.id})::int as n`,
    )) as [{ n: number }];
    expect(n).toBe(0);

    const refund = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests`,
      headers: authed(m.apiKey),
      payload: {
        shipment_id: request.shipment_id,
        items: [{ sku: 'SOCKS-3PK', quantity: 1 }],
        reason: 'size_issue',
        resolution: 'refund',
      },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const replaced = await approve(m, refund.json().data.id, {
      replacements: [{ sku: 'SOCKS-3PK', replacement_sku: 'SOCKS-5PK' }],
    });
    expect(replaced.statusCode).toBe(422);
    expect(replaced.json()).toMatchObject({
      code: 'return_request_unbookable',
      details: [
        { field: 'replacements', message: 'replacements are for an exchange request; this one asks for a refund' },
      ],
    });
  });

  it('is refunded instead when the merchant says so, and a refund request exchanged instead', async () => {
    const { m, request } = await exchangeRequest('Size L');
    const refunded = await approve(m, request.id, { resolution: 'refund' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().data).toMatchObject({
      status: 'approved',
      resolution: 'refund',
      exchange_for: null,
      exchange_id: null,
      refund_to: null,
    });
    const refunds = await ctx.app.inject({ method: 'GET', url: `${V1}/refunds`, headers: authed(m.apiKey) });
    // The COD buyer gave no payee for an exchange: the refund's method is agreed with them. ₹449 paid.
    expect(refunds.json().data.map((r: { method: string; amount: number }) => [r.method, r.amount])).toEqual([
      ['to_be_agreed', 449],
    ]);

    // Another order: a delivered shipment takes one return, and the first is under way.
    const other = await exchangeRequest();
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests`,
      headers: authed(other.m.apiKey),
      payload: {
        shipment_id: other.request.shipment_id,
        items: [{ sku: 'SOCKS-3PK', quantity: 1 }],
        reason: 'size_issue',
        resolution: 'refund',
        refund_to: { method: 'upi', upi_id: 'asha@okaxis' },
      },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const exchanged = await approve(other.m, asked.json().data.id, { resolution: 'exchange' });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    expect(exchanged.json().data).toMatchObject({ resolution: 'exchange', refund_to: null });
    const { replacement } = await booked(exchanged.json().data.exchange_id);
    expect(replacement).toEqual([
      { sku: 'SOCKS-3PK', name: 'Socks, three pairs', units: 1, selling_price_paise: 19_900 },
    ]);
    // A prepaid order's exchange refunded instead goes back to how it was paid.
    const prepaid = await exchangeRequest('Size L', false);
    const original = await approve(prepaid.m, prepaid.request.id, { resolution: 'refund' });
    expect(original.json().data.refund_to).toEqual({ method: 'original' });
    const paidBack = await ctx.app.inject({ method: 'GET', url: `${V1}/refunds`, headers: authed(prepaid.m.apiKey) });
    expect(paidBack.json().data.map((r: { method: string; payee: object }) => [r.method, r.payee])).toEqual([
      ['original', { method: 'original' }],
    ]);
    const after = await ctx.app.inject({ method: 'GET', url: `${V1}/refunds`, headers: authed(other.m.apiKey) });
    expect(after.json().data).toEqual([]);
    const [{ sealed }] = (await queryRows<{ sealed: string | null }>(
      ctx.database.db,
      sql`select refund_to_sealed as sealed from return_requests where id = ${asked.json().data.id}`,
    )) as [{ sealed: string | null }];
    expect(sealed).toBeNull();
  });
});
