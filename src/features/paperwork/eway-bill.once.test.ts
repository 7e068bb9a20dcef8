import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { EXCHANGE, exchange, exchangeBody } from '../../../test/kit/exchange-bodies.js';
import { ASSIGN, authed, FORWARD_ORDER, ORCHESTRATE, post, V1 } from '../../../test/kit/http.js';
import { labelPath, pdfText } from '../../../test/kit/labels.js';
import { orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten } from '../../../test/kit/rows.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Rule 138 at booking, through Velocity's order routes (docs/paperwork.md). The test merchant's
// warehouse is in Delhi (110001); orders go to Mumbai (400001) unless a test sends them within Delhi.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const SETTINGS = `${V1}/paperwork-settings`;
const EBN = '331009876543';

/** An order of one item worth `rupees`, with the given HSN, and any other fields. */
const valued = (warehouseId: string, rupees: number, hsn = '8517', more: Record<string, unknown> = {}) =>
  orderBody(warehouseId, {
    order_items: [{ name: 'Phone', sku: 'PHONE-1', units: 1, selling_price: rupees, tax: 18, hsn }],
    sub_total: rupees,
    ...more,
  });

const withinDelhi = {
  billing_pincode: '110002',
  billing_city: 'New Delhi',
  billing_state: 'Delhi',
};

async function refused(apiKey: string, url: string, body: Record<string, unknown>) {
  const response = await expectNothingWritten(ctx.database, () => post(ctx, apiKey, url, body));
  expect(response.statusCode).toBe(422);
  return response.json() as { code: string; message: string; details: { field: string; message: string }[] };
}

describe('an order over the e-way bill limit (rule 138)', () => {
  it('books ₹50,000.00 from Delhi to Mumbai without one, and refuses ₹50,000.01, naming ewaybill_no, the value and the rule', async () => {
    const m = await merchant(ctx);
    const atLimit = await post(ctx, m.apiKey, ORCHESTRATE, valued(m.warehouseId, 50_000));
    expect(atLimit.statusCode).toBe(200);
    expect(atLimit.json().payload.warnings).toBeUndefined();

    const answer = await refused(m.apiKey, ORCHESTRATE, valued(m.warehouseId, 50_000.01));
    const message =
      "ewaybill_no is required: this order's value of ₹50,000.01 exceeds ₹50,000.00, rule 138(1) of the CGST Rules: " +
      'the consignment needs an e-way bill before it moves; send its 12-digit number as ewaybill_no';
    expect(answer).toEqual({
      code: 'eway_bill_required',
      message,
      errors: [message],
      details: [{ field: 'ewaybill_no', message }],
    });
    // sub_total is the value declared, whatever total_discount says (it may be net of it already).
    const discounted = await refused(
      m.apiKey,
      ORCHESTRATE,
      valued(m.warehouseId, 50_000.01, '8517', { total_discount: 100 }),
    );
    expect(discounted.message).toBe(message);
    // The dry run refuses it the same way.
    expect((await refused(m.apiKey, `${V1}/forward-order/check`, valued(m.warehouseId, 50_000.01))).code).toBe(
      'eway_bill_required',
    );
  });

  it("leaves the Annexure's exempt goods out: ₹60,000 of gold jewellery (HSN 7113) needs none", async () => {
    const m = await merchant(ctx);
    const jewellery = await post(ctx, m.apiKey, ORCHESTRATE, valued(m.warehouseId, 60_000, '7113 19'));
    expect(jewellery.statusCode).toBe(200);
    expect(jewellery.json().payload.awb_code).toMatch(/\d/);
    // With a taxable ₹50,000.01 beside it, the taxable part alone is over the limit.
    const mixed = orderBody(m.warehouseId, {
      order_items: [
        { name: 'Ring', sku: 'RING-1', units: 1, selling_price: 60_000, hsn: '7113' },
        { name: 'Watch', sku: 'WATCH-1', units: 1, selling_price: 50_000.01, hsn: '9102' },
      ],
      sub_total: 110_000.01,
    });
    expect((await refused(m.apiKey, ORCHESTRATE, mixed)).details[0]!.message).toContain(
      '₹50,000.01 (after ₹60,000.00 of exempt goods) exceeds ₹50,000.00',
    );
  });

  it("within Delhi takes the State's ₹1,00,000, and above it names Delhi's notification", async () => {
    const m = await merchant(ctx);
    const under = await post(ctx, m.apiKey, ORCHESTRATE, valued(m.warehouseId, 80_000, '8517', withinDelhi));
    expect(under.statusCode).toBe(200);
    const answer = await refused(m.apiKey, ORCHESTRATE, valued(m.warehouseId, 100_000.01, '8517', withinDelhi));
    expect(answer.details[0]!.message).toContain(
      "₹1,00,000.01 exceeds ₹1,00,000.00, Delhi's limit within the State (Delhi Notification F.3(134)/Policy-GST/2018/1444-54",
    );
  });

  it('books with its number: stored, sent back by PUT /order, and printed on the label', async () => {
    const m = await merchant(ctx);
    const body = valued(m.warehouseId, 75_000, '8517', { ewaybill_no: Number(EBN), ewaybill_date: '2026-11-20' });
    const response = await post(ctx, m.apiKey, ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const { payload } = response.json();
    expect(payload.warnings).toBeUndefined();
    const [row] = await queryRows<{ ewaybill_no: string; ewaybill_date: string }>(
      ctx.database.db,
      sql`select ewaybill_no, ewaybill_date::text as ewaybill_date from orders where merchant_order_id = ${body.order_id}`,
    );
    expect(row).toEqual({ ewaybill_no: EBN, ewaybill_date: '2026-11-20' });
    const label = await ctx.app.inject({ method: 'GET', url: labelPath(payload.label_url) });
    expect(await pdfText(label.rawPayload)).toContain(`E-way bill ${EBN} of 2026-11-20`);
  });

  it('refuses a malformed number or date with 400 naming each, and a date without its number', async () => {
    const m = await merchant(ctx);
    const response = await expectNothingWritten(ctx.database, () =>
      post(
        ctx,
        m.apiKey,
        ORCHESTRATE,
        valued(m.warehouseId, 75_000, '8517', { ewaybill_no: '3310-0987', ewaybill_date: '2026-02-30' }),
      ),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { field: 'ewaybill_no', message: 'ewaybill_no must be the 12 digits of an e-way bill number' },
      { field: 'ewaybill_date', message: 'ewaybill_date must be a calendar date, YYYY-MM-DD' },
    ]);
    const dateAlone = await post(
      ctx,
      m.apiKey,
      ORCHESTRATE,
      valued(m.warehouseId, 1_000, '8517', { ewaybill_date: '2026-11-20' }),
    );
    expect(dateAlone.statusCode).toBe(400);
    expect(dateAlone.json().details).toEqual([
      { field: 'ewaybill_date', message: 'ewaybill_date is sent with ewaybill_no, the bill it dates' },
    ]);
  });

  it('warns of a bill that lapses before the promised delivery (one day per 200 km, rule 138(10))', async () => {
    const m = await merchant(ctx);
    const body = valued(m.warehouseId, 75_000, '8517', { ewaybill_no: EBN, ewaybill_date: '2026-01-02' });
    const response = await post(ctx, m.apiKey, ORCHESTRATE, body);
    expect(response.statusCode).toBe(200);
    const [warning] = response.json().payload.warnings;
    expect(warning.field).toBe('ewaybill_date');
    expect(warning.message).toMatch(
      /^the e-way bill of 2026-01-02 is valid for 6 day\(s\) over about 1166 km \(rule 138\(10\)\), to the end of 2026-01-08, and the courier expects to deliver on 2026-\d\d-\d\d: extend it before it lapses$/,
    );
  });

  it('stores an order without its bill with a warning, and refuses to book a courier onto it', async () => {
    const m = await merchant(ctx);
    const stored = await post(ctx, m.apiKey, FORWARD_ORDER, valued(m.warehouseId, 60_000));
    expect(stored.statusCode).toBe(200);
    const { payload } = stored.json();
    expect(payload.warnings).toEqual([
      {
        field: 'ewaybill_no',
        message:
          "needed before booking: this order's value of ₹60,000.00 exceeds ₹50,000.00, rule 138(1) of the CGST Rules: " +
          'the consignment needs an e-way bill before it moves; send its 12-digit number as ewaybill_no',
      },
    ]);
    const assign = await post(ctx, m.apiKey, ASSIGN, { shipment_id: payload.shipment_id });
    expect(assign.statusCode).toBe(422);
    expect(assign.json().code).toBe('eway_bill_required');
    // With the number added by PUT /order, it books.
    const update = await ctx.app.inject({
      method: 'PUT',
      url: `${V1}/order`,
      headers: authed(m.apiKey),
      payload: { order_id: payload.channel_order_id, ewaybill_no: EBN },
    });
    expect(update.statusCode).toBe(200);
    const booked = await post(ctx, m.apiKey, ASSIGN, { shipment_id: payload.shipment_id });
    expect(booked.statusCode).toBe(200);
    expect(booked.json().payload.awb_code).toMatch(/\d/);
  });
});

describe("an exchange's replacement over the limit", () => {
  it('is refused without ewaybill_no, naming it, and booked with it, the number on its order', async () => {
    const m = await merchant(ctx);
    const body = (more: Record<string, unknown>) =>
      exchangeBody(m.warehouseId, {
        order_items: [{ name: 'Phone', sku: 'PHONE-1', units: 1, selling_price: 60_000, hsn: '8517' }],
        sub_total: 60_000,
        ...more,
      });
    const answer = await refused(m.apiKey, EXCHANGE, body({}));
    expect([answer.code, answer.details[0]!.field]).toEqual(['eway_bill_required', 'ewaybill_no']);
    const booked = await exchange(ctx, m.apiKey, body({ ewaybill_no: EBN, ewaybill_date: '2026-11-20' }));
    const [row] = await queryRows<{ ewaybill_no: string }>(
      ctx.database.db,
      sql`select o.ewaybill_no from orders o join shipments s on s.order_id = o.id where s.id = ${booked.forward_shipment_id}`,
    );
    expect(row).toEqual({ ewaybill_no: EBN });
  });
});

describe('GET and PUT /paperwork-settings', () => {
  it('refuses by default; set to warn, books with the rule in warnings; a wrong value is a 400', async () => {
    const m = await merchant(ctx);
    const read = () => ctx.app.inject({ method: 'GET', url: SETTINGS, headers: authed(m.apiKey) });
    expect((await read()).json()).toEqual({ data: { eway_bill_check: 'refuse' } });
    const set = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'PUT', url: SETTINGS, headers: authed(m.apiKey), payload });
    const wrong = await set({ eway_bill_check: 'ignore' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([
      { field: 'eway_bill_check', message: 'eway_bill_check must be "refuse" or "warn"' },
    ]);
    expect((await set({ eway_bill_check: 'warn' })).json()).toEqual({ data: { eway_bill_check: 'warn' } });
    expect((await read()).json()).toEqual({ data: { eway_bill_check: 'warn' } });

    const response = await post(ctx, m.apiKey, ORCHESTRATE, valued(m.warehouseId, 60_000));
    expect(response.statusCode).toBe(200);
    expect(response.json().payload.warnings).toEqual([
      {
        field: 'ewaybill_no',
        message:
          "booked without an e-way bill, though this order's value of ₹60,000.00 exceeds ₹50,000.00, rule 138(1) of the CGST Rules: " +
          'the consignment needs an e-way bill before it moves; send its 12-digit number as ewaybill_no',
      },
    ]);
    // Another account still refuses.
    const other = await merchant(ctx);
    expect((await refused(other.apiKey, ORCHESTRATE, valued(other.warehouseId, 60_000))).code).toBe(
      'eway_bill_required',
    );
  });
});
