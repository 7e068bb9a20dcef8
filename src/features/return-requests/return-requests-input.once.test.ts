import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';

// What POST /return-requests refuses before any rule is asked: every bad field named at once.
// Nothing here depends on the database engine.

let ctx: TestContext;
let apiKey: string;
useTestApp(async (made) => {
  ctx = made;
  apiKey = (await ctx.createAccount()).apiKey;
});

const GOOD = {
  shipment_id: UNKNOWN_ID,
  items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
  reason: 'size_issue',
  resolution: 'refund',
};

describe('POST /return-requests input', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['a shipment id that is not a UUID', { shipment_id: 'AWB123' }, ['shipment_id']],
    ['no items', { items: [] }, ['items']],
    ['101 items', { items: Array.from({ length: 101 }, (_, i) => ({ sku: `S${i}`, quantity: 1 })) }, ['items']],
    ['a blank SKU', { items: [{ sku: ' ', quantity: 1 }] }, ['items.0.sku']],
    ['no quantity', { items: [{ sku: 'KURTA-M-BLUE' }] }, ['items.0.quantity']],
    ['a quantity of 0', { items: [{ sku: 'KURTA-M-BLUE', quantity: 0 }] }, ['items.0.quantity']],
    ['half a unit', { items: [{ sku: 'KURTA-M-BLUE', quantity: 1.5 }] }, ['items.0.quantity']],
    ['a reason not in the list', { reason: 'too_expensive' }, ['reason']],
    ['neither refund nor exchange', { resolution: 'store_credit' }, ['resolution']],
    ['a comment of 1,001 characters', { comment: 'x'.repeat(1001) }, ['comment']],
    ['a language the pages do not speak', { language: 'fr' }, ['language']],
    ['a refund method that is none of the four', { refund_to: { method: 'cheque' } }, ['refund_to.method']],
    ['a refund without its method', { refund_to: { upi_id: 'asha@okaxis' } }, ['refund_to.method']],
    [
      'a UPI id of 301 characters',
      { refund_to: { method: 'upi', upi_id: `${'a'.repeat(294)}@okaxis` } },
      ['refund_to.upi_id'],
    ],
    [
      'an account number of 31 characters',
      { refund_to: { method: 'bank_transfer', account_number: '1'.repeat(31) } },
      ['refund_to.account_number'],
    ],
    ['refund_to that is not an object', { refund_to: 'upi' }, ['refund_to']],
    [
      'every part wrong at once',
      { shipment_id: 7, items: 'KURTA', reason: null, resolution: 1 },
      ['items', 'reason', 'resolution', 'shipment_id'],
    ],
  ];
  it.each(cases)('refuses %s, naming each field', async (_, change, fields) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests`,
      headers: authed(apiKey),
      payload: { ...GOOD, ...change },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(
      response
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(fields);
  });
});
