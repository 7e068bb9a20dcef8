import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_AWB_RATES, type TestContext, useTestApp } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, CANCEL, post, V1 } from '../../../test/kit/http.js';
import { popplerRead } from '../../../test/kit/labels.js';
import { codOrderBody, orchestrate, orderBody, type OrderPayload } from '../../../test/kit/orders.js';
import { createCityWarehouse, merchant } from '../../../test/kit/warehouses.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { IGNORED } from '../../../test/lenient-input.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../base/db/client.js';

const LABELS = `${V1}/labels`;
const BAND = 'TEST — NOT A COURIER LABEL';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const bulk = (apiKey: string, payload: unknown) =>
  ctx.app.inject({ method: 'POST', url: LABELS, headers: authed(apiKey), payload: payload as object });

describe('POST /custom/api/v1/labels (one PDF of many labels)', () => {
  let m: { apiKey: string; warehouseId: string };
  let booked: OrderPayload[];
  beforeAll(async () => {
    m = await merchant(ctx, 'Bulk Labels');
    booked = [
      await orchestrate(ctx, m.apiKey, codOrderBody(m.warehouseId)),
      await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { billing_customer_name: 'Bela' })),
      await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId, { billing_customer_name: 'Chitra' })),
    ];
  });

  it('answers one PDF with a 4x6 inch page per AWB, in the order asked, each page naming its AWB', async () => {
    const awbs = [booked[2]!.awb_code!, booked[0]!.awb_code!, booked[1]!.awb_code!];
    const response = await bulk(m.apiKey, { awbs });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="labels-3.pdf"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const pdf = await popplerRead(response.rawPayload);
    expect(pdf.pages).toBe(3);
    expect(pdf.pageSize).toBe('288 x 432 pts');
    expect(pdf.pageTexts.map((text) => /AWB (\S+)/.exec(text)?.[1])).toEqual(awbs);
    expect(pdf.pageTexts[0]).toContain('Chitra');
    expect(pdf.pageTexts[1]).toContain('COD: collect');
    expect(pdf.pageTexts[2]).toContain('Bela');
    expect(pdf.pageTexts.every((text) => text.includes('PREPAID') || text.includes('COD: collect'))).toBe(true);
    // A bulk print is a print: each label counts as printed from it (a later COD-to-prepaid re-issues it).
    const rows = await queryRows<{ id: string; at: Date | null }>(
      ctx.database.db,
      sql`select id, label_printed_at as at from shipments where id in (${sql.join(
        booked.map((b) => sql`${b.shipment_id}`),
        sql`, `,
      )})`,
    );
    expect(rows.map((r) => r.at && new Date(r.at).toISOString())).toEqual([
      ctx.clock.now().toISOString(),
      ctx.clock.now().toISOString(),
      ctx.clock.now().toISOString(),
    ]);
  });

  it('prints an AWB sent twice once, and takes a return’s AWB', async () => {
    const ret = await bookReturn(ctx, m.apiKey, m.warehouseId);
    const awbs = [booked[0]!.awb_code!, ret.awb_code!, booked[0]!.awb_code!];
    const response = await bulk(m.apiKey, { awbs });
    expect(response.statusCode, response.body).toBe(200);
    const pdf = await popplerRead(response.rawPayload);
    expect(pdf.pages).toBe(2);
    expect(pdf.pageTexts.map((text) => /AWB (\S+)/.exec(text)?.[1])).toEqual([booked[0]!.awb_code, ret.awb_code]);
    expect(pdf.pageTexts[1]).toContain('(return)');
  });

  it("refuses, with a 422 naming each, an unknown AWB, another account's and a cancelled shipment's, and makes no PDF", async () => {
    const other = await merchant(ctx, 'Bulk Labels Other');
    const theirs = await orchestrate(ctx, other.apiKey, orderBody(other.warehouseId));
    const cancelled = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    expect((await post(ctx, m.apiKey, CANCEL, { awbs: [cancelled.awb_code] })).statusCode).toBe(200);
    const response = await bulk(m.apiKey, {
      awbs: [booked[0]!.awb_code, 'NOPE000001', theirs.awb_code, cancelled.awb_code],
    });
    expect(response.statusCode).toBe(422);
    const messages = [
      'AWB NOPE000001 is not a shipment of this account',
      `AWB ${theirs.awb_code} is not a shipment of this account`,
      `Shipment ${cancelled.awb_code} was cancelled: its label is void`,
    ];
    expect(response.json()).toEqual({
      code: 'bulk_labels_refused',
      message: messages[0],
      errors: messages,
      details: [
        { field: 'awbs[1]', message: messages[0] },
        { field: 'awbs[2]', message: messages[1] },
        { field: 'awbs[3]', message: messages[2] },
      ],
    });
    // The other account still prints its own.
    const own = await bulk(other.apiKey, { awbs: [theirs.awb_code] });
    expect(own.statusCode).toBe(200);
    expect((await popplerRead(own.rawPayload)).pages).toBe(1);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const tooMany = Array.from({ length: 501 }, (_, i) => `AWB${i}`);
    for (const payload of [{}, { awbs: [] }, { awbs: tooMany }, { awbs: 'SFX1' }, { awbs: [''] }]) {
      const response = await bulk(m.apiKey, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().details.map((d: { field: string }) => d.field.split('.')[0])).toEqual(['awbs']);
    }
  });

  it('ignores an unknown field and says so; needs a credential', async () => {
    const response = await bulk(m.apiKey, { awbs: [booked[1]!.awb_code], copies: 2 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers[IGNORED]).toBe('copies');
    expect((await popplerRead(response.rawPayload)).pages).toBe(1);
    const anonymous = await ctx.app.inject({ method: 'POST', url: LABELS, payload: { awbs: [booked[1]!.awb_code] } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /labels with test bookings', () => {
  let testApp: TestContext;
  beforeAll(async () => {
    testApp = await createTestApp({ rates: TEST_AWB_RATES });
  });
  afterAll(() => testApp?.close());

  it('keeps the TEST band on every test booking’s page', async () => {
    const { apiKey } = await testApp.createAccount();
    const warehouseId = await createCityWarehouse(testApp, apiKey);
    const awbs: string[] = [];
    for (let i = 0; i < 2; i++)
      awbs.push((await orchestrate(testApp, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }))).awb_code!);
    const response = await testApp.app.inject({
      method: 'POST',
      url: LABELS,
      headers: authed(apiKey),
      payload: { awbs },
    });
    expect(response.statusCode, response.body).toBe(200);
    const pdf = await popplerRead(response.rawPayload);
    expect(pdf.pages).toBe(2);
    expect(pdf.pageTexts.map((text) => text.includes(BAND))).toEqual([true, true]);
  });
});
