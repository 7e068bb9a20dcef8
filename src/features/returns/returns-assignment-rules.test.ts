import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { UNKNOWN_ID } from '../../../test/kit/http.js';
import { WAREHOUSE_SHIPPING_FIELDS } from '../../../test/kit/returns.js';
import {
  buildReturns,
  returnEvents,
  returnInput,
  returnRow,
  returnsWritten,
} from '../../../test/kit/returns-use-cases.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { createCityWarehouse, merchant } from '../../../test/kit/warehouses.js';
import { NO_QC_COURIER } from './return-courier-choice.js';
import type { ReturnsService } from './returns.service.js';

// reverse-order-shipment's rules as the returns service's assignCourier, over a seeded database
// (both engines): a return is priced and dated when its courier is assigned (the injected clock's
// day), gets one courier only and none once cancelled, is found within its account only, and goes
// to the warehouse it named, or to the one named at booking. Which courier is chosen is
// returns-rules.test.ts's.

let ctx: UseCaseContext;
let returns: ReturnsService;
beforeAll(async () => {
  ctx = await useCaseContext();
  ({ returns } = buildReturns(ctx));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => {
  // Friday 20 November 2026, 12:00 India time.
  ctx.clock.set('2026-11-20T06:30:00.000Z');
});

const DELHIVERY_10KG = 'CARDELH10KG01';

describe('assigning a courier to a return', () => {
  it('prices at assignment, not creation: the dates follow the injected clock, and the QC fallback note is written then', async () => {
    const m = await merchant(ctx);
    const qc = await returns.createReturn(asAccount(m.id), returnInput(m.warehouseId, { qc: true }));
    const heavy = await returns.createReturn(asAccount(m.id), returnInput(m.warehouseId, { qc: true }, { weight: 25 }));
    expect([qc.qc_message, heavy.qc_message, qc.charges, qc.pickup_scheduled_date]).toEqual([null, null, null, null]);
    expect(await returnRow(ctx, heavy.return_id)).toMatchObject({ qc_requested: true, qc_applied: null, zone: 'C' });

    // Sunday 22 November, 12:00 India time: no pickup before Monday.
    ctx.clock.set('2026-11-22T06:30:00.000Z');
    const booked = await returns.assignCourier(asAccount(m.id), { return_id: qc.return_id, carrier_id: '' });
    expect(booked).toMatchObject({
      courier_company_id: SHADOWFAX,
      pickup_scheduled_date: '2026-11-23',
      expected_delivery_date: '2026-11-27',
      assigned_date_time: { date: '2026-11-22T12:00:00.000+05:30' },
      charges: { reverse_charges: '60.00', qc: '12.00', platform_fee: 0, total_return_charges: 72 },
      qc_enabled: 1,
    });
    expect(await returnRow(ctx, qc.return_id)).toMatchObject({
      freight_paise: 6000,
      qc_paise: 1200,
      assigned_at: '2026-11-22T06:30:00.000Z',
      created_at: '2026-11-20T06:30:00.000Z',
    });
    expect((await returnEvents(ctx, qc.return_id)).map((e) => [e.type, e.created_at])).toEqual([
      ['return.created', '2026-11-20T06:30:00.000Z'],
      ['return.booked', '2026-11-22T06:30:00.000Z'],
    ]);

    const fallback = await returns.assignCourier(asAccount(m.id), { return_id: heavy.return_id });
    expect(fallback).toMatchObject({ courier_company_id: DELHIVERY_10KG, qc_enabled: 0, qc_message: NO_QC_COURIER });
    expect(await returnRow(ctx, heavy.return_id)).toMatchObject({
      qc_applied: false,
      qc_note: NO_QC_COURIER,
      freight_paise: 80500,
      qc_paise: 0,
    });
  });

  it('a return already booked, or booked by its assignment, is refused another courier; no AWB is drawn', async () => {
    const m = await merchant(ctx);
    const orchestrated = await returns.orchestrate(asAccount(m.id), returnInput(m.warehouseId));
    const created = await returns.createReturn(asAccount(m.id), returnInput(m.warehouseId));
    const assigned = await returns.assignCourier(asAccount(m.id), { return_id: created.return_id, carrier_id: DTDC });
    for (const booked of [orchestrated, assigned]) {
      const before = await returnsWritten(ctx, m.id);
      await expect(
        returns.assignCourier(asAccount(m.id), { return_id: booked.return_id, carrier_id: SHADOWFAX }),
      ).rejects.toMatchObject({
        code: 'return_courier_already_assigned',
        kind: 'unprocessable',
        details: [{ field: 'return_id', message: 'A courier is already assigned to this return' }],
      });
      expect(await returnsWritten(ctx, m.id)).toEqual(before);
      expect((await returnRow(ctx, booked.return_id))!.awb).toBe(booked.awb_code);
    }
  });

  it("an unknown return, or another account's, is not found", async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const theirs = await returns.createReturn(asAccount(other.id), returnInput(other.warehouseId));
    for (const returnId of [UNKNOWN_ID, theirs.return_id]) {
      await expect(returns.assignCourier(asAccount(m.id), { return_id: returnId })).rejects.toMatchObject({
        code: 'return_not_found',
        details: [{ field: 'return_id', message: `Return '${returnId}' not found` }],
      });
    }
    expect(await returnRow(ctx, theirs.return_id)).toMatchObject({ status: 'return_requested', awb: null });
  });

  it("a warehouse other than the return's destination is refused; the destination itself is accepted", async () => {
    const m = await merchant(ctx);
    const mumbai = await createCityWarehouse(ctx, m.apiKey, 'mumbai');
    const created = await returns.createReturn(asAccount(m.id), returnInput(m.warehouseId));
    await expect(
      returns.assignCourier(asAccount(m.id), { return_id: created.return_id, warehouse_id: mumbai }),
    ).rejects.toMatchObject({
      code: 'return_warehouse_mismatch',
      details: [
        {
          field: 'warehouse_id',
          message: `warehouse_id is not this return's destination warehouse (${m.warehouseId})`,
        },
      ],
    });
    expect(await returnRow(ctx, created.return_id)).toMatchObject({ warehouse_id: m.warehouseId, awb: null });
    const booked = await returns.assignCourier(asAccount(m.id), {
      return_id: created.return_id,
      warehouse_id: m.warehouseId,
    });
    expect(booked).toMatchObject({ status: 'return_pickup_scheduled', zone: 'zone_c' });
  });

  it("a return sent to a shipping address takes the warehouse named at booking as its destination, re-zoned to it; another account's warehouse is unknown", async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    const mumbai = await createCityWarehouse(ctx, m.apiKey, 'mumbai');
    const created = await returns.createReturn(
      asAccount(m.id),
      returnInput(m.warehouseId, {}, { warehouse_id: undefined, ...WAREHOUSE_SHIPPING_FIELDS }),
    );
    expect(await returnRow(ctx, created.return_id)).toMatchObject({
      warehouse_id: null,
      shipping_pincode: '110001',
      zone: 'C',
    });
    await expect(
      returns.assignCourier(asAccount(m.id), { return_id: created.return_id, warehouse_id: other.warehouseId }),
    ).rejects.toMatchObject({
      code: 'order_warehouse_unknown',
      details: [{ field: 'warehouse_id', message: `Warehouse '${other.warehouseId}' not found: create it first` }],
    });
    // Mumbai to Mumbai: the lane, and so the zone and price, are the warehouse's now.
    const booked = await returns.assignCourier(asAccount(m.id), { return_id: created.return_id, warehouse_id: mumbai });
    expect(booked.zone).toBe('zone_a');
    expect(await returnRow(ctx, created.return_id)).toMatchObject({
      warehouse_id: mumbai,
      shipping_pincode: '400001',
      zone: 'A',
    });
  });

  it('a return cancelled before its courier was booked gets none: it stays cancelled, no AWB drawn', async () => {
    const m = await merchant(ctx);
    const created = await returns.createReturn(asAccount(m.id), returnInput(m.warehouseId));
    const cancelled = await returns.cancelShipment(asAccount(m.id), created.shipment_id, () => {});
    expect(cancelled).toEqual({ awb: null, cancelled: true, message: 'Return cancelled' });
    const before = await returnsWritten(ctx, m.id);
    await expect(returns.assignCourier(asAccount(m.id), { return_id: created.return_id })).rejects.toMatchObject({
      code: 'return_cancelled',
      kind: 'unprocessable',
      details: [{ field: 'return_id', message: 'The return is cancelled: no courier can be booked for it' }],
    });
    expect(await returnsWritten(ctx, m.id)).toEqual(before);
    expect(await returnRow(ctx, created.return_id)).toMatchObject({
      status: 'return_cancelled',
      carrier_id: null,
      awb: null,
      assigned_at: null,
    });
  });
});
