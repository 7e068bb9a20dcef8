import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { invoicingStore, validGstin } from '../../../test/kit/invoices.js';
import { popplerRead } from '../../../test/kit/labels.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';

// POST /invoices (docs/paperwork.md, "The buyer's tax invoice"): a print run's invoices in one A4
// PDF, read back with pdftotext; all or nothing, naming every AWB that cannot be invoiced.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const print = (apiKey: string, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: `${V1}/invoices`, headers: authed(apiKey), payload: payload as object });

async function merchant() {
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createWarehouse(ctx, apiKey, {
    address_attributes: {
      street_address: 'Plot 14, Okhla Phase III',
      zip: '110001',
      city: 'New Delhi',
      state: 'Delhi',
      country: 'India',
    },
  });
  await invoicingStore(ctx, apiKey, 'acme', { gstin: validGstin('07') });
  return { apiKey, warehouseId };
}

describe('POST /invoices', () => {
  it("prints each shipment's invoice from a page of its own, in the order sent, an AWB repeated once", async () => {
    const { apiKey, warehouseId } = await merchant();
    const first = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'acme', order_id: 'BULK-1' }));
    const second = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'acme', order_id: 'BULK-2' }));
    const response = await print(apiKey, { awbs: [second.awb_code, first.awb_code, second.awb_code] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="invoices-3.pdf"');
    const read = await popplerRead(response.rawPayload);
    expect(read.pages).toBe(2);
    expect(read.pageSize).toMatch(/^595\.2\d* x 841\.8\d* pts \(A4\)$/);
    // Numbered at booking: BULK-1 first. Printed in the order sent: BULK-2's page first.
    expect(read.pageTexts[0]).toContain('ACME/26-27/00002');
    expect(read.pageTexts[0]).toContain('BULK-2');
    expect(read.pageTexts[0]).toContain(second.awb_code!);
    expect(read.pageTexts[0]).not.toContain('BULK-1');
    expect(read.pageTexts[1]).toContain('ACME/26-27/00001');
    expect(read.pageTexts[1]).toContain('BULK-1');
    expect(read.pageTexts[1]).toContain(first.awb_code!);
  });

  it("422 bulk_invoices_refused naming every AWB that is not the account's or cannot be invoiced, and no PDF", async () => {
    const { apiKey, warehouseId } = await merchant();
    await createStore(ctx, apiKey, { store_name: 'plain' });
    const good = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'acme' }));
    const plain = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'plain' }));
    const other = await ctx.createAccount();
    const otherWarehouse = await createWarehouse(ctx, other.apiKey);
    const theirs = await orchestrate(ctx, other.apiKey, orderBody(otherWarehouse));
    const response = await print(apiKey, { awbs: [good.awb_code, plain.awb_code, theirs.awb_code, 'NOSUCHAWB'] });
    expect(response.statusCode, response.body).toBe(422);
    const body = response.json();
    expect(body.code).toBe('bulk_invoices_refused');
    expect(body.details.map((d: { field: string }) => d.field)).toEqual(['awbs[1]', 'awbs[2]', 'awbs[3]']);
    expect(body.details[0].message).toMatch(
      new RegExp(`^${plain.awb_code}: The store of shipment .* has no invoice details`),
    );
    expect(body.details[1].message).toBe(`${theirs.awb_code}: Shipment not found`);
    expect(body.details[2].message).toBe('NOSUCHAWB: Shipment not found');
  });

  it('400 naming awbs for an empty list, one over 500 or an AWB that is not text', async () => {
    const { apiKey } = await merchant();
    const cases: [unknown[], string][] = [
      [[], 'awbs'],
      [Array.from({ length: 501 }, (_, i) => `AWB${i}`), 'awbs'],
      [[{ awb: 'X' }], 'awbs.0'],
    ];
    for (const [awbs, field] of cases) {
      const response = await print(apiKey, { awbs });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    const missing = await print(apiKey, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.map((d: { field: string }) => d.field)).toEqual(['awbs']);
  });
});
