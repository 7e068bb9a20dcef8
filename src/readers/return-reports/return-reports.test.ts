import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, MINUTE, STORES, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// The return reports (docs/returns.md): return rates by SKU, reason and pincode over the shipments
// delivered in a range, and the refunds outstanding by what they wait on, to the paisa.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const KURTA = { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499 };
const SOCKS = { name: 'Socks, three pairs', sku: 'SOCKS-3PK', units: 1, selling_price: 199 };

type Merchant = Awaited<ReturnType<typeof merchant>>;

const call = (m: Merchant, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: authed(m.apiKey), ...(payload && { payload }) });

async function requestOf(m: Merchant, shipmentId: string, sku: string, quantity: number, reason: string) {
  const made = await call(m, 'POST', `${V1}/return-requests`, {
    shipment_id: shipmentId,
    items: [{ sku, quantity }],
    reason,
    resolution: 'refund',
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().data as { id: string };
}

/** Three orders delivered on 20 November: two to Mumbai, one to Pune; requests approved, rejected and pending. */
async function season() {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `report-${m.id.slice(0, 8)}` });
  const policy = await call(m, 'PUT', `${STORES}/${store.id}/return-policy`, {
    window_days: 10,
    reasons: ['size_issue', 'damaged'],
    non_returnable_skus: [],
    non_returnable_categories: [],
    refund_release: 'pickup',
  });
  expect(policy.statusCode, policy.body).toBe(200);
  const fields = { storeName: store.store_name };
  const a = await deliveredForward(ctx, m, { ...fields, items: [KURTA, SOCKS] });
  const b = await deliveredForward(ctx, m, { ...fields, items: [{ ...KURTA, units: 1 }], to: 'pune' });
  await deliveredForward(ctx, m, { ...fields, items: [{ ...SOCKS, units: 2 }] });
  const approved = await requestOf(m, a.shipment_id, 'KURTA-M-BLUE', 2, 'size_issue');
  const rejected = await requestOf(m, b.shipment_id, 'KURTA-M-BLUE', 1, 'damaged');
  await requestOf(m, a.shipment_id, 'SOCKS-3PK', 1, 'damaged');
  expect((await call(m, 'POST', `${V1}/return-requests/${approved.id}/approve`)).statusCode).toBe(200);
  expect((await call(m, 'POST', `${V1}/return-requests/${rejected.id}/reject`, { message: 'Worn.' })).statusCode).toBe(
    200,
  );
  return { m, store };
}

const report = async (m: Merchant, query: string) => {
  const answer = await call(m, 'GET', `${V1}/return-reports?${query}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
};

describe('the return report', () => {
  it('by SKU: units delivered in the range and asked back, approved, rejected, pending, and the rates', async () => {
    const { m } = await season();
    expect(await report(m, 'from=2026-11-20&to=2026-11-20')).toEqual({
      data: [
        // 2 + 1 kurtas delivered; 3 asked back, 2 approved.
        {
          key: 'KURTA-M-BLUE',
          delivered: 3,
          requested: 3,
          approved: 2,
          rejected: 1,
          pending: 0,
          request_rate: 1,
          return_rate: 0.6667,
        },
        // 1 + 2 socks delivered; 1 asked back, pending.
        {
          key: 'SOCKS-3PK',
          delivered: 3,
          requested: 1,
          approved: 0,
          rejected: 0,
          pending: 1,
          request_rate: 0.3333,
          return_rate: 0,
        },
      ],
      meta: { group_by: 'sku', from: '2026-11-20', to: '2026-11-20' },
    });
    // Delivered the day before the range: nothing.
    expect((await report(m, 'from=2026-11-21&to=2026-11-30')).data).toEqual([]);
  });

  it('by reason and by pincode', async () => {
    const { m } = await season();
    expect((await report(m, 'group_by=reason&from=2026-11-20&to=2026-11-20')).data).toEqual([
      {
        key: 'damaged',
        delivered: null,
        requested: 2,
        approved: 0,
        rejected: 1,
        pending: 1,
        request_rate: 0.6667,
        return_rate: 0,
      },
      {
        key: 'size_issue',
        delivered: null,
        requested: 1,
        approved: 1,
        rejected: 0,
        pending: 0,
        request_rate: 0.3333,
        return_rate: 1,
      },
    ]);
    expect((await report(m, 'group_by=pincode&from=2026-11-20&to=2026-11-20')).data).toEqual([
      {
        key: '400001',
        delivered: 2,
        requested: 2,
        approved: 1,
        rejected: 0,
        pending: 1,
        request_rate: 1,
        return_rate: 0.5,
      },
      {
        key: '411001',
        delivered: 1,
        requested: 1,
        approved: 0,
        rejected: 1,
        pending: 0,
        request_rate: 1,
        return_rate: 0,
      },
    ]);
  });

  it("defaults to the 30 days to today, counts one store's alone, and names a bad range", async () => {
    const { m, store } = await season();
    ctx.clock.set('2026-11-26T06:30:00.000Z');
    expect(await report(m, '')).toMatchObject({ meta: { group_by: 'sku', from: '2026-10-28', to: '2026-11-26' } });
    expect((await report(m, `store_id=${store.id}`)).data).toHaveLength(2);
    const other = await createStore(ctx, m.apiKey, { store_name: `other-${m.id.slice(0, 8)}` });
    expect((await report(m, `store_id=${other.id}`)).data).toEqual([]);
    for (const [query, details] of [
      ['from=2026-11-31', [{ field: 'from', message: 'from must be a calendar date, YYYY-MM-DD' }]],
      ['from=2026-11-21&to=2026-11-20', [{ field: 'to', message: 'to must not be before from' }]],
    ] as const) {
      const refused = await call(m, 'GET', `${V1}/return-reports?${query}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'return_report_range_invalid', details });
    }
    for (const query of ['group_by=city', 'from=20-11-2026', `store_id=x`]) {
      expect((await call(m, 'GET', `${V1}/return-reports?${query}`)).statusCode).toBe(400);
    }
    // Another account sees none of it.
    expect((await report(await merchant(ctx), 'from=2026-11-20&to=2026-11-20')).data).toEqual([]);
  });
});

describe('the refunds outstanding', () => {
  it('counts and sums the refunds not completed by what they wait on', async () => {
    const { m } = await season();
    const outstanding = async () => (await call(m, 'GET', `${V1}/return-reports/refunds`)).json().data;
    // The kurtas' refund: 2 × ₹499, waiting on the pickup.
    expect(await outstanding()).toEqual({
      waiting_on_return: { count: 1, amount: 998 },
      due: { count: 0, amount: 0 },
      initiated: { count: 0, amount: 0 },
      failed: { count: 0, amount: 0 },
      total: { count: 1, amount: 998 },
    });
    const [ret] = (await queryRows<{ awb: string; carrier_id: string }>(
      ctx.database.db,
      sql`select r.awb, r.carrier_id from returns r where r.account_id = ${m.id}`,
    )) as [{ awb: string; carrier_id: string }];
    ctx.clock.advance(MINUTE);
    await sendEvents(ctx, await issueCarrierToken(ctx, ret.carrier_id), [
      { awb: ret.awb, status: 'return_picked_up', event_time: ctx.clock.now().toISOString() } as never,
    ]);
    expect(await outstanding()).toMatchObject({ waiting_on_return: { count: 0 }, due: { count: 1, amount: 998 } });
    const [refund] = (await call(m, 'GET', `${V1}/refunds`)).json().data;
    await call(m, 'POST', `${V1}/refunds/${refund.id}/initiate`);
    expect(await outstanding()).toMatchObject({ due: { count: 0 }, initiated: { count: 1, amount: 998 } });
    await call(m, 'POST', `${V1}/refunds/${refund.id}/complete`, { utr: 'SBIN326331234567' });
    expect((await outstanding()).total).toEqual({ count: 0, amount: 0 });
  });
});
