import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, TestClock } from '../../test/app.js';
import { eventsSettled } from '../../test/databases.js';
import { DELHIVERY_SURFACE } from '../../test/kit/couriers.js';
import { authed, post, V1 } from '../../test/kit/http.js';
import { orchestrate, orderBody } from '../../test/kit/orders.js';
import type { DelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';
import { delhiveryMerchant, delhiveryScan, india } from '../../test/kit/delhivery.js';

// NDR instructions followed to the courier's answer (issue 47, D6; decision 139), against the
// simulator of Delhivery's API, whose re-attempts are queued under a UPL id and confirmed later.

const MINUTE = 60_000;
const scan = delhiveryScan;

describe('NDR instructions to their outcome', () => {
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

  const actions = async (awb: string) =>
    (await post(ctx, apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb].tracking_data.ndr_actions;
  /** A parcel booked, picked up and failed at the door with `code`, as the poller read it. */
  async function failedDelivery(code: string) {
    const awb = (await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }))).awb_code!;
    const at = clock.now();
    sim.scan(
      awb,
      scan('UD', 'In Transit', 'X-PPOM', india(at, 5 * MINUTE), 'Shipment picked up'),
      scan('UD', 'Dispatched', 'X-DDD3FD', india(at, 90 * MINUTE), 'Out for delivery'),
      scan('UD', 'Pending', code, india(at, 120 * MINUTE), 'Failed attempt'),
    );
    clock.advance(24 * 60 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    const reattempt = await post(ctx, apiKey, `${V1}/reattempt`, { awb });
    expect(reattempt.statusCode, reattempt.body).toBe(200);
    return awb;
  }

  it('shows a re-attempt Delhivery queued under its UPL, then done once Delhivery says it carried it out', async () => {
    const awb = await failedDelivery('EOD-11');
    expect((await actions(awb))[0]).toMatchObject({ courier_status: 'waiting', acknowledged_at: null, refusal: null });
    await ctx.app.courierPoller.runOnce();
    expect(sim.updates.at(-1)).toEqual({ waybill: awb, act: 'RE-ATTEMPT' });
    expect((await actions(awb))[0]).toMatchObject({
      courier_status: 'queued',
      acknowledged_at: clock.now().toISOString(),
    });
    const upl = sim.uplIds().at(-1)!;
    const asked = () => sim.callsTo(`/api/cmu/get_bulk_upl/${upl}`).length;
    // Asked about five minutes later, not before.
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toBe(0);
    clock.advance(5 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toBe(1);
    expect((await actions(awb))[0]).toMatchObject({ courier_status: 'done', refusal: null });
    // Done: never asked again.
    clock.advance(60 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    expect(asked()).toBe(1);
  });

  it('refuses at once a re-attempt Delhivery takes only after other codes, says so, and never sends it', async () => {
    const awb = await failedDelivery('EOD-3');
    const sent = sim.updates.length;
    await ctx.app.courierPoller.runOnce();
    const refusal =
      "Delhivery refused: it reattempts only after a failed attempt coded EOD-74, EOD-15, EOD-104, EOD-43, EOD-86, EOD-11, EOD-69 or EOD-6, and this parcel's last was EOD-3";
    const [action] = await actions(awb);
    expect(action).toMatchObject({ courier_status: 'refused', refusal, acknowledged_at: null });
    expect(sim.updates.length).toBe(sent);
    clock.advance(60 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    expect(sim.updates.length).toBe(sent);
    await eventsSettled(ctx.database);
    const events = (
      await ctx.app.inject({
        method: 'GET',
        url: `${V1}/events?type[]=shipment.ndr_action_refused`,
        headers: authed(apiKey),
      })
    ).json().data;
    expect(events.map((e: { data: Record<string, unknown> }) => e.data)).toEqual([
      expect.objectContaining({ action_id: action.id, courier: 'Delhivery Surface', refusal }),
    ]);
    expect(events[0].data.shipment.attributes.ndr_actions[0]).toMatchObject({ courier_status: 'refused', refusal });
  });

  it('shows a queued re-attempt Delhivery later refuses, with its words', async () => {
    const awb = await failedDelivery('EOD-74');
    // The parcel goes out again before Dakiya hands the instruction over: Delhivery takes the
    // request, then finds the parcel in no state to re-attempt.
    sim.scan(awb, scan('UD', 'Dispatched', 'X-DDD3FD', india(clock.now()), 'Out for delivery'));
    await ctx.app.courierPoller.runOnce();
    expect((await actions(awb))[0]).toMatchObject({ courier_status: 'queued' });
    clock.advance(5 * MINUTE);
    await ctx.app.courierPoller.runOnce();
    expect((await actions(awb))[0]).toMatchObject({
      courier_status: 'refused',
      refusal: expect.stringContaining('Package in incorrect status'),
    });
  });
});
