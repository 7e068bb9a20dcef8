import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { merchantWithShipments } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { queryRows } from '../../base/db/client.js';

// Issue 51's audit log for courier scans: a push that moved a parcel is written down as the
// courier's doing, once per parcel and push; a push that changed nothing (a replay, a scan kept)
// writes nothing. A poll's entry: src/couriers/tracking-poller.test.ts.

const SHADOWFAX = 'CARSHFXSTD001';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

describe('the audit log of courier pushes', () => {
  it('names the courier whose push moved a shipment, and writes nothing for the same push again', async () => {
    const merchant = await merchantWithShipments(ctx, 1);
    const [awb] = merchant.awbs;
    const shipmentId = merchant.booked[0]!.shipment_id;
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    // The scans are an hour and a half old by the time they are pushed.
    ctx.clock.set('2026-11-20T09:00:00.000Z');
    const push = [
      { awb: awb!, status: 'in_transit', event_time: at(30), event_id: 'push-1' },
      { awb: awb!, status: 'out_for_delivery', event_time: at(90), event_id: 'push-2' },
    ];
    expect((await sendEvents(ctx, token, push)).map((result) => result.accepted)).toEqual([true, true]);
    const entries = () =>
      queryRows<{ actor_type: string; actor_name: string; action: string; object_type: string; changes: object }>(
        ctx.database.db,
        sql`select actor_type, actor_name, action, object_type, changes from audit_log
            where account_id = ${merchant.id} and object_id = ${shipmentId}`,
      );
    const expected = [
      {
        actor_type: 'system',
        actor_name: `the courier service ${SHADOWFAX}, by push`,
        action: 'shipment.tracked',
        object_type: 'shipment',
        changes: { awb, scans: 2, applied: 2 },
      },
    ];
    expect(await entries()).toEqual(expected);
    const again = await sendEvents(ctx, token, push);
    expect(again.map((result) => result.duplicate)).toEqual([true, true]);
    expect(await entries()).toEqual(expected);
  });
});
