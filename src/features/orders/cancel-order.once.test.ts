import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { CANCEL, post } from '../../../test/kit/http.js';
import { BOOKING_MILESTONES, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten, milestoneNames, shipmentRow } from '../../../test/kit/rows.js';
import { merchant } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

describe('POST /custom/api/v1/cancel-order', () => {
  const cancel = (apiKey: string, awbs: unknown) => post(ctx, apiKey, CANCEL, { awbs });

  it('cancels a pending shipment, then reports it already cancelled', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    ctx.clock.advance(60_000);
    const first = await cancel(m.apiKey, [booked.awb_code]);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      message: '1 of 1 shipment cancelled',
      results: [{ awb: booked.awb_code, cancelled: true, message: 'Shipment cancelled' }],
    });
    expect(await shipmentRow(ctx.database, booked.shipment_id)).toMatchObject({
      status: 'cancelled',
      sub_status: 'cancelled_by_merchant',
      cancelled_at: ctx.clock.now().toISOString(),
    });
    expect(await milestoneNames(ctx.database, booked.shipment_id)).toEqual(['cancelled', ...BOOKING_MILESTONES]);

    const again = await expectNothingWritten(ctx.database, () => cancel(m.apiKey, [booked.awb_code]));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [{ awb: booked.awb_code, cancelled: false, message: 'Shipment is already cancelled' }],
    });
  });

  it("reports unknown AWBs and another account's as not found, leaving the other account's shipment pending", async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const aBooking = await orchestrate(ctx, a.apiKey, orderBody(a.warehouseId));
    const response = await cancel(b.apiKey, [aBooking.awb_code, 'DLS9999999999', 'nonsense']);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '0 of 3 shipments cancelled',
      results: [
        { awb: aBooking.awb_code, cancelled: false, message: 'AWB not found' },
        { awb: 'DLS9999999999', cancelled: false, message: 'AWB not found' },
        { awb: 'nonsense', cancelled: false, message: 'AWB not found' },
      ],
    });
    expect((await shipmentRow(ctx.database, aBooking.shipment_id)).status).toBe('pending');
  });

  it('answers each AWB in the order asked, a repeated AWB once cancelled then already cancelled', async () => {
    const m = await merchant(ctx);
    const one = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const two = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const response = await cancel(m.apiKey, [two.awb_code, 'UNKNOWN-1', one.awb_code, two.awb_code]);
    expect(response.json()).toEqual({
      message: '2 of 4 shipments cancelled',
      results: [
        { awb: two.awb_code, cancelled: true, message: 'Shipment cancelled' },
        { awb: 'UNKNOWN-1', cancelled: false, message: 'AWB not found' },
        { awb: one.awb_code, cancelled: true, message: 'Shipment cancelled' },
        { awb: two.awb_code, cancelled: false, message: 'Shipment is already cancelled' },
      ],
    });
  });

  it('refuses to cancel a shipment that is past pending', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    // Tracking events would move it; this test sets the state directly.
    await ctx.database.db.execute(sql`update shipments set status = 'in_transit' where id = ${booked.shipment_id}`);
    const response = await expectNothingWritten(ctx.database, () => cancel(m.apiKey, [booked.awb_code]));
    expect(response.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [
        { awb: booked.awb_code, cancelled: false, message: 'Shipment is in_transit and can no longer be cancelled' },
      ],
    });
    expect((await shipmentRow(ctx.database, booked.shipment_id)).status).toBe('in_transit');
  });

  it('takes up to 50 AWBs and refuses more, or none (400)', async () => {
    const m = await merchant(ctx);
    const fifty = Array.from({ length: 50 }, (_, i) => `NOPE${i}`);
    const ok = await cancel(m.apiKey, fifty);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results).toHaveLength(50);

    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const message = 'awbs must list 1 to 50 AWBs';
    for (const awbs of [[...fifty, booked.awb_code], []]) {
      const response = await expectNothingWritten(ctx.database, () => cancel(m.apiKey, awbs));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'invalid_request',
        message,
        errors: [message],
        details: [{ field: 'awbs', message }],
      });
    }
    for (const payload of [{}, { awbs: booked.awb_code }, { awbs: [''] }, { awbs: [true] }]) {
      const response = await post(ctx, m.apiKey, CANCEL, payload);
      expect(response.statusCode).toBe(400);
    }
    expect((await shipmentRow(ctx.database, booked.shipment_id)).status).toBe('pending');
  });
});
