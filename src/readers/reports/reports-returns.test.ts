import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { post, REPORTS } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { type BookedReturn, bookReturn } from '../../../test/kit/returns.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';
import { RETURN_STATUSES } from '../../domain/shipment/return-status-machine.js';
import { RETURN_REPORT_ENTRY } from './reports.service.js';

let ctx: TestContext;
let dtdc: string;
useTestApp(async (app) => {
  ctx = app;
  dtdc = await issueCarrierToken(ctx, DTDC);
});

describe('the return report entries', () => {
  it.each([
    ['return_requested', 'return_pickup_scheduled'],
    ['return_pickup_scheduled', 'return_pickup_scheduled'],
    ['return_picked_up', 'return_in_transit'],
    ['return_in_transit', 'return_in_transit'],
    ['return_delivered', 'return_delivered'],
    ['return_cancelled', 'cancelled'],
    ['return_lost', 'return_lost'],
  ] as const)('%s counts in %s', (status, entry) => {
    expect(RETURN_REPORT_ENTRY[status]).toBe(entry);
  });

  it('maps every return status', () => {
    expect(Object.keys(RETURN_REPORT_ENTRY).sort()).toEqual([...RETURN_STATUSES].sort());
  });
});

describe('POST /reports with shipment_type "return"', () => {
  it("counts the account's returns created in the range per Velocity's five entries, with their prepaid value", async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const other = await merchantWithCityWarehouse(ctx);
    const r: BookedReturn[] = [];
    const add = async (subTotal: number, carrierId?: string) => {
      r.push(
        await bookReturn(
          ctx,
          m.apiKey,
          m.warehouseId,
          { subTotal, ...(carrierId && { carrierId }) },
          carrierId !== undefined,
        ),
      );
    };
    await add(100); // return_requested
    await add(200, DTDC); // return_pickup_scheduled
    await add(300, DTDC); // return_picked_up
    await add(400, DTDC); // return_in_transit
    await add(500, DTDC); // return_delivered
    await add(600, DTDC); // return_cancelled (by the merchant)
    await add(700, DTDC); // return_lost
    await sendEvents(ctx, dtdc, [
      { awb: r[2]!.awb_code!, status: 'return_picked_up', event_time: at(-50) },
      { awb: r[3]!.awb_code!, status: 'return_in_transit', event_time: at(-50) },
      { awb: r[4]!.awb_code!, status: 'return_in_transit', event_time: at(-50) },
      { awb: r[4]!.awb_code!, status: 'return_delivered', event_time: at(-45) },
      { awb: r[6]!.awb_code!, status: 'return_picked_up', event_time: at(-50) },
      { awb: r[6]!.awb_code!, status: 'return_lost', event_time: at(-40) },
    ]);
    expect(
      (await post(ctx, m.apiKey, '/custom/api/v1/cancel-order', { awbs: [r[5]!.awb_code] })).json().results[0]
        .cancelled,
    ).toBe(true);
    // Not counted: another account's return, and a forward shipment of this one.
    await bookReturn(ctx, other.apiKey, other.warehouseId, { subTotal: 9999, carrierId: SHADOWFAX });
    await book(ctx, m.apiKey, m.warehouseId);

    const body = {
      start_date_time: '2026-11-20T00:00:00Z',
      end_date_time: '2026-11-20T23:59:59Z',
      shipment_type: 'return',
    };
    const response = await post(ctx, m.apiKey, REPORTS, body);
    expect(response.statusCode).toBe(200);
    const entry = (count: number, prepaid: number) => ({ count, sum_of_prepaid_orders: prepaid, sum_of_cod_orders: 0 });
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      payload: {
        date_range: { start_date_time: body.start_date_time, end_date_time: body.end_date_time },
        shipment_type: 'return',
        summary: {
          return_pickup_scheduled: entry(2, 300),
          return_in_transit: entry(2, 700),
          return_delivered: entry(1, 500),
          cancelled: entry(1, 600),
          return_lost: entry(1, 700),
          total_shipments: 7,
        },
      },
    });
    // The range is on creation time: a range ending before the returns were created counts none.
    const before = await post(ctx, m.apiKey, REPORTS, { ...body, end_date_time: '2026-11-20T06:29:59Z' });
    expect(before.json().payload.summary.total_shipments).toBe(0);
    // The forward report is unchanged by returns.
    const forward = await post(ctx, m.apiKey, REPORTS, { ...body, shipment_type: 'forward' });
    expect(forward.json().payload.summary.total_shipments).toBe(1);
  });
});
