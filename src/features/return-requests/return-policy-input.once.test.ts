import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES } from '../../../test/kit/http.js';
import { createStore } from '../../../test/kit/stores.js';
import { IGNORED } from '../../../test/lenient-input.js';
import { RETURN_POLICY_EXAMPLE } from './return-requests.examples.js';

// Every bad part of a return policy is named, and nothing is saved. Nothing here depends on the
// database engine.

let ctx: TestContext;
let apiKey: string;
let storeId: string;
useTestApp(async (made) => {
  ctx = made;
  const account = await ctx.createAccount();
  apiKey = account.apiKey;
  storeId = (await createStore(ctx, apiKey, { store_name: 'policy-input' })).id;
});

const set = (payload: unknown) =>
  ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${storeId}/return-policy`,
    headers: authed(apiKey),
    payload: payload as object,
  });

describe('PUT /client-stores/{id}/return-policy input', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['a negative window', { window_days: -1 }, ['window_days']],
    ['a deduction over 100 %', { refund_deduction_percent: 101 }, ['refund_deduction_percent']],
    ['a deduction of half a percent', { refund_deduction_percent: 12.5 }, ['refund_deduction_percent']],
    ['a negative return fee', { return_shipping_fee: -1 }, ['return_shipping_fee']],
    ['a return fee over ₹10,000', { return_shipping_fee: 10_001 }, ['return_shipping_fee']],
    ['a release rule not in the list', { refund_release: 'delivery' }, ['refund_release']],
    ['a window over 180 days', { window_days: 181 }, ['window_days']],
    ['half a day', { window_days: 1.5 }, ['window_days']],
    ['no reasons', { reasons: [] }, ['reasons']],
    ['a reason not in the list', { reasons: ['changed_my_mind'] }, ['reasons.0']],
    ['a reason twice', { reasons: ['damaged', 'damaged'] }, ['reasons']],
    ['a blank SKU', { non_returnable_skus: ['  '] }, ['non_returnable_skus.0']],
    ['a SKU of 101 characters', { non_returnable_skus: ['S'.repeat(101)] }, ['non_returnable_skus.0']],
    ['a SKU twice', { non_returnable_skus: ['A', 'A'] }, ['non_returnable_skus']],
    [
      '1,001 SKUs',
      { non_returnable_skus: Array.from({ length: 1001 }, (_, i) => `SKU-${i}`) },
      ['non_returnable_skus'],
    ],
    ['a category twice', { non_returnable_categories: ['Jewellery', 'Jewellery'] }, ['non_returnable_categories']],
    [
      '201 categories',
      { non_returnable_categories: Array.from({ length: 201 }, (_, i) => `Category ${i}`) },
      ['non_returnable_categories'],
    ],
    [
      'every part wrong at once',
      { window_days: 'seven', reasons: 'damaged', non_returnable_skus: 'SOCKS', non_returnable_categories: null },
      ['non_returnable_categories', 'non_returnable_skus', 'reasons', 'window_days'],
    ],
  ];
  it.each(cases)('refuses %s, naming each field, and keeps the defaults', async (_, change, fields) => {
    const response = await set({ ...RETURN_POLICY_EXAMPLE, ...change });
    expect(response.statusCode, response.body).toBe(400);
    expect(
      response
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(fields);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `${STORES}/${storeId}/return-policy`,
      headers: authed(apiKey),
    });
    expect(read.json().data.updated_at).toBeNull();
  });

  it('refuses a missing part, naming it', async () => {
    const { reasons: _, ...withoutReasons } = RETURN_POLICY_EXAMPLE;
    const response = await set(withoutReasons);
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual(['reasons']);
  });

  it('refuses a store id that is not a UUID as a store it does not know', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/not-a-store/return-policy`,
      headers: authed(apiKey),
      payload: RETURN_POLICY_EXAMPLE,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'store_not_found' });
  });

  // Last: it saves the policy.
  it('ignores a field it does not have, naming it, and saves the rest', async () => {
    const response = await set({ ...RETURN_POLICY_EXAMPLE, refund_days: 7 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers[IGNORED]).toBe('refund_days');
    expect(response.json().data).toMatchObject(RETURN_POLICY_EXAMPLE);
  });
});
