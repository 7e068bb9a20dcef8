import { expect } from 'vitest';
import { gstinCheckCharacter } from '../../src/domain/paperwork/gstin.js';
import type { TestContext } from '../app.js';
import { authed, STORES } from './http.js';
import { createStore } from './stores.js';

/** A GSTIN that passes every check, registered in the State of `stateCode` (07 Delhi, 29 Karnataka, 04 Chandigarh…). */
export function validGstin(stateCode: string, pan = 'AAGCB7383J'): string {
  const first14 = `${stateCode}${pan}1Z`;
  return first14 + gstinCheckCharacter(first14);
}

/** A store with the seller's invoice details set (PUT /client-stores/:id/invoice-details). */
export async function invoicingStore(
  ctx: TestContext,
  apiKey: string,
  storeName: string,
  details: { legal_name?: string; gstin?: string; address?: string; invoice_prefix?: string } = {},
  brand?: { brand_name?: string; logo?: string },
) {
  const store = await createStore(ctx, apiKey, { store_name: storeName, brand_name: 'Acme Apparel', ...brand });
  const response = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/invoice-details`,
    headers: authed(apiKey),
    payload: {
      legal_name: 'Acme Apparel Private Limited',
      gstin: validGstin('07'),
      address: 'Plot 14, Okhla Phase III, New Delhi, Delhi 110020',
      invoice_prefix: 'ACME',
      ...details,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return store;
}
