import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, PUSH_RATES, type TestContext } from '../../test/app.js';
import { describePostgresOnly } from '../../test/databases.js';
import { SHADOWFAX } from '../../test/kit/couriers.js';
import { merchantWithShipments } from '../../test/kit/orders.js';
import { at, issueCarrierToken, postEvents } from '../../test/kit/tracking.js';
import { queryRows } from '../base/db/client.js';
import { trackUrlOf } from '../domain/shipment/track-links.js';
import { createSubjectSnapshots } from '../readers/event-snapshots/event-snapshots.js';
import { createEventLog } from './event-log.js';

/**
 * Two transactions writing events about one shipment at once, only one of them holding its row:
 * a buyer message's outcome (the messaging worker) while a courier's scan comes in. Each numbers
 * its events from the shipment's last; before the log locked the subject, both read the same last
 * number and the scan, committing second, answered 500 on the unique key (seen once in CI).
 */
describePostgresOnly('events about one subject written by two transactions at once', {}, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('the second waits for the first and numbers its events after it; the scan answers 200', async () => {
    const { booked } = await merchantWithShipments(ctx, 1);
    const shipmentId = booked[0]!.shipment_id;
    const awb = booked[0]!.awb_code!;
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    const [{ accountId }] = (await queryRows<{ accountId: string }>(
      ctx.database.db,
      sql`select account_id as "accountId" from shipments where id = ${shipmentId}`,
    )) as [{ accountId: string }];
    // The event log as the messaging worker has it, on its own pooled connection.
    const log = createEventLog({
      snapshots: createSubjectSnapshots({ catalogue: PUSH_RATES.catalogue, trackUrl: trackUrlOf(PUBLIC_BASE_URL) }),
    });

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const messageWritten = new Promise<void>((resolve) => (written = resolve));
    const message = ctx.database.db.transaction(async (tx) => {
      await log.shipment(
        tx,
        accountId,
        shipmentId,
        [{ type: 'shipment.buyer_message_sent', change: { message: { channel: 'sms' } } }],
        ctx.clock.now(),
      );
      written();
      await released;
    });
    await messageWritten;

    let answered = false;
    const scan = postEvents(ctx, token, [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: at(5) },
    ]).then((response) => {
      answered = true;
      return response;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    release();
    await message;
    const response = await scan;
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().results).toEqual([{ awb, accepted: true }]);

    const events = await queryRows<{ type: string; sequence: number; status: string }>(
      ctx.database.db,
      sql`select type, sequence, data->'shipment'->'attributes'->>'status' as status from events where subject_id = ${shipmentId} order by sequence`,
    );
    // Each event's snapshot shows the shipment as it stood after the events numbered before it.
    expect(events.map((e) => [e.sequence, e.type, e.status])).toEqual([
      [1, 'shipment.created', 'pending'],
      [2, 'shipment.booked', 'pending'],
      [3, 'shipment.buyer_message_sent', 'pending'],
      [4, 'shipment.status_changed', 'in_transit'],
      [5, 'shipment.tracking_added', 'in_transit'],
    ]);
  });
});
