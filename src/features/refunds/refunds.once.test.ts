import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { authed, CANCEL, MINUTE, post, STORES, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// A refund from an approved return request to its UTR (docs/returns.md): what it comes to, when
// it falls due by the store's release rule, and the payment system's steps, each an event.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const REFUNDS = `${V1}/refunds`;
const ITEMS = [
  { name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499, discount: 50 },
  { name: 'Socks, three pairs', sku: 'SOCKS-3PK', units: 1, selling_price: 199 },
];

type Merchant = Awaited<ReturnType<typeof merchant>>;

/** A delivered order of a store with these refund terms, a refund request for two kurtas and a pair of socks, approved. */
async function approvedRefund(terms: object, resolution = 'refund', cod = false) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `refunds-${m.id.slice(0, 8)}` });
  const policy = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: {
      window_days: 10,
      reasons: ['size_issue'],
      non_returnable_skus: [],
      non_returnable_categories: [],
      ...terms,
    },
  });
  expect(policy.statusCode, policy.body).toBe(200);
  const forward = await deliveredForward(ctx, m, { storeName: store.store_name, items: ITEMS, cod });
  const asked = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests`,
    headers: authed(m.apiKey),
    payload: {
      shipment_id: forward.shipment_id,
      items: [
        { sku: 'KURTA-M-BLUE', quantity: 2 },
        { sku: 'SOCKS-3PK', quantity: 1 },
      ],
      reason: 'size_issue',
      resolution,
    },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const request = asked.json().data;
  const approved = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests/${request.id}/approve`,
    headers: authed(m.apiKey),
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const [ret] = (await queryRows<{ awb: string; carrier_id: string }>(
    ctx.database.db,
    sql`select awb, carrier_id from returns where id = ${approved.json().data.return_id}`,
  )) as [{ awb: string; carrier_id: string }];
  return { m, store, request: approved.json().data, ret };
}

async function scanReturn(ret: { awb: string; carrier_id: string }, status: string, extra: object = {}) {
  const token = await issueCarrierToken(ctx, ret.carrier_id);
  ctx.clock.advance(MINUTE);
  const [result] = await sendEvents(ctx, token, [
    { awb: ret.awb, status, event_time: ctx.clock.now().toISOString(), ...extra } as never,
  ]);
  expect(result!.accepted).toBe(true);
}

const refundsOf = async (m: Merchant, query = '') =>
  (await ctx.app.inject({ method: 'GET', url: `${REFUNDS}${query}`, headers: authed(m.apiKey) })).json();

const step = (m: Merchant, id: string, name: string, payload?: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `${REFUNDS}/${id}/${name}`,
    headers: authed(m.apiKey),
    ...(payload && { payload }),
  });

describe("a return request's refund", () => {
  it("is recorded at the approval to the paisa, falls due by the store's rule, and is paid with its UTR", async () => {
    const { m, store, request, ret } = await approvedRefund({
      refund_deduction_percent: 10,
      return_shipping_fee: 60.5,
      refund_release: 'pickup',
    });
    // Two kurtas at ₹449 (₹499 less ₹50 each) and socks at ₹199: ₹1,097; 10 % kept (₹109.70); ₹60.50 fee.
    const [refund] = (await refundsOf(m)).data;
    expect(refund).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      return_request_id: request.id,
      return_id: request.return_id,
      store_id: store.id,
      status: 'pending',
      amount: 926.8,
      items_amount: 1097,
      deduction: 109.7,
      return_shipping_fee: 60.5,
      currency: 'INR',
      method: 'original',
      payee: { method: 'original' },
      release_on: 'pickup',
      released_at: null,
      utr: null,
      failure_reason: null,
      initiated_at: null,
      completed_at: null,
      failed_at: null,
      cancelled_at: null,
      created_at: '2026-11-20T06:30:00.000Z',
      updated_at: '2026-11-20T06:30:00.000Z',
    });
    expect((await refundsOf(m, '?due=false')).data).toHaveLength(1);
    expect((await refundsOf(m, '?due=true')).data).toEqual([]);

    // Not due before the pickup: no step is taken.
    const early = await step(m, refund.id, 'initiate');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'refund_not_due', details: [{ field: 'released_at' }] });
    expect((await step(m, refund.id, 'complete', { utr: 'SBIN326331234567' })).json().code).toBe('refund_not_due');

    await scanReturn(ret, 'return_pickup_scheduled');
    expect((await refundsOf(m, '?due=true')).data).toEqual([]);
    await scanReturn(ret, 'return_picked_up');
    const pickedUpAt = ctx.clock.now().toISOString();
    expect((await refundsOf(m, '?due=true&status=pending')).data).toEqual([
      { ...refund, released_at: pickedUpAt, updated_at: pickedUpAt },
    ]);
    // A later scan does not release it again.
    await scanReturn(ret, 'return_delivered');

    const initiated = await step(m, refund.id, 'initiate');
    expect(initiated.statusCode, initiated.body).toBe(200);
    expect(initiated.json().data).toMatchObject({ status: 'initiated', initiated_at: ctx.clock.now().toISOString() });
    ctx.clock.advance(MINUTE);
    const failed = await step(m, refund.id, 'fail', { reason: 'The UPI id given is not active.' });
    expect(failed.json().data).toMatchObject({
      status: 'failed',
      failure_reason: 'The UPI id given is not active.',
      failed_at: ctx.clock.now().toISOString(),
    });
    expect((await step(m, refund.id, 'complete', { utr: 'SBIN326331234567' })).json()).toMatchObject({
      code: 'refund_state',
      details: [{ field: 'status', message: 'A failed refund cannot be completed' }],
    });
    expect((await step(m, refund.id, 'initiate')).json().data).toMatchObject({
      status: 'initiated',
      failure_reason: null,
    });
    const completed = await step(m, refund.id, 'complete', { utr: 'SBIN326331234567' });
    expect(completed.json().data).toMatchObject({ status: 'completed', utr: 'SBIN326331234567', amount: 926.8 });
    for (const [name, payload] of [
      ['initiate', undefined],
      ['complete', { utr: 'SBIN326339999999' }],
      ['fail', { reason: 'again' }],
    ] as const) {
      const final = await step(m, refund.id, name, payload);
      expect(final.statusCode).toBe(409);
      expect(final.json().code).toBe('refund_state');
    }
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${REFUNDS}/${refund.id}`, headers: authed(m.apiKey) })).json().data,
    ).toEqual(completed.json().data);

    await eventsSettled(ctx.database);
    const events = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/events?type[]=refund.created&type[]=refund.released&type[]=refund.initiated&type[]=refund.completed&type[]=refund.failed`,
      headers: authed(m.apiKey),
    });
    expect(
      (events.json().data as { type: string; data: { refund: { status: string } } }[]).map((e) => [
        e.type,
        e.data.refund.status,
      ]),
    ).toEqual([
      ['refund.created', 'pending'],
      ['refund.released', 'pending'],
      ['refund.initiated', 'initiated'],
      ['refund.failed', 'failed'],
      ['refund.initiated', 'initiated'],
      ['refund.completed', 'completed'],
    ]);
    // The audit log names the key that moved the money at each step, the refused ones not at all
    // (issue 51). The steps share one instant of the test clock: compared in the order of their
    // statuses, which is the order they were taken.
    const steps = await queryRows<{ actor_type: string; action: string; changes: { status: { before: string } } }>(
      ctx.database.db,
      sql`select actor_type, action, changes from audit_log where object_id = ${refund.id}`,
    );
    const taken = ['pending', 'initiated', 'failed'];
    expect(
      steps.sort(
        (a, b) =>
          taken.indexOf(a.changes.status.before) - taken.indexOf(b.changes.status.before) ||
          a.action.localeCompare(b.action),
      ),
    ).toEqual([
      {
        actor_type: 'api_key',
        action: 'refund.initiated',
        changes: { status: { after: 'initiated', before: 'pending' } },
      },
      {
        actor_type: 'api_key',
        action: 'refund.completed',
        changes: { utr: 'SBIN326331234567', status: { after: 'completed', before: 'initiated' } },
      },
      {
        actor_type: 'api_key',
        action: 'refund.failed',
        changes: { reason: 'The UPI id given is not active.', status: { after: 'failed', before: 'initiated' } },
      },
      {
        actor_type: 'api_key',
        action: 'refund.initiated',
        changes: { status: { after: 'initiated', before: 'failed' } },
      },
    ]);
  });

  it.each([
    ['warehouse', 'return_picked_up', 'return_delivered'],
    // Booked without QC: its pass is the warehouse's.
    ['qc_pass', 'return_in_transit', 'return_delivered'],
  ])('held for %s: not due at %s, due at %s', async (release, before, at) => {
    const { m, ret } = await approvedRefund({ refund_release: release });
    await scanReturn(ret, before);
    expect((await refundsOf(m, '?due=true')).data).toEqual([]);
    await scanReturn(ret, at);
    expect((await refundsOf(m, '?due=true')).data).toEqual([
      expect.objectContaining({ release_on: release, released_at: ctx.clock.now().toISOString() }),
    ]);
  });

  it.each([
    ['the merchant', 'cancel-order'],
    ['the courier', 'a return_cancelled scan'],
  ])('is cancelled, nothing owed, when %s calls the pickup off (%s)', async (who) => {
    const { m, request, ret } = await approvedRefund({ refund_release: 'pickup' });
    await scanReturn(ret, 'return_pickup_scheduled');
    if (who === 'the merchant') {
      ctx.clock.advance(MINUTE);
      const cancelled = await post(ctx, m.apiKey, CANCEL, { awbs: [ret.awb] });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    } else await scanReturn(ret, 'return_cancelled');
    const now = ctx.clock.now().toISOString();
    const [refund] = (await refundsOf(m)).data;
    expect(refund).toMatchObject({ status: 'cancelled', cancelled_at: now, updated_at: now, released_at: null });
    expect((await refundsOf(m, '?status=cancelled')).data).toEqual([refund]);
    expect((await refundsOf(m, '?status=pending')).data).toEqual([]);
    // Not outstanding either: nothing is owed.
    const report = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/return-reports/refunds`,
      headers: authed(m.apiKey),
    });
    expect(report.json().data.total).toEqual({ count: 0, amount: 0 });
    for (const [name, payload] of [
      ['initiate', undefined],
      ['complete', { utr: 'SBIN326339999999' }],
    ] as const) {
      const refused = await step(m, refund.id, name, payload);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'refund_state',
        details: [{ field: 'status', message: `A cancelled refund cannot be ${name}d` }],
      });
    }
    await eventsSettled(ctx.database);
    const events = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/events?type[]=refund.created&type[]=refund.cancelled`,
      headers: authed(m.apiKey),
    });
    expect(
      (events.json().data as { type: string; data: { refund: { id: string; status: string } } }[]).map((e) => [
        e.type,
        e.data.refund.status,
      ]),
    ).toEqual([
      ['refund.created', 'pending'],
      ['refund.cancelled', 'cancelled'],
    ]);
    // The items were never collected: the buyer may ask again.
    const asked = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/return-requests/${request.id}`,
      headers: authed(m.apiKey),
    });
    expect(asked.json().data.status).toBe('approved');
    const again = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests`,
      headers: authed(m.apiKey),
      payload: {
        shipment_id: request.shipment_id,
        items: [{ sku: 'KURTA-M-BLUE', quantity: 2 }],
        reason: 'size_issue',
        resolution: 'refund',
      },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it("takes the defaults without terms, a COD order's method is to be agreed, and an exchange has no refund", async () => {
    const { m } = await approvedRefund({}, 'refund', true);
    expect((await refundsOf(m)).data).toEqual([
      expect.objectContaining({
        amount: 1097,
        deduction: 0,
        return_shipping_fee: 0,
        method: 'to_be_agreed',
        release_on: 'warehouse',
      }),
    ]);
    const exchanged = await approvedRefund({ refund_deduction_percent: 5 }, 'exchange');
    expect((await refundsOf(exchanged.m)).data).toEqual([]);
  });

  it("shows on the return in Velocity's returns listing, which filters by refund_status[]", async () => {
    const { m, request } = await approvedRefund({ refund_release: 'pickup' });
    const listed = async (body: object) =>
      (await ctx.app.inject({ method: 'POST', url: `${V1}/returns`, headers: authed(m.apiKey), payload: body })).json()
        .data as { id: string; attributes: { refund_status: string | null } }[];
    expect((await listed({})).map((r) => [r.id, r.attributes.refund_status])).toEqual([[request.return_id, 'pending']]);
    expect(await listed({ refund_status: ['pending', 'failed'] })).toHaveLength(1);
    expect(await listed({ 'refund_status[]': 'completed' })).toEqual([]);
    expect(await listed({ refund_status: ['not_applicable'] })).toEqual([]);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/returns`,
      headers: authed(m.apiKey),
      payload: { refund_status: ['paid'] },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('refuses a bad UTR, a blank reason, a bad filter, and another account’s refund', async () => {
    const { m } = await approvedRefund({ refund_release: 'pickup' });
    const [refund] = (await refundsOf(m)).data;
    for (const utr of ['12345', 'SBIN 3263312', '-SBIN326331', 'X'.repeat(41)]) {
      const refused = await step(m, refund.id, 'complete', { utr });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details).toEqual([
        { field: 'utr', message: 'utr must be 6 to 40 letters, digits or hyphens' },
      ]);
    }
    const blank = await step(m, refund.id, 'fail', { reason: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details).toEqual([
      { field: 'reason', message: 'reason must be 1 to 500 characters, not blank' },
    ]);
    for (const [query, field] of [
      ['?status=paid', 'status'],
      ['?due=yes', 'due'],
      ['?limit=0', 'limit'],
    ]) {
      const refused = await ctx.app.inject({ method: 'GET', url: `${REFUNDS}${query}`, headers: authed(m.apiKey) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details[0].field).toBe(field);
    }
    const unknownCursor = await ctx.app.inject({
      method: 'GET',
      url: `${REFUNDS}?after=${UNKNOWN_ID}`,
      headers: authed(m.apiKey),
    });
    expect(unknownCursor.statusCode).toBe(400);
    const other = await merchant(ctx);
    expect((await refundsOf(other)).data).toEqual([]);
    for (const response of [
      await ctx.app.inject({ method: 'GET', url: `${REFUNDS}/${refund.id}`, headers: authed(other.apiKey) }),
      await step(other, refund.id, 'initiate'),
      await ctx.app.inject({ method: 'GET', url: `${REFUNDS}/not-a-uuid`, headers: authed(m.apiKey) }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('refund_not_found');
    }
  });
});
