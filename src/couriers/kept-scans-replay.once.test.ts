import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, TestClock } from '../../test/app.js';
import { DELHIVERY_SURFACE } from '../../test/kit/couriers.js';
import { authed, post, V1 } from '../../test/kit/http.js';
import { orchestrate, orderBody } from '../../test/kit/orders.js';
import type { DelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';
import { delhiveryMerchant, india } from '../../test/kit/delhivery.js';
import { type Mapped, UD_CODES } from './delhivery-codes.js';

// A scan Delhivery sent under a code the table did not read, or read wrong, is kept; after an
// upgrade fixes the table, a replay reads the kept record again and the parcel moves (issue 47;
// decision 137). The upgrade is played by giving the table, for the test's length, the row a
// release would add: a code Delhivery started sending, first misread, then read right.

const MINUTE = 60_000;
const NEW_CODE = 'X-PKW9';
const weighed = (at: Date) => ({
  ScanType: 'UD',
  Scan: 'Weighed',
  StatusCode: NEW_CODE,
  ScanDateTime: india(at, 5 * MINUTE),
  Instructions: 'Shipment picked up and weighed',
  ScannedLocation: 'Okhla_PC (Delhi)',
});

describe('kept Delhivery scans, read again after the table is fixed', () => {
  const clock = new TestClock('2026-11-20T06:30:00.000Z');
  const table = UD_CODES as Record<string, Mapped>;
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
    delete table[NEW_CODE];
    await merchant?.close();
  });

  const statusOf = async (awb: string) => {
    const data = (await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb].tracking_data;
    return [data.dakiya_status, data.shipment_sub_status];
  };
  const keptOf = async (awb: string) =>
    (await ctx.app.inject({ method: 'GET', url: `${V1}/kept-scans?status=all`, headers: authed(apiKey) }))
      .json()
      .data.filter((k: { awb: string }) => k.awb === awb);
  const replay = async () =>
    (await ctx.app.inject({ method: 'POST', url: `${V1}/kept-scans/replay`, headers: authed(apiKey) })).json();
  async function bookAndScan() {
    const awb = (await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }))).awb_code!;
    sim.scan(awb, weighed(clock.now()));
    clock.advance(60 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    return awb;
  }

  it('keeps a code no table reads, once however often it is polled, and applies it when the table reads it', async () => {
    const awb = await bookAndScan();
    clock.advance(60 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    expect(await statusOf(awb)).toEqual(['pending', null]);
    const [kept] = await keptOf(awb);
    expect(await keptOf(awb)).toHaveLength(1);
    expect(kept).toMatchObject({
      reason_code: 'unread',
      reason: `no status for StatusCode '${NEW_CODE}', ScanType 'UD', Scan 'Weighed'`,
      raw: weighed(new Date('2026-11-20T06:30:00.000Z')),
      journey: 'forward',
      carrier_id: DELHIVERY_SURFACE,
    });
    // Before the fix a replay finds the same.
    expect(await replay()).toMatchObject({ read: 1, applied: 0, kept: 1, by_reason: { unread: 1 } });

    table[NEW_CODE] = { status: 'in_transit', sub_status: 'picked_up' };
    try {
      expect(await replay()).toEqual({ read: 1, applied: 1, kept: 0, by_reason: {}, next_after: null });
    } finally {
      delete table[NEW_CODE];
    }
    expect(await statusOf(awb)).toEqual(['in_transit', 'picked_up']);
    expect((await keptOf(awb))[0].applied_at).toBe(clock.now().toISOString());
  });

  it('replaces a misread scan the status machine never applied with its new reading', async () => {
    // A release that misread the new code as a delivery: the machine does not deliver a parcel
    // never picked up, so the scan is recorded without effect, and kept.
    table[NEW_CODE] = { status: 'delivered', sub_status: 'delivered' };
    let awb: string;
    try {
      awb = await bookAndScan();
    } finally {
      delete table[NEW_CODE];
    }
    expect(await statusOf(awb)).toEqual(['pending', null]);
    expect(await keptOf(awb)).toEqual([
      expect.objectContaining({
        reason_code: 'not_applied',
        reason:
          'the status machine does not apply delivered at its event_time (the shipment is pending): recorded in its history, status unchanged',
      }),
    ]);

    table[NEW_CODE] = { status: 'in_transit', sub_status: 'picked_up' };
    try {
      expect(await replay()).toEqual({ read: 1, applied: 1, kept: 0, by_reason: {}, next_after: null });
    } finally {
      delete table[NEW_CODE];
    }
    expect(await statusOf(awb)).toEqual(['in_transit', 'picked_up']);
    // The misreading is gone from the history: the scan stands once, as read now.
    const activities = (await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb]
      .tracking_data.shipment_track_activities;
    expect(activities.map((a: { status: string; sr_status_label: string }) => [a.status, a.sr_status_label])).toEqual([
      ['in_transit', 'picked_up'],
    ]);
  });
});
