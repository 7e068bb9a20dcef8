import { describe, expect, it } from 'vitest';
import { gstinCheckCharacter } from './gstin.js';
import { sellerGstin, stateCodeOf, taxInvoice, type TaxInvoiceInput } from './tax-invoice.js';

const gstin = (code: string) => `${code}AAGCB7383J1Z${gstinCheckCharacter(`${code}AAGCB7383J1Z`)}`;

describe('the GSTIN a parcel is invoiced under', () => {
  it.each([
    ["the store's, registered where the parcel leaves", gstin('07'), null, 'Delhi', gstin('07')],
    ["the warehouse's own, when the store's is of another State", gstin('29'), gstin('07'), 'Delhi', gstin('07')],
    ["none: the warehouse's is of a third State", gstin('29'), gstin('27'), 'Delhi', null],
    ['none: the warehouse has none', gstin('29'), null, 'Delhi', null],
    ["none: the warehouse's fails its check character", gstin('29'), `${gstin('07').slice(0, 14)}0`, 'Delhi', null],
    // 26 and the older 25 both name Dadra and Nagar Haveli and Daman and Diu.
    [
      "the store's under the older code of a merged Union Territory",
      gstin('25'),
      null,
      'Dadra and Nagar Haveli and Daman and Diu',
      gstin('25'),
    ],
  ])('%s', (_, store, warehouse, state, chosen) => {
    expect(sellerGstin(store, warehouse, state)).toBe(chosen);
  });
});

describe("a State's GST code", () => {
  it.each([
    ['Delhi', '07'],
    ['Karnataka', '29'],
    ['Andhra Pradesh', '37'],
    ['Dadra and Nagar Haveli and Daman and Diu', '26'],
    ['Ladakh', '38'],
    ['Atlantis', null],
  ])('%s: %s', (state, code) => {
    expect(stateCodeOf(state)).toBe(code);
  });
});

describe('a tax invoice', () => {
  const input = (over: Partial<TaxInvoiceInput> = {}): TaxInvoiceInput => ({
    number: { prefix: 'ACME', financialYear: 2026, sequence: 7, issuedAt: new Date('2026-11-20T20:00:00Z') },
    seller: { legalName: 'Acme Apparel Private Limited', address: 'Plot 14\r\n\nNew Delhi 110020' },
    sellerGstin: gstin('07'),
    supplierState: 'Delhi',
    buyer: { name: 'Priya Sharma', lines: ['42, 5th Cross'], state: 'Karnataka', gstin: null },
    shipTo: null,
    items: [
      { name: 'Kurta', sku: 'K', hsn: '6211', units: 1, unitPricePaise: 118_000, unitDiscountPaise: 0, taxPercent: 18 },
    ],
    orderDiscountPaise: 0,
    ...over,
  });

  it('numbers and dates it (India date), names the parties with their codes, and taxes by the place of supply', () => {
    const invoice = taxInvoice(input());
    expect(invoice).toMatchObject({
      number: 'ACME/26-27/00007',
      // 20:00 UTC is 01:30 the next day in India.
      date: '2026-11-21',
      seller: {
        name: 'Acme Apparel Private Limited',
        lines: ['Plot 14', 'New Delhi 110020'],
        state: 'Delhi',
        stateCode: '07',
      },
      buyer: { name: 'Priya Sharma', state: 'Karnataka', stateCode: '29', gstin: null },
      placeOfSupply: { state: 'Karnataka', stateCode: '29' },
      supply: 'inter_state',
      totals: { taxablePaise: 100_000, taxes: [{ kind: 'igst', amountPaise: 18_000 }], totalPaise: 118_000 },
      amountInWords: 'Rupees One Thousand One Hundred Eighty Only',
    });
  });

  it('takes the place of supply from where the goods are delivered, not where they are billed (IGST Act s.10(1)(a))', () => {
    const invoice = taxInvoice(input({ shipTo: { name: 'Priya', lines: ['Okhla'], state: 'Delhi' } }));
    expect(invoice.placeOfSupply).toEqual({ state: 'Delhi', stateCode: '07' });
    expect(invoice.supply).toBe('intra_state');
    expect(invoice.totals.taxes.map((tax) => tax.kind)).toEqual(['cgst', 'sgst']);
    expect(invoice.shipTo).toEqual({ name: 'Priya', lines: ['Okhla'], state: 'Delhi', stateCode: '07' });
  });
});
