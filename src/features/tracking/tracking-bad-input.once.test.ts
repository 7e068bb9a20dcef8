import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { TRACKING_EVENTS } from '../../../test/kit/http.js';
import { seedShipments } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, postEvents, sendEvents } from '../../../test/kit/tracking.js';
import { queryRows } from '../../base/db/client.js';

let ctx: TestContext;
let token: string;
let awb: string;
let shipmentId: string;
beforeAll(async () => {
  ctx = await createTestApp();
  token = await issueCarrierToken(ctx, SHADOWFAX);
  const seeded = await seedShipments(ctx, 1);
  awb = seeded.booked[0]!.awb_code!;
  shipmentId = seeded.booked[0]!.shipment_id;
  // The clock stands at 06:40Z for every test: events up to 06:50Z are not in the future.
  ctx.clock.set('2026-11-20T06:40:00.000Z');
});
afterAll(async () => {
  await ctx.close();
});

async function storedEvents(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from tracking_events where shipment_id = ${shipmentId}`,
  );
  return Number(row!.n);
}

const _STATUSES =
  'pending, in_transit, out_for_delivery, delivered, ndr_raised, rto_initiated, rto_in_transit, rto_delivered, cancelled, others; ' +
  'on a return AWB one of return_pickup_scheduled, return_picked_up, return_in_transit, return_delivered, return_cancelled, return_lost';
const _TIME_FORMAT = 'event_time must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-20T14:30:00+05:30';

describe('the batch itself: 400, nothing recorded', () => {
  it.each([
    ['no events', { events: [] }, 'events must hold 1 to 500 events', 'events'],
    [
      '501 events',
      {
        events: Array.from({ length: 501 }, () => ({
          awb: 'SFX1',
          status: 'in_transit',
          event_time: '2026-11-20T06:00:00Z',
        })),
      },
      'events must hold 1 to 500 events',
      'events',
    ],
    ['events not a list', { events: { awb: 'SFX1' } }, 'events must hold 1 to 500 events', 'events'],
    ['no events key', {}, 'events is required', 'events'],
    [
      'another top-level field',
      { events: [{ awb: 'SFX1', status: 'in_transit', event_time: '2026-11-20T06:00:00Z' }], carrier_id: 'x' },
      'carrier_id is not a known field',
      'carrier_id',
    ],
    [
      'an event without awb',
      { events: [{ status: 'in_transit', event_time: '2026-11-20T06:00:00Z' }] },
      'events.0.awb is required',
      'events.0.awb',
    ],
    [
      'an event without status',
      { events: [{ awb: 'SFX1', event_time: '2026-11-20T06:00:00Z' }] },
      'events.0.status is required',
      'events.0.status',
    ],
    [
      'an event without event_time',
      { events: [{ awb: 'SFX1', status: 'in_transit' }] },
      'events.0.event_time is required',
      'events.0.event_time',
    ],
    [
      'an empty awb',
      { events: [{ awb: '', status: 'in_transit', event_time: '2026-11-20T06:00:00Z' }] },
      'events.0.awb must be at least 1 character long',
      'events.0.awb',
    ],
    [
      'a numeric event_time',
      { events: [{ awb: 'SFX1', status: 'in_transit', event_time: 1795149000 }] },
      'events.0.event_time must be of type string',
      'events.0.event_time',
    ],
    [
      'an unknown event field',
      { events: [{ awb: 'SFX1', status: 'in_transit', event_time: '2026-11-20T06:00:00Z', weight: 2 }] },
      'events.0.weight is not a known field',
      'events.0.weight',
    ],
  ])('%s', async (_name, payload, message, field) => {
    const before = await storedEvents();
    const response = await ctx.app.inject({
      method: 'POST',
      url: TRACKING_EVENTS,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message,
      errors: [message],
      details: [{ field, message }],
    });
    expect(await storedEvents()).toBe(before);
  });

  it('refuses a body that is not JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: TRACKING_EVENTS,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"events": [',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'malformed_json',
      message: 'Malformed JSON body',
      errors: ['Malformed JSON body'],
    });
  });
});

describe('one event: refused alone, answered in its place (the rules: tracking-intake.test.ts)', () => {
  it('refuses the bad events of a batch and records the rest', async () => {
    const before = await storedEvents();
    const results = await sendEvents(ctx, token, [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T06:31:00Z' },
      { awb, status: 'in_transit', event_time: '2026-11-20T07:31:00Z' },
      { awb, status: 'out_for_delivery', sub_status: 'delivered', event_time: '2026-11-20T06:32:00Z' },
      { awb: 'DLS0000000001', status: 'in_transit', event_time: at(1) },
      { awb, status: 'out_for_delivery', event_time: '2026-11-20T06:33:00Z' },
    ]);
    expect(results).toEqual([
      { awb, accepted: true },
      { awb, accepted: false, error: 'event_time is in the future' },
      { awb, accepted: false, error: 'sub_status for out_for_delivery must be one of out_for_delivery' },
      { awb: 'DLS0000000001', accepted: false, error: 'AWB not found for this courier' },
      { awb, accepted: true },
    ]);
    expect(await storedEvents()).toBe(before + 2);
    const response = await postEvents(ctx, token, [{ awb, status: 'in_transit' }]);
    expect(response.statusCode).toBe(400);
  });
});
