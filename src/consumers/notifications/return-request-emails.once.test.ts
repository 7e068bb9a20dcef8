import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { sendReturnForm } from '../../../test/kit/return-page.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';

// The buyer is told of their return request: kept, then approved or declined, each an e-mail in
// the outbox (no SMTP here) with the link to follow the request on the tracking page.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ settings: { workers: { pollIntervalMs: 100 } }, delivery: ['notifications'] });
});
afterAll(() => ctx?.close());

type Email = { notify_event: string; to: string; subject: string; text: string; html: string };

async function deliveredOrder() {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `mail-${m.id.slice(0, 8)}`, brand_name: 'Kurta Co' });
  const policy = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: { window_days: 7, reasons: ['size_issue'], non_returnable_skus: [], non_returnable_categories: [] },
  });
  expect(policy.statusCode).toBe(200);
  const forward = await deliveredForward(ctx, m, {
    storeName: store.store_name,
    items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 499 }],
  });
  return { m, forward };
}

const emailsOf = async (apiKey: string, shipmentId: string) =>
  (await ctx.app.inject({ method: 'GET', url: `${V1}/shipments/${shipmentId}/emails`, headers: authed(apiKey) })).json()
    .data as Email[];

const returnEmails = async (apiKey: string, shipmentId: string) =>
  (await emailsOf(apiKey, shipmentId)).filter((email) => email.notify_event.startsWith('return_'));

describe("the buyer's e-mails about a return request", () => {
  it('says the request is kept, then approved, each with the link to follow it', async () => {
    const { m, forward } = await deliveredOrder();
    const path = new URL(forward.track_url!).pathname;
    const sent = await sendReturnForm(ctx, path, {
      item_0: '1',
      reason: 'size_issue',
      resolution: 'exchange',
      exchange_for: 'Size L',
    });
    expect(sent.statusCode, sent.body).toBe(303);
    await until(async () => (await returnEmails(m.apiKey, forward.shipment_id)).length === 1, 'the request e-mail');
    const [kept] = await returnEmails(m.apiKey, forward.shipment_id);
    expect(kept).toMatchObject({
      notify_event: 'return_requested',
      to: 'asha@example.com',
      subject: `We received your return request for Kurta Co order ${forward.channel_order_id}`,
    });
    expect(kept!.text).toContain('You asked to send back Cotton Kurta × 1, for an exchange for Size L.');
    expect(kept!.text).toContain(`Follow your request: ${forward.track_url}/return`);
    expect(kept!.html).toContain(`href="${forward.track_url}/return"`);

    const [request] = (
      await ctx.app.inject({ method: 'GET', url: `${V1}/return-requests`, headers: authed(m.apiKey) })
    ).json().data;
    const approved = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests/${request.id}/approve`,
      headers: authed(m.apiKey),
    });
    expect(approved.statusCode).toBe(200);
    await until(async () => (await returnEmails(m.apiKey, forward.shipment_id)).length === 2, 'the approval e-mail');
    expect((await returnEmails(m.apiKey, forward.shipment_id)).map((e) => [e.notify_event, e.subject])).toEqual([
      ['return_requested', `We received your return request for Kurta Co order ${forward.channel_order_id}`],
      ['return_approved', `Your return for Kurta Co order ${forward.channel_order_id} is approved`],
    ]);
  });

  it("says a declined request's reason in the store's words", async () => {
    const { m, forward } = await deliveredOrder();
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests`,
      headers: authed(m.apiKey),
      payload: {
        shipment_id: forward.shipment_id,
        items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
        reason: 'size_issue',
        resolution: 'refund',
      },
    });
    await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests/${asked.json().data.id}/reject`,
      headers: authed(m.apiKey),
      payload: { message: 'The tag has been removed.' },
    });
    await until(async () => (await returnEmails(m.apiKey, forward.shipment_id)).length === 2, 'both e-mails');
    const declined = (await returnEmails(m.apiKey, forward.shipment_id)).find(
      (e) => e.notify_event === 'return_rejected',
    )!;
    expect(declined.subject).toBe(`Your return request for Kurta Co order ${forward.channel_order_id} was declined`);
    expect(declined.text).toContain('The store says: The tag has been removed.');
  });
});
