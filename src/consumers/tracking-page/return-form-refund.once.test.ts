import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { openReturnForm, sendReturnForm } from '../../../test/kit/return-page.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';

// How the buyer's form asks for the refund's payee (docs/returns.md, "Refund methods"): a COD
// order's UPI id or bank account, the account number typed twice, the IFSC checked against RBI's
// list, the bank named back on the page, masked; store credit where the store offers it.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

async function deliveredOrder({ cod = true, storeCredit = false } = {}) {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `pay-${m.id.slice(0, 8)}`, brand_name: 'Kurta Co' });
  const set = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(m.apiKey),
    payload: {
      window_days: 7,
      reasons: ['size_issue'],
      non_returnable_skus: [],
      non_returnable_categories: [],
      store_credit: storeCredit,
    },
  });
  expect(set.statusCode).toBe(200);
  const forward = await deliveredForward(ctx, m, {
    storeName: store.store_name,
    items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 499 }],
    cod,
  });
  return { m, path: new URL(forward.track_url!).pathname };
}

const REFUND = { item_0: '1', reason: 'size_issue', resolution: 'refund' };
const BANK = {
  ...REFUND,
  refund_method: 'bank_transfer',
  refund_account_holder: 'Asha Menon',
  refund_account_number: '501004321904521',
  refund_account_number_again: '5010 0432 1904 521',
  refund_ifsc: 'hdfc0000001',
};

/** The refused fields' messages, in the order the page's summary lists them. */
const summary = (body: string) =>
  [...body.matchAll(/<li class="error"><a href="#([^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => [m[1], m[2]]);

describe("the return form's refund", () => {
  it("offers a COD buyer UPI or a bank account (not the order's own method, nor store credit the store does not offer)", async () => {
    const { path } = await deliveredOrder();
    const { page } = await openReturnForm(ctx, path);
    expect(page.body).toContain('How would you like your money back?');
    const methods = [...page.body.matchAll(/name="refund_method" value="([a-z_]+)"/g)].map((m) => m[1]);
    expect(methods).toEqual(['upi', 'bank_transfer']);
    for (const field of ['upi_id', 'account_holder', 'account_number', 'account_number_again', 'ifsc'])
      expect(page.body).toContain(`id="refund_${field}" name="refund_${field}"`);
    const prepaid = await deliveredOrder({ cod: false, storeCredit: true });
    const offered = (await openReturnForm(ctx, prepaid.path)).page.body;
    expect([...offered.matchAll(/name="refund_method" value="([a-z_]+)"/g)].map((m) => m[1])).toEqual([
      'original',
      'store_credit',
    ]);
    expect(offered).not.toContain('name="refund_upi_id"');
  });

  it('refuses a COD refund without a method, account numbers that differ and an IFSC not in the list, beside each field', async () => {
    const { m, path } = await deliveredOrder();
    const none = await sendReturnForm(ctx, path, REFUND);
    expect(none.statusCode).toBe(400);
    expect(summary(none.body)).toEqual([['refund_method', 'Choose how you would like your money back.']]);

    const differ = await sendReturnForm(ctx, path, { ...BANK, refund_account_number_again: '501004321904512' });
    expect(differ.statusCode).toBe(400);
    expect(summary(differ.body)).toEqual([
      ['refund_account_number_again', 'Account number again: the two account numbers are not the same'],
    ]);
    // What the buyer typed is sent back to them, to correct.
    expect(differ.body).toContain('value="501004321904512"');

    const unknown = await sendReturnForm(ctx, path, { ...BANK, refund_ifsc: 'HDFC0ZZZZZZ' });
    expect(unknown.statusCode).toBe(400);
    expect(summary(unknown.body)).toEqual([
      ['refund_ifsc', 'This IFSC is not in the list of bank branches. Please check it.'],
    ]);
    expect(unknown.body).toContain('aria-invalid="true" aria-describedby="refund_ifsc-error"');
    const badUpi = await sendReturnForm(ctx, path, { ...REFUND, refund_method: 'upi', refund_upi_id: 'asha' });
    expect(summary(badUpi.body)).toEqual([['refund_upi_id', 'Please give a UPI id such as name@okaxis.']]);
    const kept = await ctx.app.inject({ method: 'GET', url: `${V1}/return-requests`, headers: authed(m.apiKey) });
    expect(kept.json().data).toEqual([]);
  });

  it('keeps a bank account, naming the bank back to the buyer with the number masked', async () => {
    const { m, path } = await deliveredOrder();
    const sent = await sendReturnForm(ctx, path, BANK);
    expect(sent.statusCode, sent.body).toBe(303);
    const page = await ctx.app.inject({ method: 'GET', url: `${path}/return?lang=en&sent=1` });
    expect(page.body).toContain('Refund to HDFC Bank account XXXXXXXXXXX4521');
    expect(page.body).not.toContain('501004321904521');
    const [request] = (
      await ctx.app.inject({ method: 'GET', url: `${V1}/return-requests`, headers: authed(m.apiKey) })
    ).json().data;
    expect(request.refund_to).toEqual({
      method: 'bank_transfer',
      account_holder: 'Asha Menon',
      account_number: 'XXXXXXXXXXX4521',
      ifsc: 'HDFC0000001',
      bank: 'HDFC Bank',
    });
  });

  it('keeps a UPI id, and an exchange with no refund at all', async () => {
    const { path } = await deliveredOrder();
    const sent = await sendReturnForm(ctx, path, {
      ...REFUND,
      refund_method: 'upi',
      refund_upi_id: 'asha.menon@okaxis',
    });
    expect(sent.statusCode, sent.body).toBe(303);
    const page = await ctx.app.inject({ method: 'GET', url: `${path}/return?lang=hi` });
    expect(page.body).toContain('UPI as********@okaxis पर वापसी');
    const exchange = await deliveredOrder();
    const asked = await sendReturnForm(ctx, exchange.path, {
      ...REFUND,
      resolution: 'exchange',
      refund_method: 'bank_transfer',
      refund_account_number: '1',
    });
    expect(asked.statusCode, asked.body).toBe(303);
    const [request] = (
      await ctx.app.inject({ method: 'GET', url: `${V1}/return-requests`, headers: authed(exchange.m.apiKey) })
    ).json().data;
    expect([request.resolution, request.refund_to]).toEqual(['exchange', null]);
  });
});
