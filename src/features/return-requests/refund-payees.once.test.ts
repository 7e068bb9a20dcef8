import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { createSecretBox } from '../../base/secret-box.js';

// How a buyer is refunded (docs/returns.md, "Refund methods"): a COD order's buyer gives a UPI id
// or a bank account (its IFSC checked against RBI's published list, the bank named), kept sealed,
// answered masked; the payment system reads it in full from GET /refunds/{id}/payee.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const ITEMS = [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 499 }];
type Merchant = Awaited<ReturnType<typeof merchant>>;

/** A delivered order (COD unless said) of a store taking requests, `storeCredit` as its policy says. */
async function delivered({ cod = true, storeCredit = false } = {}) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `payees-${m.id.slice(0, 8)}` });
  const policy = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: {
      window_days: 10,
      reasons: ['size_issue'],
      non_returnable_skus: [],
      non_returnable_categories: [],
      store_credit: storeCredit,
    },
  });
  expect(policy.statusCode, policy.body).toBe(200);
  expect(policy.json().data.store_credit).toBe(storeCredit);
  const forward = await deliveredForward(ctx, m, { storeName: store.store_name, items: ITEMS, cod });
  return { m, forward };
}

const ask = (m: Merchant, shipmentId: string, refundTo?: object, language = 'en') =>
  ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests`,
    headers: authed(m.apiKey),
    payload: {
      shipment_id: shipmentId,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'size_issue',
      resolution: 'refund',
      language,
      ...(refundTo && { refund_to: refundTo }),
    },
  });

async function approve(m: Merchant, requestId: string) {
  const approved = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests/${requestId}/approve`,
    headers: authed(m.apiKey),
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const refunds = await ctx.app.inject({ method: 'GET', url: `${V1}/refunds`, headers: authed(m.apiKey) });
  return refunds.json().data[0];
}

const payeeOf = (m: Merchant, refundId: string) =>
  ctx.app.inject({ method: 'GET', url: `${V1}/refunds/${refundId}/payee`, headers: authed(m.apiKey) });

const BANK = {
  method: 'bank_transfer',
  account_holder: 'Asha Menon',
  account_number: '5010 0432 1904 521',
  ifsc: 'hdfc0000001',
};

describe("a COD buyer's refund", () => {
  it('to a bank account: the bank named, kept sealed, answered masked, opened in full for the payment system', async () => {
    const { m, forward } = await delivered();
    const asked = await ask(m, forward.shipment_id, BANK);
    expect(asked.statusCode, asked.body).toBe(201);
    const masked = {
      method: 'bank_transfer',
      account_holder: 'Asha Menon',
      account_number: 'XXXXXXXXXXX4521',
      ifsc: 'HDFC0000001',
      bank: 'HDFC Bank',
    };
    expect(asked.json().data.refund_to).toEqual(masked);
    // Sealed under the server's key: the stored row holds neither the number nor the IFSC in clear.
    const [row] = await queryRows<{ refund_to_sealed: string; refund_to: object }>(
      ctx.database.db,
      sql`select refund_to_sealed, refund_to from return_requests where id = ${asked.json().data.id}`,
    );
    expect(row!.refund_to_sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row!.refund_to_sealed).not.toContain('4321904521');
    expect(row!.refund_to).toEqual(masked);

    const refund = await approve(m, asked.json().data.id);
    expect(refund.method).toBe('bank_transfer');
    expect(refund.payee).toEqual(masked);
    const payee = await payeeOf(m, refund.id);
    expect(payee.statusCode).toBe(200);
    expect(payee.headers['cache-control']).toBe('no-store');
    expect(payee.json()).toEqual({
      data: {
        refund_id: refund.id,
        method: 'bank_transfer',
        account_holder: 'Asha Menon',
        account_number: '501004321904521',
        ifsc: 'HDFC0000001',
        bank: 'HDFC Bank',
      },
    });
    // Sealed under a key this server no longer has (SECRETS_KEY changed): a 409 naming the method, not a 500.
    await ctx.database.db.execute(
      sql`update refunds set payee_sealed = ${createSecretBox('another-key-0123456789abcdefghijklmn').seal('{}')} where id = ${refund.id}`,
    );
    const unreadable = await payeeOf(m, refund.id);
    expect(unreadable.statusCode).toBe(409);
    expect(unreadable.json()).toMatchObject({ code: 'refund_payee_unreadable' });
    expect(unreadable.json().message).toMatch(
      /^The payee \(bank_transfer\) cannot be opened: sealed under another key/,
    );
    // Another account's key finds no such refund.
    const other = await merchant(ctx);
    expect((await payeeOf(other, refund.id)).statusCode).toBe(404);
  });

  it('to a UPI id, masked after two characters of its handle', async () => {
    const { m, forward } = await delivered();
    const asked = await ask(m, forward.shipment_id, { method: 'upi', upi_id: 'Asha.Menon@okaxis' });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().data.refund_to).toEqual({ method: 'upi', upi_id: 'as********@okaxis' });
    const refund = await approve(m, asked.json().data.id);
    expect((await payeeOf(m, refund.id)).json().data).toEqual({
      refund_id: refund.id,
      method: 'upi',
      upi_id: 'asha.menon@okaxis',
    });
  });

  it('as store credit where the store offers it; to be agreed when the API names no method', async () => {
    const credit = await delivered({ storeCredit: true });
    const asked = await ask(credit.m, credit.forward.shipment_id, { method: 'store_credit' });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().data.refund_to).toEqual({ method: 'store_credit' });
    const refund = await approve(credit.m, asked.json().data.id);
    expect([refund.method, refund.payee]).toEqual(['store_credit', { method: 'store_credit' }]);
    expect((await payeeOf(credit.m, refund.id)).json().data).toEqual({ refund_id: refund.id, method: 'store_credit' });

    const open = await delivered();
    const unnamed = await ask(open.m, open.forward.shipment_id);
    expect(unnamed.json().data.refund_to).toBeNull();
    const agreed = await approve(open.m, unnamed.json().data.id);
    expect([agreed.method, agreed.payee]).toEqual(['to_be_agreed', null]);
    expect((await payeeOf(open.m, agreed.id)).json().data).toEqual({ refund_id: agreed.id, method: 'to_be_agreed' });
  });

  it("is refused field by field in the buyer's language, with nothing written", async () => {
    const { m, forward } = await delivered();
    const refused = await ask(
      m,
      forward.shipment_id,
      { method: 'bank_transfer', account_number: '1234', ifsc: 'HDFC0ZZZZZZ' },
      'hi',
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('return_request_refused');
    expect(refused.json().details).toEqual([
      { field: 'refund_to.account_holder', message: 'कृपया खाताधारक का नाम दें।' },
      { field: 'refund_to.account_number', message: 'बैंक खाता संख्या 9 से 18 अंकों की होती है।' },
      { field: 'refund_to.ifsc', message: 'यह IFSC बैंक शाखाओं की सूची में नहीं है। कृपया इसे जाँचें।' },
    ]);
    const storeCredit = await ask(m, forward.shipment_id, { method: 'store_credit' });
    expect(storeCredit.statusCode).toBe(422);
    expect(storeCredit.json().details).toEqual([
      {
        field: 'refund_to.method',
        message: 'This way of refunding is not offered for this order. Please choose another.',
      },
    ]);
    const badUpi = await ask(m, forward.shipment_id, { method: 'upi', upi_id: 'asha.menon' });
    expect(badUpi.json().details).toEqual([
      { field: 'refund_to.upi_id', message: 'Please give a UPI id such as name@okaxis.' },
    ]);
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from return_requests where account_id = ${m.id}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });
});

describe("a prepaid buyer's refund", () => {
  it('goes back to how the order was paid; a UPI id is refused', async () => {
    const { m, forward } = await delivered({ cod: false });
    const upi = await ask(m, forward.shipment_id, { method: 'upi', upi_id: 'asha@okaxis' });
    expect(upi.statusCode).toBe(422);
    expect(upi.json().details[0].field).toBe('refund_to.method');
    const asked = await ask(m, forward.shipment_id);
    expect(asked.json().data.refund_to).toEqual({ method: 'original' });
    const refund = await approve(m, asked.json().data.id);
    expect([refund.method, refund.payee]).toEqual(['original', { method: 'original' }]);
  });
});
