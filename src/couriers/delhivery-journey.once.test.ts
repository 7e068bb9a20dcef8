import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, TestClock } from '../../test/app.js';
import { DELHIVERY_SURFACE } from '../../test/kit/couriers.js';
import { authed, ORCHESTRATE, post, V1 } from '../../test/kit/http.js';
import { orchestrate, orderBody } from '../../test/kit/orders.js';
import type { DelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';
import { delhiveryMerchant, delhiveryScan, india } from '../../test/kit/delhivery.js';

// Issue 47: a Delhivery parcel whose first scan is stamped in the same second as its booking moves
// through every status, polled as the poller polls; and a return to origin told only by forward
// codes under ScanType RT (as sources 2 and 3 saw them) reaches rto_delivered.

const TRACK = '/api/v1/packages/json';

const scan = delhiveryScan;
const MINUTE = 60_000;

describe('delhivery parcels through the poller', () => {
  const clock = new TestClock('2026-11-20T06:30:00.000Z');
  let merchant: Awaited<ReturnType<typeof delhiveryMerchant>>;
  let sim: DelhiverySimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  beforeAll(async () => {
    merchant = await delhiveryMerchant(clock);
    ({ sim, ctx, apiKey, warehouseId } = merchant);
  });
  afterAll(async () => {
    await merchant?.close();
  });

  const tracking = async (awb: string) =>
    (await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb].tracking_data;
  const activities = async (awb: string) =>
    (await tracking(awb)).shipment_track_activities.map(
      (a: { date: string; activity: string; sr_status_label: string | null }) => [
        a.date,
        a.activity,
        a.sr_status_label,
      ],
    );
  /** Delhivery scans `scans`; a day later the poller asks; the parcel's status and sub-status then. */
  async function step(awb: string, ...scans: ReturnType<typeof scan>[]) {
    sim.scan(awb, ...scans);
    const asked = sim.callsTo(TRACK).length;
    clock.advance(24 * 60 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    expect(sim.callsTo(TRACK).length).toBeGreaterThan(asked);
    const { dakiya_status, shipment_sub_status } = await tracking(awb);
    return [dakiya_status, shipment_sub_status];
  }

  it('moves a parcel whose first scan is stamped in its booking’s second through every status to delivery', async () => {
    clock.set('2026-11-20T06:30:00.640Z');
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    const awb = booked.awb_code!;
    const at = new Date('2026-11-20T06:30:00.000Z'); // the booking's second, 640 ms before it
    expect(await step(awb, scan('UD', 'Manifested', 'X-UCI', india(at), 'Manifest uploaded'))).toEqual([
      'pending',
      'pickup_scheduled',
    ]);
    expect(
      await step(
        awb,
        scan('UD', 'In Transit', 'X-PPOM', india(at, 5 * MINUTE), 'Shipment picked up'),
        scan('UD', 'In Transit', 'X-PIOM', india(at, 20 * MINUTE), 'Shipment Recieved at Origin Center'),
      ),
    ).toEqual(['in_transit', 'reached_origin_hub']);
    expect(
      await step(awb, scan('UD', 'Pending', 'X-IBD3F', india(at, 60 * MINUTE), 'Shipment Received at Facility')),
    ).toEqual(['in_transit', 'reached_destination_hub']);
    expect(await step(awb, scan('UD', 'Dispatched', 'X-DDD3FD', india(at, 90 * MINUTE), 'Out for delivery'))).toEqual([
      'out_for_delivery',
      'out_for_delivery',
    ]);
    expect(
      await step(awb, scan('UD', 'Pending', 'EOD-16', india(at, 120 * MINUTE), 'Payment not ready with customer')),
    ).toEqual(['ndr_raised', 'cod_not_ready']);
    expect(await step(awb, scan('UD', 'Dispatched', 'X-DDD3FD', india(at, 1500 * MINUTE), 'Out for delivery'))).toEqual(
      ['out_for_delivery', 'out_for_delivery'],
    );
    expect(
      await step(awb, scan('DL', 'Delivered', 'EOD-38', india(at, 1530 * MINUTE), 'Delivered to consignee')),
    ).toEqual(['delivered', 'delivered']);
    // Newest first; the first scan placed just after the booking, within its next second.
    expect(await activities(awb)).toEqual([
      ['2026-11-21 13:30:00', 'DELIVERED', 'delivered'],
      ['2026-11-21 13:00:00', 'OUT FOR DELIVERY', 'out_for_delivery'],
      ['2026-11-20 14:00:00', 'UNDELIVERED', 'cod_not_ready'],
      ['2026-11-20 13:30:00', 'OUT FOR DELIVERY', 'out_for_delivery'],
      ['2026-11-20 13:00:00', 'IN TRANSIT', 'reached_destination_hub'],
      ['2026-11-20 12:20:00', 'IN TRANSIT', 'reached_origin_hub'],
      ['2026-11-20 12:05:00', 'PICKED UP', 'picked_up'],
      ['2026-11-20 12:00:01', 'OUT FOR PICKUP', 'pickup_scheduled'],
    ]);
    const kept = await ctx.app.inject({ method: 'GET', url: `${V1}/kept-scans`, headers: authed(apiKey) });
    expect(kept.json().data).toEqual([]);
  });

  it('returns a parcel to origin told only by forward codes under RT, from a first scan in its booking’s second', async () => {
    clock.set('2026-11-25T06:30:00.400Z');
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    const awb = booked.awb_code!;
    const at = new Date('2026-11-25T06:30:00.000Z');
    expect(await step(awb, scan('UD', 'Manifested', 'X-UCI', india(at), 'Manifest uploaded'))).toEqual([
      'pending',
      'pickup_scheduled',
    ]);
    expect(
      await step(
        awb,
        scan('UD', 'In Transit', 'X-PPOM', india(at, 5 * MINUTE), 'Shipment picked up'),
        scan('UD', 'Dispatched', 'X-DDD3FD', india(at, 90 * MINUTE), 'Out for delivery'),
        scan('UD', 'Pending', 'DLYDC-132', india(at, 120 * MINUTE), 'Out of Delivery Area (ODA)'),
      ),
    ).toEqual(['ndr_raised', 'other']);
    // The first RT scan carries a forward code: the RTO starts there all the same.
    expect(await step(awb, scan('RT', 'In Transit', 'X-DLL2F', india(at, 1500 * MINUTE), 'Bag Added To Trip'))).toEqual(
      ['rto_in_transit', 'rto_in_transit'],
    );
    expect(await step(awb, scan('RT', 'Dispatched', 'X-DDD3FD', india(at, 2900 * MINUTE), 'Out for delivery'))).toEqual(
      ['rto_in_transit', 'rto_out_for_delivery'],
    );
    expect(await step(awb, scan('DL', 'RTO', 'RT-110', india(at, 2960 * MINUTE), 'RTO delivered'))).toEqual([
      'rto_delivered',
      'rto_delivered',
    ]);
    expect(await activities(awb)).toEqual([
      ['2026-11-27 13:20:00', 'RTO DELIVERED', 'rto_delivered'],
      ['2026-11-27 12:20:00', 'RTO OUT FOR DELIVERY', 'rto_out_for_delivery'],
      ['2026-11-26 13:00:00', 'RTO IN TRANSIT', 'rto_in_transit'],
      ['2026-11-26 12:59:59', 'RTO INITIATED', 'rto_initiated'],
      ['2026-11-25 14:00:00', 'UNDELIVERED', 'other'],
      ['2026-11-25 13:30:00', 'OUT FOR DELIVERY', 'out_for_delivery'],
      ['2026-11-25 12:05:00', 'PICKED UP', 'picked_up'],
      ['2026-11-25 12:00:01', 'OUT FOR PICKUP', 'pickup_scheduled'],
    ]);
  });

  it('backs off when Delhivery’s WAF answers the tracking call 403, and waits it out before calling again', async () => {
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    clock.advance(24 * 60 * MINUTE);
    const asked = () => sim.callsTo(TRACK).filter((r) => r.query.get('waybill')?.split(',').includes(booked.awb_code!));
    sim.failNext(TRACK, 'waf');
    const before = asked().length;
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toHaveLength(before + 1);
    // Throttled, not refused: every call waits out the WAF's 30 s, a booking too.
    clock.advance(10_000);
    const paused = await post(ctx, apiKey, ORCHESTRATE, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect([paused.statusCode, paused.headers['retry-after'], paused.json().message]).toEqual([
      503,
      '20',
      'Delhivery could not be reached (it is limiting our requests); nothing was changed, try again',
    ]);
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toHaveLength(before + 1);
    clock.advance(2 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toHaveLength(before + 2);
  });

  it('hands a merchant’s dated reattempt to Delhivery as a deferred delivery, queued under its UPL', async () => {
    clock.set('2026-12-02T06:30:00.000Z');
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    const awb = booked.awb_code!;
    const at = clock.now();
    expect(
      await step(
        awb,
        scan('UD', 'In Transit', 'X-PPOM', india(at, 5 * MINUTE), 'Shipment picked up'),
        scan('UD', 'Dispatched', 'X-DDD3FD', india(at, 90 * MINUTE), 'Out for delivery'),
        scan('UD', 'Pending', 'EOD-11', india(at, 120 * MINUTE), 'Consignee Unavailable'),
      ),
    ).toEqual(['ndr_raised', 'customer_unavailable']);
    const asked = await post(ctx, apiKey, `${V1}/reattempt`, { awb, reattempt_date: '2026-12-05' });
    expect(asked.statusCode, asked.body).toBe(200);
    await ctx.app.courierPoller.runOnce();
    expect(sim.updates.at(-1)).toEqual({
      waybill: awb,
      act: 'DEFER_DLV',
      action_data: { deferred_date: '2026-12-05' },
    });
    expect(sim.uplIds()).toHaveLength(1);
  });
});
