import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/app.js';
import { DELHIVERY_SURFACE } from '../../../test/kit/couriers.js';
import { delhiveryMerchant } from '../../../test/kit/delhivery.js';
import { boxedOrderBody, orchestrate } from '../../../test/kit/orders.js';
import { queryRows } from '../../base/db/client.js';

// A multi-piece order booked natively on Delhivery's simulator, through the order route: the boxes
// are one MPS consignment there, a waybill per box under box 1's (the master), and the order's
// boxes are stored under those waybills, in the order sent.

let world: Awaited<ReturnType<typeof delhiveryMerchant>>;
beforeAll(async () => {
  world = await delhiveryMerchant(new TestClock());
});
afterAll(async () => {
  await world.close();
});

describe('a multi-piece order on Delhivery', () => {
  it('is one MPS consignment at Delhivery, a waybill per box, stored as the boxes of the shipment', async () => {
    const { ctx, sim, apiKey, warehouseId } = world;
    const booked = (await orchestrate(
      ctx,
      apiKey,
      boxedOrderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }),
    )) as unknown as { awb_code: string; shipment_id: string; boxes: { awb: string }[] };
    const awbs = booked.boxes.map((box) => box.awb);
    expect(awbs[0]).toBe(booked.awb_code);
    expect(new Set(awbs).size).toBe(2);
    for (const awb of awbs) {
      const shipment = sim.packages.get(awb)?.shipment;
      expect(String(shipment?.shipment_type).toUpperCase()).toBe('MPS');
      expect(String(shipment?.master_id)).toBe(booked.awb_code);
    }
    const rows = await queryRows<{ box_no: number; awb: string; weight_grams: number }>(
      ctx.database.db,
      sql`select box_no, awb, weight_grams from shipment_boxes where shipment_id = ${booked.shipment_id} order by box_no`,
    );
    expect(rows).toEqual([
      { box_no: 1, awb: awbs[0], weight_grams: 1200 },
      { box_no: 2, awb: awbs[1], weight_grams: 800 },
    ]);
  });
});
