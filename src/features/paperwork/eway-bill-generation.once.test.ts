import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  auditEntries,
  orderBill as billOf,
  gatewayBody,
  generateBill,
  refusedBill,
  setGateway as putGateway,
  storedOrder as storeOrder,
} from '../../../test/kit/eway-bill.js';
import { authed, post, V1 } from '../../../test/kit/http.js';
import { invoicingStore } from '../../../test/kit/invoices.js';
import { orderBody } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';
import {
  type EwayBillGspSimulator,
  GSP_CLIENT_ID,
  GSP_CLIENT_SECRET,
  GSP_EMAIL,
  GSP_GSTIN,
  GSP_PASSWORD,
  GSP_USERNAME,
  startEwayBillGspSimulator,
} from '../../demo/simulators/eway-bill-gsp-simulator.js';

// Part A of an e-way bill generated through a GST Suvidha Provider (docs/paperwork.md, "Generation
// through a GSP"), against the GSP simulator as a real HTTP server: the request it received field
// by field, each answer the evidence shows mapped to ours, and nothing kept unless a bill came.
// The test merchant's warehouse is in New Delhi (110001); orders go to Mumbai (400001).

let ctx: TestContext;
let gsp: EwayBillGspSimulator;
beforeAll(async () => {
  // The simulator listens on 127.0.0.1 over http: the operator allows both, as a self-hoster testing would.
  ctx = await createTestApp({ settings: { outbound: { allowHttp: true, allowPrivate: true } } });
  gsp = await startEwayBillGspSimulator({ now: () => ctx.clock.now() });
});
afterAll(async () => {
  await gsp?.close();
  await ctx?.close();
});

const generate = (apiKey: string, orderId: string) => generateBill(ctx, apiKey, orderId);
const gateway = (more: Record<string, unknown> = {}) => gatewayBody(gsp, more);
const setGateway = (apiKey: string, body: Record<string, unknown>) => putGateway(ctx, apiKey, body);
const storedOrder = (apiKey: string, warehouseId: string, rupees?: number, more?: Record<string, unknown>) =>
  storeOrder(ctx, apiKey, warehouseId, rupees, more);
const orderBill = (orderId: string) => billOf(ctx, orderId);
const audits = (accountId: string) => auditEntries(ctx, accountId);
const refused = (m: { id: string; apiKey: string }, orderId: string, status: number) =>
  refusedBill(ctx, m, orderId, status);

/** A merchant with the gateway set, and an order that needs a bill. */
async function ready() {
  const m = await merchant(ctx);
  expect((await setGateway(m.apiKey, gateway())).statusCode).toBe(200);
  return { ...m, orderId: await storedOrder(m.apiKey, m.warehouseId) };
}

describe('POST /orders/{order_id}/ewaybill', () => {
  it('sends Part A built from the order, keeps the number and day on it, and audits it', async () => {
    const m = await ready();
    const before = gsp.requests.length;
    const response = await generate(m.apiKey, m.orderId);
    expect(response.statusCode, response.body).toBe(200);
    const [auth, call] = gsp.requests.slice(before);
    expect(auth).toMatchObject({
      method: 'GET',
      path: '/ewaybillapi/v1.03/authenticate',
      query: { email: GSP_EMAIL, username: GSP_USERNAME, password: GSP_PASSWORD },
      headers: { client_id: GSP_CLIENT_ID, client_secret: GSP_CLIENT_SECRET, gstin: GSP_GSTIN },
    });
    expect(call).toMatchObject({
      method: 'POST',
      path: '/ewaybillapi/v1.03/ewayapi/genewaybill',
      query: { email: GSP_EMAIL },
      headers: { client_id: GSP_CLIENT_ID, client_secret: GSP_CLIENT_SECRET, gstin: GSP_GSTIN },
    });
    expect(call!.headers.authtoken).toMatch(/^sim-token-/);
    // ₹75,000 tax included at 18 % across States: ₹63,559.32 taxable and ₹11,440.68 of IGST.
    expect(call!.body).toEqual({
      supplyType: 'O',
      subSupplyType: '1',
      docType: 'INV',
      docNo: m.orderId,
      docDate: '20/11/2026',
      transactionType: 1,
      fromGstin: GSP_GSTIN,
      fromTrdName: 'Okhla Fulfilment Centre',
      fromAddr1: 'Plot 14, Okhla Phase III',
      fromAddr2: '',
      fromPlace: 'New Delhi',
      fromPincode: 110001,
      fromStateCode: 7,
      actFromStateCode: 7,
      toGstin: 'URP',
      toTrdName: 'Asha Menon',
      toAddr1: '12 Marine Drive',
      toAddr2: '',
      toPlace: 'Mumbai',
      toPincode: 400001,
      toStateCode: 27,
      actToStateCode: 27,
      itemList: [
        {
          productName: 'Phone',
          productDesc: 'PHONE-1',
          hsnCode: 8517,
          quantity: 1,
          qtyUnit: 'NOS',
          taxableAmount: 63559.32,
          igstRate: 18,
          cessRate: 0,
        },
      ],
      totalValue: 63559.32,
      cgstValue: 0,
      sgstValue: 0,
      igstValue: 11440.68,
      cessValue: 0,
      cessNonAdvolValue: 0,
      otherValue: 0,
      totInvValue: 75000,
      transDistance: '1166',
    });
    // The test clock is 12:00 IST on 20 November; 1,166 km is 6 days (rule 138(10)).
    const { data } = response.json();
    expect(data).toEqual({
      order_id: m.orderId,
      ewaybill_no: expect.stringMatching(/^\d{12}$/),
      ewaybill_date: '2026-11-20',
      generated_at: '2026-11-20T12:00:00+05:30',
      valid_upto: '2026-11-26T23:59:00+05:30',
      doc_no: m.orderId,
      alert: null,
    });
    expect(await orderBill(m.orderId)).toEqual({ ewaybill_no: data.ewaybill_no, ewaybill_date: '2026-11-20' });
    // The test clock stands still: the entries share their time, so the generation is found by its action.
    expect((await audits(m.id)).find((a) => a.action === 'ewaybill.generated')).toEqual({
      action: 'ewaybill.generated',
      changes: { ewaybill_no: data.ewaybill_no, ewaybill_date: '2026-11-20', doc_no: m.orderId },
    });
    // Once it has one, a second is refused before the GSP is asked.
    const calls = gsp.requests.length;
    const again = await generate(m.apiKey, m.orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('eway_bill_exists');
    expect(gsp.requests.length).toBe(calls);
  });

  it("bills the shipment's tax invoice number, the seller's legal name and a registered buyer's GSTIN", async () => {
    const m = await merchant(ctx);
    await setGateway(m.apiKey, gateway());
    const store = `ewb-${Math.random().toString(36).slice(2, 8)}`;
    await invoicingStore(ctx, m.apiKey, store, { invoice_prefix: 'EWB' });
    // Booked with the check set to warn: the invoice is numbered at booking, the bill generated after.
    await ctx.app.inject({
      method: 'PUT',
      url: `${V1}/paperwork-settings`,
      headers: authed(m.apiKey),
      payload: { eway_bill_check: 'warn' },
    });
    const body = orderBody(m.warehouseId, {
      store_name: store,
      billing_gstin: '27AAPFU0939F1ZV',
      order_items: [{ name: 'Laptop', sku: 'LAP-1', units: 2, selling_price: 40_000, tax: 18, hsn: '8471 30' }],
      sub_total: 80_000,
    });
    const booked = await post(ctx, m.apiKey, `${V1}/forward-order-orchestration`, body);
    expect(booked.statusCode, booked.body).toBe(200);
    const before = gsp.requests.length;
    const response = await generate(m.apiKey, String(body.order_id));
    expect(response.statusCode, response.body).toBe(200);
    const sent = gsp.requests.slice(before)[1]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      docNo: 'EWB/26-27/000001',
      docDate: '20/11/2026',
      fromTrdName: 'Acme Apparel Private Limited',
      toGstin: '27AAPFU0939F1ZV',
      // Each unit's ₹40,000 without its 18 % is ₹33,898.31 (to the paisa), as the tax invoice computes it; the
      // bill carries the invoice's exact total, not its rounding line, so that it is never under value and taxes (620).
      itemList: [expect.objectContaining({ hsnCode: 847130, quantity: 2, taxableAmount: 67796.62, igstRate: 18 })],
      totalValue: 67796.62,
      igstValue: 12203.39,
      totInvValue: 80000.01,
    });
    expect(response.json().data.doc_no).toBe('EWB/26-27/000001');
  });

  it('within Delhi over its ₹1,00,000 bills CGST and SGST, and a parcel shipped elsewhere as bill to – ship to', async () => {
    const m = await merchant(ctx);
    await setGateway(m.apiKey, gateway());
    const orderId = await storedOrder(m.apiKey, m.warehouseId, 120_000, {
      billing_pincode: '110002',
      billing_city: 'New Delhi',
      billing_state: 'Delhi',
      shipping_is_billing: false,
      shipping_customer_name: 'Ravi',
      shipping_last_name: 'Kumar',
      shipping_address: '7 Daryaganj',
      shipping_city: 'New Delhi',
      shipping_pincode: '110002',
      shipping_state: 'Delhi',
      shipping_country: 'India',
      shipping_phone: '9123456781',
    });
    const before = gsp.requests.length;
    const response = await generate(m.apiKey, orderId);
    expect(response.statusCode, response.body).toBe(200);
    // ₹1,20,000 tax included at 18 % within a State: ₹1,01,694.92 taxable, 9 % CGST and 9 % SGST.
    expect(gsp.requests.slice(before)[1]!.body).toMatchObject({
      transactionType: 2,
      toTrdName: 'Asha Menon',
      toAddr1: '7 Daryaganj',
      toPincode: 110002,
      toStateCode: 7,
      actToStateCode: 7,
      itemList: [
        {
          productName: 'Phone',
          productDesc: 'PHONE-1',
          hsnCode: 8517,
          quantity: 1,
          qtyUnit: 'NOS',
          taxableAmount: 101694.92,
          cgstRate: 9,
          sgstRate: 9,
          cessRate: 0,
        },
      ],
      totalValue: 101694.92,
      cgstValue: 9152.54,
      sgstValue: 9152.54,
      igstValue: 0,
      totInvValue: 120000,
    });
  });

  it('refuses, before any call, an account without a gateway, an order that needs no bill or lacks an HSN, an unknown order', async () => {
    const m = await merchant(ctx);
    const orderId = await storedOrder(m.apiKey, m.warehouseId);
    const calls = gsp.requests.length;
    const missing = await refused(m, orderId, 422);
    expect(missing.code).toBe('eway_bill_gateway_missing');

    await setGateway(m.apiKey, gateway());
    const small = await storedOrder(m.apiKey, m.warehouseId, 40_000);
    const notNeeded = await refused(m, small, 422);
    expect([notNeeded.code, notNeeded.message]).toEqual([
      'eway_bill_not_needed',
      `Order ${small} needs no e-way bill: its value of ₹40,000.00 does not exceed ₹50,000.00, rule 138(1) of the CGST Rules`,
    ]);
    const noHsn = await storedOrder(m.apiKey, m.warehouseId, 75_000, {
      order_items: [{ name: 'Phone', sku: 'PHONE-1', units: 1, selling_price: 75_000, tax: 18 }],
    });
    const incomplete = await refused(m, noHsn, 422);
    expect([incomplete.code, incomplete.details]).toEqual([
      'eway_bill_order_incomplete',
      [
        {
          field: 'order_items[0].hsn',
          message: "order_items[0].hsn must be the item's HSN code of at least 4 digits for its e-way bill",
        },
      ],
    ]);
    expect((await generate(m.apiKey, 'NO-SUCH-ORDER')).statusCode).toBe(404);
    expect(gsp.requests.length).toBe(calls);
  });

  it("refuses a gateway GSTIN of another State than the warehouse's, naming gstin", async () => {
    const m = await merchant(ctx);
    await setGateway(m.apiKey, gateway({ gstin: '27AAPFU0939F1ZV' }));
    const orderId = await storedOrder(m.apiKey, m.warehouseId);
    const answer = await refused(m, orderId, 422);
    expect(answer.details).toEqual([
      {
        field: 'gstin',
        message:
          "the gateway's GSTIN 27AAPFU0939F1ZV is registered in Maharashtra, not Delhi where warehouse Okhla Fulfilment Centre is: the bill's fromGstin must be the registration of the State the goods leave",
      },
    ]);
  });
});
