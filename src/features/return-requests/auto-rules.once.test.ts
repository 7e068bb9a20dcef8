import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { sendReturnForm } from '../../../test/kit/return-page.js';
import { shipCod } from '../../../test/kit/cod.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';

// A store's auto rules deciding requests as they come in (docs/returns.md): the first rule that
// holds approves (booking the return, recording the refund) or rejects; none holding, the queue.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const RULES = [
  {
    action: 'reject',
    message: 'We could not accept this return: please write to us.',
    when: { buyer_returns_min: 1 },
  },
  { action: 'approve', when: { reasons: ['damaged', 'defective'], order_value_max: 1500 } },
];
const POLICY = {
  window_days: 10,
  reasons: ['size_issue', 'damaged'],
  non_returnable_skus: [],
  non_returnable_categories: [],
  auto_rules: RULES,
};

async function storeWithRules() {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `rules-${m.id.slice(0, 8)}` });
  const set = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: POLICY,
  });
  expect(set.statusCode, set.body).toBe(200);
  return { m, store, policy: set.json().data };
}

const ask = (apiKey: string, shipmentId: string, reason: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests`,
    headers: authed(apiKey),
    payload: { shipment_id: shipmentId, items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }], reason, resolution: 'refund' },
  });

describe("a store's auto rules", () => {
  it('are kept as written and read back', async () => {
    const { policy } = await storeWithRules();
    expect(policy.auto_rules).toEqual(RULES);
  });

  it('approve a damaged item of a small order at once, reject the same buyer next time, and leave the rest to the queue', async () => {
    const { m } = await storeWithRules();
    const first = await deliveredForward(ctx, m, { storeName: `rules-${m.id.slice(0, 8)}` });
    const approved = await ask(m.apiKey, first.shipment_id, 'damaged');
    expect(approved.statusCode, approved.body).toBe(201);
    expect(approved.json().data).toMatchObject({
      status: 'approved',
      decided_by: 'rule',
      decision_rule: 1,
      decision_note: null,
      return_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      decided_at: '2026-11-20T06:30:00.000Z',
    });
    // Approved by the rule as by the merchant: the refund is recorded.
    const refunds = await ctx.app.inject({ method: 'GET', url: `${V1}/refunds`, headers: authed(m.apiKey) });
    expect(refunds.json().data).toEqual([
      expect.objectContaining({ return_request_id: approved.json().data.id, status: 'pending' }),
    ]);

    // The same buyer (the same phone), another order: one approved return already, so the first rule rejects.
    const second = await deliveredForward(ctx, m, { storeName: `rules-${m.id.slice(0, 8)}` });
    const rejected = await ask(m.apiKey, second.shipment_id, 'damaged');
    expect(rejected.json().data).toMatchObject({
      status: 'rejected',
      decided_by: 'rule',
      decision_rule: 0,
      decision_note: 'We could not accept this return: please write to us.',
      return_id: null,
    });
  });

  it("leave a request no rule holds for in the queue, and the buyer's page says where it stands", async () => {
    const { m } = await storeWithRules();
    const forward = await deliveredForward(ctx, m, { storeName: `rules-${m.id.slice(0, 8)}` });
    const path = new URL(forward.track_url!).pathname;
    const sent = await sendReturnForm(ctx, path, { item_0: '1', reason: 'size_issue', resolution: 'refund' });
    expect(sent.statusCode, sent.body).toBe(303);
    const queue = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/return-requests?status=pending`,
      headers: authed(m.apiKey),
    });
    expect(queue.json().data).toEqual([
      expect.objectContaining({ status: 'pending', decided_by: null, decision_rule: null }),
    ]);
    // A merchant's own decision says so.
    const id = queue.json().data[0].id;
    const approved = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests/${id}/approve`,
      headers: authed(m.apiKey),
    });
    expect(approved.json().data).toMatchObject({ status: 'approved', decided_by: 'merchant', decision_rule: null });
    const page = await ctx.app.inject({ method: 'GET', url: `${path}/return?lang=en` });
    expect(page.body).toContain('Approved: a courier will come to collect the items');
  });

  it("reject a buyer whose orders went back to origin, by the RTOs the buyer's history counts", async () => {
    const { m, store } = await storeWithRules();
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}/return-policy`,
      headers: authed(m.apiKey),
      payload: {
        ...POLICY,
        auto_rules: [{ action: 'reject', message: 'Please call us about this return.', when: { buyer_rto_min: 1 } }],
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    const first = await deliveredForward(ctx, m, { storeName: store.store_name });
    // No RTO yet: the rule does not hold, and the request waits.
    expect((await ask(m.apiKey, first.shipment_id, 'damaged')).json().data.status).toBe('pending');
    await shipCod(ctx, m, [650], { end: 'rto_initiated' });
    const second = await deliveredForward(ctx, m, { storeName: store.store_name });
    expect((await ask(m.apiKey, second.shipment_id, 'damaged')).json().data).toMatchObject({
      status: 'rejected',
      decided_by: 'rule',
      decision_rule: 0,
      decision_note: 'Please call us about this return.',
    });
  });

  it('refuse a rejecting rule without the words the buyer is told, and a condition out of range', async () => {
    const { m, store } = await storeWithRules();
    const put = (auto_rules: unknown) =>
      ctx.app.inject({
        method: 'PUT',
        url: `${STORES}/${store.id}/return-policy`,
        headers: authed(m.apiKey),
        payload: { ...POLICY, auto_rules },
      });
    const unworded = await put([{ action: 'approve' }, { action: 'reject', when: { buyer_rto_min: 2 } }]);
    expect(unworded.statusCode).toBe(400);
    expect(unworded.json()).toMatchObject({
      code: 'return_policy_invalid',
      details: [{ field: 'auto_rules.1.message', message: 'is required to reject: the buyer is told it' }],
    });
    for (const [rules, field] of [
      [[{ action: 'hold' }], 'auto_rules.0.action'],
      [[{ action: 'approve', when: { order_value_max: -1 } }], 'auto_rules.0.when.order_value_max'],
      [[{ action: 'approve', when: { pickup_pincodes: ['40001'] } }], 'auto_rules.0.when.pickup_pincodes.0'],
      [[{ action: 'approve', when: { reasons: ['bored'] } }], 'auto_rules.0.when.reasons.0'],
      [Array.from({ length: 21 }, () => ({ action: 'approve' })), 'auto_rules'],
    ] as const) {
      const refused = await put(rules);
      expect(refused.statusCode, JSON.stringify(rules)).toBe(400);
      expect(refused.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});
