import { describe, expect, it } from 'vitest';
import { type EwayBillSource, ewayBillRequest, ewayBillSourceProblems } from './eway-bill-request.js';

// Part A's request from an order's parts (docs/paperwork.md, "Generation through a GSP"): what the
// HTTP tests do not reach, a Union Territory's UTGST and the refusals of what the API cannot take.

const chandigarh = { city: 'Chandigarh', pincode: '160017', state: 'Chandigarh' };
const source = (more: Partial<EwayBillSource> = {}): EwayBillSource => ({
  document: { number: 'ACME/26-27/00042', date: '2026-11-20' },
  supplierGstin: '04AAGCB7383J1Z1',
  dispatchFrom: { name: 'Acme Apparel Private Limited', line1: 'Plot 5, Industrial Area', line2: null, ...chandigarh },
  billTo: { name: 'Asha Menon', line1: '12 Sector 17', line2: 'Near the plaza', gstin: null, ...chandigarh },
  shipTo: null,
  items: [
    {
      name: 'Watch',
      sku: 'W-1',
      hsn: '9102 11',
      units: 1,
      unitPricePaise: 5_900_000,
      unitDiscountPaise: 0,
      taxPercent: 18,
    },
  ],
  orderDiscountPaise: 0,
  distanceKm: 0.4,
  ...more,
});

describe('ewayBillRequest', () => {
  it('within Chandigarh sends CGST and UTGST, the UTGST where SGST goes, and at least 1 km', () => {
    const request = ewayBillRequest(source());
    expect(request.itemList).toEqual([
      {
        productName: 'Watch',
        productDesc: 'W-1',
        hsnCode: 910211,
        quantity: 1,
        qtyUnit: 'NOS',
        taxableAmount: 50_000,
        cgstRate: 9,
        sgstRate: 9,
        cessRate: 0,
      },
    ]);
    expect(request).toMatchObject({
      docNo: 'ACME/26-27/00042',
      docDate: '20/11/2026',
      transactionType: 1,
      fromStateCode: 4,
      actFromStateCode: 4,
      toGstin: 'URP',
      toAddr2: 'Near the plaza',
      toStateCode: 4,
      actToStateCode: 4,
      totalValue: 50_000,
      cgstValue: 4_500,
      sgstValue: 4_500,
      igstValue: 0,
      totInvValue: 59_000,
      transDistance: '1',
    });
  });
});

describe('ewayBillSourceProblems', () => {
  it('names a document number the API refuses and a line without a 4-digit HSN', () => {
    const items = [{ ...source().items[0]!, hsn: '91' }];
    expect(
      ewayBillSourceProblems(source({ document: { number: 'ORDER-2026-11-20-0001', date: '2026-11-20' }, items })),
    ).toEqual([
      {
        field: 'order_id',
        message:
          "the document number ORDER-2026-11-20-0001 is not up to 16 letters, digits, / and -, as the e-way bill's docNo must be: give the store invoice details so the bill carries its tax invoice number",
      },
      {
        field: 'order_items[0].hsn',
        message: "order_items[0].hsn must be the item's HSN code of at least 4 digits for its e-way bill",
      },
    ]);
    expect(ewayBillSourceProblems(source())).toEqual([]);
  });
});
