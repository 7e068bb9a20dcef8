import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, SHIPMENTS, STORES } from '../../../test/kit/http.js';
import { INVOICE_DETAILS_EXAMPLE } from '../../tenancy/stores/invoice-details.schemas.js';
import { invoicingStore, validGstin } from '../../../test/kit/invoices.js';
import { popplerRead } from '../../../test/kit/labels.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { realPng } from '../../../test/kit/uploads.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';

// GET /shipments/:id/invoice (docs/paperwork.md, "The buyer's tax invoice"): the JSON, and the PDF
// read back with poppler's pdftotext, field by field, for a supply within a State, one across
// States and one within a Union Territory without a legislature (UTGST).

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const invoiceOf = (apiKey: string, id: string, format?: 'pdf' | 'json') =>
  ctx.app.inject({
    method: 'GET',
    url: `${SHIPMENTS}/${id}/invoice${format ? `?format=${format}` : ''}`,
    headers: authed(apiKey),
  });

/** The PDF's text as pdftotext reads it, in lines, without the blank ones. */
async function pdfLines(apiKey: string, id: string) {
  const response = await invoiceOf(apiKey, id, 'pdf');
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  const read = await popplerRead(response.rawPayload);
  expect(read.pageSize).toMatch(/^595\.2\d* x 841\.8\d* pts \(A4\)$/);
  return { read, text: read.pageTexts.join('\n'), disposition: response.headers['content-disposition'] };
}

const PLACES = {
  delhi: { street_address: 'Plot 14, Okhla Phase III', zip: '110001', city: 'New Delhi', state: 'Delhi' },
  chandigarh: {
    street_address: 'Plot 5, Industrial Area Phase I',
    zip: '160002',
    city: 'Chandigarh',
    state: 'Chandigarh',
  },
};

async function merchantIn(place: keyof typeof PLACES, stateCode: string, gstNo?: string) {
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createWarehouse(ctx, apiKey, {
    name: `Hub ${place}`,
    address_attributes: { ...PLACES[place], country: 'India' },
    ...(gstNo && { gst_no: gstNo }),
  });
  const storeName = `acme-${place}-${stateCode}`;
  const store = await invoicingStore(
    ctx,
    apiKey,
    storeName,
    {
      gstin: validGstin(stateCode),
      address: `Plot 14, Okhla Phase III\nNew Delhi, Delhi 110020`,
    },
    { brand_name: 'Acme Apparel', logo: realPng().toString('base64') },
  );
  return { apiKey, warehouseId, storeName, store };
}

const buyerAt = (to: { city: string; pincode: string; state: string }) => ({
  billing_customer_name: 'Priya',
  billing_last_name: 'Sharma',
  billing_address: '42, 5th Cross',
  billing_city: to.city,
  billing_pincode: to.pincode,
  billing_state: to.state,
});

describe('GET /shipments/:id/invoice within a State (CGST and SGST)', () => {
  it('answers the JSON of every field, and the PDF prints each', async () => {
    const m = await merchantIn('delhi', '07');
    const booked = await orchestrate(
      ctx,
      m.apiKey,
      orderBody(m.warehouseId, {
        store_name: m.storeName,
        order_id: 'INV-DELHI-1',
        ...buyerAt({ city: 'New Delhi', pincode: '110020', state: 'Delhi' }),
        order_items: [
          { name: 'Cotton Kurta', sku: 'KURTA-M', units: 3, selling_price: 1299, discount: 100, tax: 18, hsn: '6211' },
          { name: 'Cotton Socks', sku: 'SOCKS-1', units: 1, selling_price: 105, tax: 5, hsn: '6115' },
        ],
        sub_total: 3702,
      }),
    );
    const response = await invoiceOf(m.apiKey, booked.shipment_id);
    expect(response.statusCode, response.body).toBe(200);
    const gstin = validGstin('07');
    expect(response.json()).toEqual({
      shipment_id: booked.shipment_id,
      awb_code: booked.awb_code,
      order_id: 'INV-DELHI-1',
      invoice_number: 'ACME/26-27/00001',
      invoice_date: '2026-11-20',
      seller: {
        name: 'Acme Apparel Private Limited',
        address: ['Plot 14, Okhla Phase III', 'New Delhi, Delhi 110020'],
        state: 'Delhi',
        state_code: '07',
        gstin,
      },
      buyer: {
        name: 'Priya Sharma',
        address: ['42, 5th Cross', 'New Delhi, Delhi 110020'],
        state: 'Delhi',
        state_code: '07',
        gstin: null,
      },
      ship_to: null,
      place_of_supply: { state: 'Delhi', state_code: '07' },
      supply: 'intra_state',
      items: [
        {
          name: 'Cotton Kurta',
          sku: 'KURTA-M',
          hsn: '6211',
          units: 3,
          unit_price: 1100.85,
          discount: 254.24,
          taxable_value: 3048.31,
          tax_percent: 18,
          taxes: [
            { kind: 'cgst', rate_percent: 9, amount: 274.35 },
            { kind: 'sgst', rate_percent: 9, amount: 274.35 },
          ],
          total: 3597.01,
        },
        {
          name: 'Cotton Socks',
          sku: 'SOCKS-1',
          hsn: '6115',
          units: 1,
          unit_price: 100,
          discount: 0,
          taxable_value: 100,
          tax_percent: 5,
          taxes: [
            { kind: 'cgst', rate_percent: 2.5, amount: 2.5 },
            { kind: 'sgst', rate_percent: 2.5, amount: 2.5 },
          ],
          total: 105,
        },
      ],
      totals: {
        taxable_value: 3148.31,
        taxes: [
          { kind: 'cgst', amount: 276.85 },
          { kind: 'sgst', amount: 276.85 },
        ],
        rounding: -0.01,
        total: 3702,
        amount_in_words: 'Rupees Three Thousand Seven Hundred Two Only',
      },
    });

    const { read, text, disposition } = await pdfLines(m.apiKey, booked.awb_code!);
    expect(read.pages).toBe(1);
    expect(disposition).toBe('inline; filename="invoice-ACME-26-27-00001.pdf"');
    for (const expected of [
      'Acme Apparel',
      'TAX INVOICE',
      'Invoice No. ACME/26-27/00001',
      'Invoice Date 20-11-2026',
      `Order INV-DELHI-1 · AWB ${booked.awb_code}`,
      'SOLD BY',
      'Acme Apparel Private Limited',
      'Plot 14, Okhla Phase III',
      'New Delhi, Delhi 110020',
      `GSTIN: ${gstin}`,
      'BILL TO',
      'Priya Sharma',
      '42, 5th Cross',
      'State: Delhi (07)',
      'Place of supply: Delhi (07) · Intra-State supply',
      'HSN',
      'Taxable value',
      'CGST rate,',
      'SGST rate,',
      'Cotton Kurta',
      'SKU KURTA-M',
      '6211',
      '1,100.85',
      '254.24',
      '3,048.31',
      '9%',
      '274.35',
      '3,597.01',
      'Cotton Socks',
      '6115',
      '2.5%',
      '2.50',
      'Rounding off',
      '-0.01',
      'Total before rounding',
      '3,702.01',
      '276.85',
      '3,148.31',
      'Invoice total',
      '₹3,702.00',
      'Amount in words: Rupees Three Thousand Seven Hundred Two Only',
    ])
      expect(text).toContain(expected);
    // A buyer without a GSTIN (B2C) has no GSTIN line: the only one is the seller's.
    expect(text.match(/GSTIN:/g)).toHaveLength(1);
    expect(text).not.toContain('IGST');
  });
});

describe('GET /shipments/:id/invoice across States (IGST)', () => {
  it('charges IGST at the whole rate, the place of supply being the delivery pincode’s State', async () => {
    const m = await merchantIn('delhi', '07');
    // orderBody: 2 × ₹499 at 5 %, HSN 6211, to Mumbai 400001.
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: m.storeName }));
    const json = (await invoiceOf(m.apiKey, booked.shipment_id, 'json')).json();
    expect(json).toMatchObject({
      invoice_number: 'ACME/26-27/00001',
      buyer: { name: 'Asha Menon', state: 'Maharashtra', state_code: '27', gstin: null },
      place_of_supply: { state: 'Maharashtra', state_code: '27' },
      supply: 'inter_state',
      items: [
        {
          units: 2,
          unit_price: 475.24,
          discount: 0,
          taxable_value: 950.48,
          tax_percent: 5,
          taxes: [{ kind: 'igst', rate_percent: 5, amount: 47.52 }],
          total: 998,
        },
      ],
      totals: {
        taxable_value: 950.48,
        taxes: [{ kind: 'igst', amount: 47.52 }],
        rounding: 0,
        total: 998,
        amount_in_words: 'Rupees Nine Hundred Ninety-Eight Only',
      },
    });
    const { text } = await pdfLines(m.apiKey, booked.shipment_id);
    for (const expected of [
      'Invoice No. ACME/26-27/00001',
      'Asha Menon',
      '12 Marine Drive',
      'State: Maharashtra (27)',
      'State: Delhi (07)',
      'Place of supply: Maharashtra (27) · Inter-State supply',
      'IGST rate,',
      '6211',
      '475.24',
      '950.48',
      '5%',
      '47.52',
      '998.00',
      'Rounding off',
      '₹998.00',
      'Amount in words: Rupees Nine Hundred Ninety-Eight Only',
    ])
      expect(text).toContain(expected);
    expect(text).not.toMatch(/CGST|SGST|UTGST/);
  });
});

describe('GET /shipments/:id/invoice within a Union Territory without a legislature (UTGST)', () => {
  it('charges CGST and UTGST in Chandigarh', async () => {
    const m = await merchantIn('chandigarh', '04');
    const booked = await orchestrate(
      ctx,
      m.apiKey,
      orderBody(m.warehouseId, {
        store_name: m.storeName,
        ...buyerAt({ city: 'Chandigarh', pincode: '160022', state: 'Chandigarh' }),
        order_items: [{ name: 'Leather Wallet', sku: 'WALLET-1', units: 1, selling_price: 1180, tax: 18, hsn: '4202' }],
        sub_total: 1180,
      }),
    );
    const json = (await invoiceOf(m.apiKey, booked.shipment_id)).json();
    expect(json).toMatchObject({
      seller: { state: 'Chandigarh', state_code: '04', gstin: validGstin('04') },
      place_of_supply: { state: 'Chandigarh', state_code: '04' },
      supply: 'intra_state',
      items: [
        {
          taxable_value: 1000,
          taxes: [
            { kind: 'cgst', rate_percent: 9, amount: 90 },
            { kind: 'utgst', rate_percent: 9, amount: 90 },
          ],
          total: 1180,
        },
      ],
      totals: {
        taxes: [
          { kind: 'cgst', amount: 90 },
          { kind: 'utgst', amount: 90 },
        ],
        rounding: 0,
        total: 1180,
        amount_in_words: 'Rupees One Thousand One Hundred Eighty Only',
      },
    });
    const { text } = await pdfLines(m.apiKey, booked.shipment_id);
    for (const expected of [
      'Place of supply: Chandigarh (04) · Intra-State supply',
      'CGST rate,',
      'UTGST',
      'Leather Wallet',
      '4202',
      '1,000.00',
      '90.00',
      '₹1,180.00',
      'Amount in words: Rupees One Thousand One Hundred Eighty Only',
    ])
      expect(text).toContain(expected);
    expect(text).not.toMatch(/SGST|IGST/);
  });
});

describe('GET /shipments/:id/invoice to a business buyer (B2B)', () => {
  it("prints the buyer's GSTIN (billing_gstin), and refuses a wrong one when the order is made", async () => {
    const m = await merchantIn('delhi', '07');
    const buyerGstin = validGstin('27', 'AAACR5055K');
    const booked = await orchestrate(
      ctx,
      m.apiKey,
      orderBody(m.warehouseId, {
        store_name: m.storeName,
        company_name: 'Menon Traders',
        billing_gstin: buyerGstin.toLowerCase(),
      }),
    );
    const json = (await invoiceOf(m.apiKey, booked.shipment_id)).json();
    expect(json.buyer).toEqual({
      name: 'Asha Menon',
      address: ['Menon Traders', '12 Marine Drive', 'Mumbai, Maharashtra 400001'],
      state: 'Maharashtra',
      state_code: '27',
      gstin: buyerGstin,
    });
    const { text } = await pdfLines(m.apiKey, booked.shipment_id);
    expect(text).toContain(`GSTIN: ${validGstin('07')}`);
    expect(text).toContain(`GSTIN: ${buyerGstin}`);
    expect(text).toContain('Menon Traders');

    const wrong = `${buyerGstin.slice(0, 14)}${buyerGstin[14] === 'A' ? 'B' : 'A'}`;
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/custom/api/v1/forward-order-orchestration',
      headers: authed(m.apiKey),
      payload: orderBody(m.warehouseId, { store_name: m.storeName, billing_gstin: wrong }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([
      {
        field: 'billing_gstin',
        message: `billing_gstin ${wrong} is not a valid GSTIN: its last character should be ${buyerGstin[14]}, the check character of the first 14`,
      },
    ]);
  });
});

describe('GET /shipments/:id/invoice refused', () => {
  it('422 invoice_details_missing for a store without invoice details, or no store', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createWarehouse(ctx, apiKey);
    const store = await createStore(ctx, apiKey, { store_name: 'plain' });
    const withStore = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'plain' }));
    const without = await orchestrate(ctx, apiKey, orderBody(warehouseId));
    const first = await invoiceOf(apiKey, withStore.shipment_id, 'pdf');
    expect(first.statusCode).toBe(422);
    expect(first.json()).toMatchObject({
      code: 'invoice_details_missing',
      message: `The store of shipment ${withStore.shipment_id} has no invoice details: set them with PUT /custom/api/v1/client-stores/${store.id}/invoice-details`,
    });
    const second = await invoiceOf(apiKey, without.shipment_id);
    expect(second.statusCode).toBe(422);
    expect(second.json().code).toBe('invoice_details_missing');
  });

  it('409 invoice_not_numbered for a shipment booked before its store had invoice details', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createWarehouse(ctx, apiKey);
    const store = await createStore(ctx, apiKey, { store_name: 'later' });
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'later' }));
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}/invoice-details`,
      headers: authed(apiKey),
      payload: { ...INVOICE_DETAILS_EXAMPLE, gstin: validGstin('07') },
    });
    expect(set.statusCode).toBe(200);
    const response = await invoiceOf(apiKey, booked.shipment_id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'invoice_not_numbered',
      message: `Shipment ${booked.awb_code} was booked before its store had invoice details: it has no invoice number`,
    });
    // The next booking is numbered: the first of the series.
    const next = await orchestrate(ctx, apiKey, orderBody(warehouseId, { store_name: 'later' }));
    expect((await invoiceOf(apiKey, next.shipment_id)).json().invoice_number).toBe('ACME/26-27/00001');
  });

  it("422 invoice_gstin_other_state when the store's GSTIN is of another State than the warehouse's, unless the warehouse has its own", async () => {
    const m = await merchantIn('delhi', '29');
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: m.storeName }));
    const response = await invoiceOf(m.apiKey, booked.shipment_id);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'invoice_gstin_other_state',
      message: `The store's GSTIN ${validGstin('29')} is not registered in Delhi, where warehouse Hub delhi is, and the warehouse has no GSTIN of Delhi (gst_no): set one on the warehouse`,
    });
    const own = await merchantIn('delhi', '29', validGstin('07', 'AAACR5055K'));
    const shipped = await orchestrate(ctx, own.apiKey, orderBody(own.warehouseId, { store_name: own.storeName }));
    const json = (await invoiceOf(own.apiKey, shipped.shipment_id)).json();
    expect(json.seller).toMatchObject({ state: 'Delhi', state_code: '07', gstin: validGstin('07', 'AAACR5055K') });
  });

  it("404 for another account's shipment", async () => {
    const m = await merchantIn('delhi', '07');
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: m.storeName }));
    const { apiKey: other } = await ctx.createAccount();
    const response = await invoiceOf(other, booked.shipment_id);
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('shipment_not_found');
  });
});

describe('GET /shipments/:id/label?include=invoice: the label and the invoice in one PDF', () => {
  it('prints the 4x6 inch label page, then the A4 invoice', async () => {
    const m = await merchantIn('delhi', '07');
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { store_name: m.storeName }));
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${SHIPMENTS}/${booked.awb_code}/label?format=pdf&include=invoice`,
      headers: authed(m.apiKey),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`inline; filename="label-${booked.awb_code}.pdf"`);
    const read = await popplerRead(response.rawPayload);
    expect(read.pages).toBe(2);
    const [label, invoice] = read.pageTexts as [string, string];
    expect(label).toContain(`AWB ${booked.awb_code}`);
    expect(label).toContain('SHIP TO');
    expect(label).not.toContain('TAX INVOICE');
    for (const expected of ['TAX INVOICE', 'Invoice No. ACME/26-27/00001', 'IGST', '₹998.00'])
      expect(invoice).toContain(expected);
  });

  it('refuses as the invoice route does, before the label is printed', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createWarehouse(ctx, apiKey);
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId));
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${SHIPMENTS}/${booked.shipment_id}/label?include=invoice`,
      headers: authed(apiKey),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('invoice_details_missing');
  });
});

describe('GET /shipments/:id/invoice?format=pdf of a long order', () => {
  it('runs its items over pages, the header again on each, the totals after the last item', async () => {
    const m = await merchantIn('delhi', '07');
    const items = Array.from({ length: 60 }, (_, i) => ({
      name: `Handloom Cotton Saree, Kanchipuram weave, colour ${i + 1}`,
      sku: `SAREE-${i + 1}`,
      units: 1,
      selling_price: 105,
      tax: 5,
      hsn: '5208',
    }));
    const booked = await orchestrate(
      ctx,
      m.apiKey,
      orderBody(m.warehouseId, { store_name: m.storeName, order_items: items, sub_total: 6300 }),
    );
    const { read } = await pdfLines(m.apiKey, booked.shipment_id);
    expect(read.pages).toBeGreaterThanOrEqual(2);
    for (const page of read.pageTexts) expect(page).toContain('Taxable');
    const all = read.pageTexts.join('\n');
    for (let i = 1; i <= 60; i++) expect(all).toContain(`SKU SAREE-${i}\n`);
    const last = read.pageTexts.at(-1)!;
    expect(last).toContain('Amount in words: Rupees Six Thousand Three Hundred Only');
    expect(last).toContain('₹6,300.00');
  });
});
