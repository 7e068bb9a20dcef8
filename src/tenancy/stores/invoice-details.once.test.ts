import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, UNKNOWN_ID } from '../../../test/kit/http.js';
import { createStore } from '../../../test/kit/stores.js';
import { INVOICE_DETAILS_EXAMPLE } from './invoice-details.schemas.js';

// A store's seller details for its buyers' tax invoices (docs/paperwork.md): PUT and GET
// /client-stores/:id/invoice-details.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const path = (id: string) => `${STORES}/${id}/invoice-details`;
const put = (apiKey: string, id: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url: path(id), headers: authed(apiKey), payload });
const get = (apiKey: string, id: string) => ctx.app.inject({ method: 'GET', url: path(id), headers: authed(apiKey) });

async function aStore() {
  const { apiKey } = await ctx.createAccount();
  const store = await createStore(ctx, apiKey, { store_name: 'acme-invoices', brand_name: 'Acme' });
  return { apiKey, store };
}

describe('GET and PUT /client-stores/:id/invoice-details', () => {
  it('answers nulls until set, then the details as set (GSTIN upper-cased, its State named)', async () => {
    const { apiKey, store } = await aStore();
    const empty = await get(apiKey, store.id);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      data: { store_id: store.id, legal_name: null, gstin: null, state: null, address: null, invoice_prefix: null },
    });
    const set = await put(apiKey, store.id, {
      ...INVOICE_DETAILS_EXAMPLE,
      gstin: INVOICE_DETAILS_EXAMPLE.gstin.toLowerCase(),
      legal_name: '  Acme Apparel Private Limited ',
      // Velocity's rule: a field it does not know is ignored, not refused.
      colour: 'blue',
    });
    expect(set.statusCode).toBe(200);
    const expected = {
      data: { store_id: store.id, ...INVOICE_DETAILS_EXAMPLE, state: 'Delhi' },
    };
    expect(set.json()).toEqual({
      ...expected,
      warnings: [{ field: 'colour', message: 'colour is not a field of this request and was ignored' }],
    });
    expect((await get(apiKey, store.id)).json()).toEqual(expected);
    // The store as its own routes answer it is unchanged.
    const plain = await ctx.app.inject({ method: 'GET', url: `${STORES}/${store.id}`, headers: authed(apiKey) });
    expect(plain.json().data).toEqual(store);
  });

  it.each([
    [
      'a GSTIN whose check character is wrong',
      { gstin: '29AAGCB7383J1Z5' },
      'gstin',
      'gstin 29AAGCB7383J1Z5 is not a valid GSTIN: its last character should be 4, the check character of the first 14',
    ],
    [
      'a GSTIN with no State of that code',
      { gstin: '99AAGCB7383J1Z4' },
      'gstin',
      'gstin 99AAGCB7383J1Z4 is not a valid GSTIN: 99 is not a GST state code; its last character should be X, the check character of the first 14',
    ],
    [
      'a GSTIN of the wrong form',
      { gstin: '29AAGCB7383J1X4' },
      'gstin',
      'gstin must be a 15-character GSTIN such as 07AAGCB7383J1ZA',
    ],
    [
      'a prefix a number could not fit 16 characters with',
      { invoice_prefix: 'ACMEX' },
      'invoice_prefix',
      'invoice_prefix must be 1 to 4 letters or digits, with - or / between them (an invoice number is at most 16 characters)',
    ],
    [
      'a prefix with a space',
      { invoice_prefix: 'A C' },
      'invoice_prefix',
      'invoice_prefix must be 1 to 4 letters or digits, with - or / between them (an invoice number is at most 16 characters)',
    ],
  ])('refuses %s: 400 naming the field, nothing kept', async (_, change, field, message) => {
    const { apiKey, store } = await aStore();
    const response = await put(apiKey, store.id, { ...INVOICE_DETAILS_EXAMPLE, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_request', details: [{ field, message }] });
    expect((await get(apiKey, store.id)).json().data.gstin).toBeNull();
  });

  it('wants all four: a missing one is named', async () => {
    const { apiKey, store } = await aStore();
    const { address: _, ...rest } = INVOICE_DETAILS_EXAMPLE;
    const response = await put(apiKey, store.id, rest);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ field: 'address', message: 'address is required' }]);
  });

  it("answers 404 for another account's store or none", async () => {
    const { store } = await aStore();
    const { apiKey: other } = await ctx.createAccount();
    for (const id of [store.id, UNKNOWN_ID, 'not-a-uuid']) {
      expect((await get(other, id)).json().code).toBe('store_not_found');
      const response = await put(other, id, INVOICE_DETAILS_EXAMPLE);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('store_not_found');
    }
  });
});
