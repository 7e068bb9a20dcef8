import { sql } from 'drizzle-orm';
import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authed, STORES } from '../../../test/kit/http.js';
import { jpeg } from '../../../test/kit/uploads.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { DomainError } from '../../domain/errors.js';
import { type ReturnRequestInput, createReturnRequestsService } from './return-requests.service.js';

// A buyer's return request as its use case takes it, over a real database: judged on the store's
// policy and the order's earlier requests, kept pending, or refused in the buyer's words with
// nothing written.

let ctx: UseCaseContext;
let requests: ReturnType<typeof createReturnRequestsService>;
beforeAll(async () => {
  ctx = await useCaseContext();
  requests = createReturnRequestsService(ctx);
});
afterAll(() => ctx.close());

const POLICY = {
  window_days: 7,
  reasons: ['size_issue', 'damaged'],
  non_returnable_skus: ['SOCKS-3PK'],
  non_returnable_categories: [],
};
const ITEMS = [
  { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499 },
  { name: 'Socks, three pairs', sku: 'SOCKS-3PK', units: 1, selling_price: 199 },
];

/** A merchant whose store takes returns under POLICY, and an order of ITEMS delivered at 06:33Z. */
async function deliveredOrder(policy: object = POLICY) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `kurtas-${m.id.slice(0, 8)}` });
  const set = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: policy,
  });
  expect(set.statusCode).toBe(200);
  const forward = await deliveredForward(ctx, m, {
    storeName: store.store_name,
    items: ITEMS,
    value: 1197,
    lastName: 'Menon',
  });
  return { m, store, forward };
}

const ask = (more: Partial<ReturnRequestInput> = {}): ReturnRequestInput => ({
  items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
  reason: 'size_issue',
  resolution: 'refund',
  photos: [],
  language: 'en',
  ...more,
});

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const { code, details } = error as DomainError;
  return { code, details };
}

const requestCount = async (accountId: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.db,
      sql`select (select count(*) from return_requests where account_id = ${accountId})::int
        + (select count(*) from return_request_items where account_id = ${accountId})::int as n`,
    )
  )[0]!.n;

describe("a buyer's return request", () => {
  it('is kept pending with its items, reason and the delivery address as the pickup', async () => {
    const { m, store, forward } = await deliveredOrder();
    ctx.clock.set('2026-11-22T10:00:00.000Z');
    const made = await requests.ask(
      asAccount(m.id),
      forward.shipment_id,
      ask({ comment: 'Too tight at the shoulders' }),
    );
    expect(made).toEqual({
      id: expect.any(String),
      shipment_id: forward.shipment_id,
      order_id: forward.order_id,
      store_id: store.id,
      status: 'pending',
      items: [{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', quantity: 1 }],
      reason: 'size_issue',
      comment: 'Too tight at the shoulders',
      resolution: 'refund',
      exchange_for: null,
      refund_to: { method: 'original' },
      pickup_address: {
        name: 'Asha',
        last_name: 'Menon',
        address: '12 Marine Drive',
        address_2: null,
        city: 'Mumbai',
        state: 'Maharashtra',
        country: 'India',
        pincode: '400001',
        email: 'asha@example.com',
        phone: '9123456780',
      },
      photos: [],
      language: 'en',
      decision_note: null,
      decided_by: null,
      decision_rule: null,
      return_id: null,
      exchange_id: null,
      created_at: '2026-11-22T10:00:00.000Z',
      updated_at: '2026-11-22T10:00:00.000Z',
      decided_at: null,
    });
    expect(await requests.view(m.id, made.id)).toEqual(made);
    expect((await requests.get(m.id, made.id)).buyer_history).toEqual({
      delivered: 1,
      rto: 0,
      refused: 0,
      other_return_requests: 0,
      other_returns_approved: 0,
    });
  });

  it('keeps what the buyer wants instead for an exchange, and a pickup address of their own', async () => {
    const { m, forward } = await deliveredOrder();
    const pickup = {
      name: 'Asha',
      last_name: null,
      address: 'Flat 4, Sea View',
      address_2: null,
      city: 'Mumbai',
      state: 'Maharashtra',
      country: 'India',
      pincode: '400005',
      email: null,
      phone: '9123456780',
    };
    const made = await requests.ask(
      asAccount(m.id),
      forward.shipment_id,
      ask({ resolution: 'exchange', exchangeFor: 'Size L', pickup }),
    );
    expect(made).toMatchObject({ resolution: 'exchange', exchange_for: 'Size L', pickup_address: pickup });
  });

  it("refuses a pickup pincode that does not exist, or that no courier collects returns from, in the buyer's words", async () => {
    const { m, forward } = await deliveredOrder();
    const pickup = (pincode: string) => ({
      name: 'Asha',
      last_name: null,
      address: 'Flat 4, Sea View',
      address_2: null,
      city: 'Mumbai',
      state: 'Maharashtra',
      country: 'India',
      pincode,
      email: null,
      phone: '9123456780',
    });
    expect(
      await refusal(requests.ask(asAccount(m.id), forward.shipment_id, ask({ pickup: pickup('999999') }))),
    ).toEqual({
      code: 'return_request_refused',
      details: [{ field: 'pickup.pincode', message: 'This pincode does not exist. Please check the pickup pincode.' }],
    });
    // 900099 is a real pincode (Kolkata), but couriers serve no pincode starting with 9 (data/couriers.json).
    expect(
      await refusal(
        requests.ask(asAccount(m.id), forward.shipment_id, ask({ pickup: pickup('900099'), language: 'hi' })),
      ),
    ).toEqual({
      code: 'return_request_refused',
      details: [
        {
          field: 'pickup.pincode',
          message: 'इस पिनकोड से कोई कूरियर सामान नहीं ले सकता। कृपया कोई दूसरा पिकअप पता दें या विक्रेता से संपर्क करें।',
        },
      ],
    });
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from return_requests where account_id = ${m.id}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('refuses an item of a category the store does not take back, by the category the order gave it', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: `kinds-${m.id.slice(0, 8)}` });
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}/return-policy`,
      headers: authed(m.apiKey),
      payload: { ...POLICY, non_returnable_skus: [], non_returnable_categories: ['innerwear '] },
    });
    expect(set.statusCode).toBe(200);
    const forward = await deliveredForward(ctx, m, {
      storeName: store.store_name,
      items: [
        { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 499, category: 'Apparel' },
        { name: 'Cotton Briefs', sku: 'BRIEFS-M', units: 2, selling_price: 199, category: ' Innerwear' },
      ],
      value: 897,
    });
    expect(
      await refusal(
        requests.ask(asAccount(m.id), forward.shipment_id, ask({ items: [{ sku: 'BRIEFS-M', quantity: 1 }] })),
      ),
    ).toEqual({
      code: 'return_request_refused',
      details: [
        {
          field: 'items[0].sku',
          message: 'Cotton Briefs cannot be returned: the seller does not take back items of its kind.',
        },
      ],
    });
    const form = await requests.buyerForm(m.id, forward.shipment_id);
    expect(form!.items.map((item) => [item.sku, item.unitsLeft, item.refusal?.code ?? null])).toEqual([
      ['KURTA-M-BLUE', 1, null],
      ['BRIEFS-M', 2, 'non_returnable_category'],
    ]);
    const made = await requests.ask(asAccount(m.id), forward.shipment_id, ask());
    expect(made.items).toEqual([{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', quantity: 1 }]);
  });

  it('keeps the photos apart from the request, which lists each by its size and where to fetch it', async () => {
    const { m, forward } = await deliveredOrder();
    const photo = (width: number, height: number) => ({
      contentType: 'image/jpeg' as const,
      bytes: Buffer.alloc(width, 7),
      width,
      height,
    });
    const made = await requests.ask(
      asAccount(m.id),
      forward.shipment_id,
      ask({ photos: [photo(1200, 1600), photo(800, 600)] }),
    );
    expect(made.photos).toEqual([
      {
        url: `/custom/api/v1/return-requests/${made.id}/photos/0`,
        content_type: 'image/jpeg',
        width: 1200,
        height: 1600,
        size: 1200,
      },
      {
        url: `/custom/api/v1/return-requests/${made.id}/photos/1`,
        content_type: 'image/jpeg',
        width: 800,
        height: 600,
        size: 800,
      },
    ]);
    expect(await requests.photo(m.id, made.id, 1)).toEqual({ contentType: 'image/jpeg', bytes: Buffer.alloc(800, 7) });
    expect(await refusal(requests.photo(m.id, made.id, 2))).toEqual({
      code: 'return_request_photo_not_found',
      details: [{ field: 'position', message: 'Photo not found' }],
    });
    const other = await merchant(ctx);
    expect(await refusal(requests.photo(other.id, made.id, 0))).toEqual({
      code: 'return_request_not_found',
      details: undefined,
    });
  });

  it('refuses a second request for an item under review, then more units than are left once it is decided', async () => {
    const { m, forward } = await deliveredOrder();
    await requests.ask(asAccount(m.id), forward.shipment_id, ask());
    expect(await refusal(requests.ask(asAccount(m.id), forward.shipment_id, ask()))).toEqual({
      code: 'return_request_refused',
      details: [{ field: 'items[0].sku', message: 'A return of Cotton Kurta is already being reviewed.' }],
    });
    await queryRows(ctx.db, sql`update return_requests set status = 'approved' where account_id = ${m.id}`);
    expect(
      await refusal(
        requests.ask(asAccount(m.id), forward.shipment_id, ask({ items: [{ sku: 'KURTA-M-BLUE', quantity: 2 }] })),
      ),
    ).toEqual({
      code: 'return_request_refused',
      details: [{ field: 'items[0].quantity', message: 'You can return at most 1 of Cotton Kurta.' }],
    });
    // A rejected request counts for nothing: its units may be asked for again.
    await queryRows(ctx.db, sql`update return_requests set status = 'rejected' where account_id = ${m.id}`);
    const again = await requests.ask(
      asAccount(m.id),
      forward.shipment_id,
      ask({ items: [{ sku: 'KURTA-M-BLUE', quantity: 2 }] }),
    );
    expect(again.items).toEqual([{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', quantity: 2 }]);
  });

  it("refuses, in the buyer's language, every fault at once, and writes nothing", async () => {
    const { m, forward } = await deliveredOrder();
    expect(
      await refusal(
        requests.ask(
          asAccount(m.id),
          forward.shipment_id,
          ask({
            items: [
              { sku: 'SOCKS-3PK', quantity: 1 },
              { sku: 'KURTA-M-BLUE', quantity: 3 },
            ],
            reason: 'changed_mind',
            photos: Array.from({ length: 6 }, () => ({
              contentType: 'image/jpeg' as const,
              bytes: jpeg(),
              width: 64,
              height: 64,
            })),
            language: 'hi',
          }),
        ),
      ),
    ).toEqual({
      code: 'return_request_refused',
      details: [
        { field: 'items[0].sku', message: 'Socks, three pairs वापस नहीं किया जा सकता।' },
        { field: 'items[1].quantity', message: 'आप Cotton Kurta के अधिकतम 2 नग वापस कर सकते हैं।' },
        { field: 'reason', message: 'सूची से एक कारण चुनें।' },
        { field: 'photos', message: 'अधिकतम 5 फ़ोटो जोड़ें।' },
      ],
    });
    expect(await requestCount(m.id)).toBe(0);
  });

  it('refuses after the window, and on a store that takes no requests', async () => {
    const { m, forward } = await deliveredOrder();
    // Delivered on 20 November, India time: the 7-day window's last day is the 27th.
    ctx.clock.set('2026-11-27T18:30:00.000Z');
    expect(await refusal(requests.ask(asAccount(m.id), forward.shipment_id, ask()))).toEqual({
      code: 'return_request_refused',
      details: [{ field: 'order', message: 'The last day to ask for a return of this order was Friday, 27 November.' }],
    });
    const closed = await deliveredOrder({ ...POLICY, window_days: 0 });
    expect(await refusal(requests.ask(asAccount(closed.m.id), closed.forward.shipment_id, ask()))).toEqual({
      code: 'return_request_refused',
      details: [
        {
          field: 'order',
          message: 'This store does not take return requests online. Please contact the seller.',
        },
      ],
    });
    expect(await requestCount(m.id)).toBe(0);
  });

  it("answers not found for another account's shipment", async () => {
    const { forward } = await deliveredOrder();
    const stranger = await ctx.createAccount();
    expect(await refusal(requests.ask(asAccount(stranger.id), forward.shipment_id, ask()))).toMatchObject({
      code: 'return_request_shipment_not_found',
    });
    expect(await refusal(requests.get(stranger.id, forward.shipment_id))).toMatchObject({
      code: 'return_request_not_found',
    });
  });
});
