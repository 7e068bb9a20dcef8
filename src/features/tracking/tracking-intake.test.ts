import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin, post, V1 } from '../../../test/kit/http.js';
import { seedShipments } from '../../../test/kit/orders.js';
import { at, type CarrierEvent } from '../../../test/kit/tracking.js';
import { scanIntakeDeps, type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { queryRows } from '../../base/db/client.js';
import { createScanIntake } from './scan-intake.js';
import { createTrackingService, type TrackingService } from './tracking.service.js';

// The tracking intake's rules, tested on its service as a function over a seeded database (both
// engines): what each courier event is answered, what is recorded, what is kept. The HTTP route's
// contract (the batch, its 400s, the carrier token) is tracking-bad-input.once.test.ts's.

let ctx: UseCaseContext;
let tracking: TrackingService;
let awb: string;
let shipmentId: string;
beforeAll(async () => {
  ctx = await useCaseContext();
  tracking = createTrackingService(scanIntakeDeps(ctx));
  const seeded = await seedShipments(ctx, 1);
  awb = seeded.booked[0]!.awb_code!;
  shipmentId = seeded.booked[0]!.shipment_id;
  // The clock stands at 06:40Z for every test: events up to 06:50Z are not in the future.
  ctx.clock.set('2026-11-20T06:40:00.000Z');
});
afterAll(async () => {
  await ctx.close();
});

const ingest = (events: CarrierEvent[]) => tracking.ingest(SHADOWFAX, events);

async function storedEvents(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from tracking_events where shipment_id = ${shipmentId}`,
  );
  return Number(row!.n);
}

const STATUSES =
  'pending, in_transit, out_for_delivery, delivered, ndr_raised, rto_initiated, rto_in_transit, rto_delivered, cancelled, others; ' +
  'on a return AWB one of return_pickup_scheduled, return_picked_up, return_in_transit, return_delivered, return_cancelled, return_lost';
const TIME_FORMAT = 'event_time must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-20T14:30:00+05:30';

describe('one event: refused alone, with a message for the courier', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['an unknown status', { status: 'shipped' }, `status must be one of ${STATUSES}`],
    ['a status in capitals', { status: 'IN_TRANSIT' }, `status must be one of ${STATUSES}`],
    [
      'a sub_status unknown for its status',
      { status: 'in_transit', sub_status: 'warp_speed' },
      'sub_status for in_transit must be one of picked_up, in_transit, reached_origin_hub, departed_origin_hub, reached_destination_hub, misrouted',
    ],
    [
      'a sub_status of another status',
      { status: 'out_for_delivery', sub_status: 'delivered' },
      'sub_status for out_for_delivery must be one of out_for_delivery',
    ],
    [
      'an NDR sub_status on a delivery',
      { status: 'delivered', sub_status: 'refused' },
      'sub_status for delivered must be one of delivered',
    ],
    [
      'ndr_reason on an in_transit event',
      { status: 'in_transit', ndr_reason: 'refused' },
      'ndr_reason belongs to ndr_raised events only',
    ],
    [
      'ndr_reason on a delivery',
      { status: 'delivered', ndr_reason: 'customer_unavailable' },
      'ndr_reason belongs to ndr_raised events only',
    ],
    [
      'an unknown ndr_reason',
      { status: 'ndr_raised', ndr_reason: 'dog_bites' },
      'ndr_reason must be one of customer_unavailable, address_incomplete, refused, cod_not_ready, premises_closed, future_delivery_requested, contact_unreachable, other',
    ],
    [
      'rto_reason on an NDR',
      { status: 'ndr_raised', rto_reason: 'customer_refused' },
      'rto_reason belongs to rto_* events only',
    ],
    [
      'an unknown rto_reason',
      { status: 'rto_initiated', rto_reason: 'bored' },
      'rto_reason must be one of customer_refused, customer_unreachable, address_not_found, max_attempts_exceeded, cod_not_ready, merchant_requested, damaged_in_transit',
    ],
    ['a date without a time', { event_time: '2026-11-20' }, TIME_FORMAT],
    ['a time without a zone', { event_time: '2026-11-20T06:00:00' }, TIME_FORMAT],
    ['a space instead of T, no zone', { event_time: '2026-11-20 06:00:00' }, TIME_FORMAT],
    ['a day-first date', { event_time: '20/11/2026 06:00 +05:30' }, TIME_FORMAT],
    ['epoch seconds as text', { event_time: '1795149000' }, TIME_FORMAT],
    ['a word', { event_time: 'yesterday' }, TIME_FORMAT],
    ['month 13', { event_time: '2026-13-01T06:00:00Z' }, TIME_FORMAT],
    ['30 February', { event_time: '2026-02-30T06:00:00Z' }, TIME_FORMAT],
    ['31 April', { event_time: '2026-04-31T06:00:00+05:30' }, TIME_FORMAT],
    ['minute 60', { event_time: '2026-11-20T06:60:00Z' }, TIME_FORMAT],
    ['an offset without a colon', { event_time: '2026-11-20T06:00:00+0530' }, TIME_FORMAT],
    ['an impossible offset', { event_time: '2026-11-20T06:00:00+25:00' }, TIME_FORMAT],
    [
      'more than 10 minutes ahead of the server',
      { event_time: '2026-11-20T06:50:00.001Z' },
      'event_time is in the future',
    ],
    ['tomorrow, India time', { event_time: '2026-11-21T09:00:00+05:30' }, 'event_time is in the future'],
  ];

  it.each(cases)('%s', async (_name, change, error) => {
    const before = await storedEvents();
    const event = { awb, status: 'in_transit', event_time: '2026-11-20T06:35:00Z', ...change };
    expect(await ingest([event as never])).toEqual([{ awb, accepted: false, error }]);
    expect(await storedEvents()).toBe(before);
  });

  it('accepts an event up to 10 minutes ahead of the server clock, and the accepted forms of event_time', async () => {
    const results = await ingest([
      { awb, status: 'in_transit', sub_status: 'in_transit', event_time: '2026-11-20T06:50:00.000Z' },
      { awb, status: 'in_transit', sub_status: 'reached_origin_hub', event_time: '2026-11-20T12:10+05:30' },
      { awb, status: 'in_transit', sub_status: 'departed_origin_hub', event_time: '2026-11-20T06:41:30.123456Z' },
      { awb, status: 'in_transit', sub_status: 'misrouted', event_time: '2026-11-20T01:42:00-05:00' },
    ]);
    // Placed in time order, the three earlier scans land before the first one: only it moves the shipment.
    const earlier = {
      awb,
      accepted: true,
      changed: false,
      reason:
        'recorded in its history before later scans, which leave the shipment in_transit (in_transit): status unchanged',
    };
    expect(results).toEqual([{ awb, accepted: true }, earlier, earlier, earlier]);
    const rows = await queryRows<{ t: string }>(
      ctx.database.db,
      sql`select to_char(event_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as t from tracking_events
          where shipment_id = ${shipmentId} and sub_status in ('in_transit', 'reached_origin_hub', 'departed_origin_hub', 'misrouted')
          order by event_time`,
    );
    expect(rows.map((r) => r.t)).toEqual([
      '2026-11-20T06:40:00.000000',
      '2026-11-20T06:41:30.123000',
      '2026-11-20T06:42:00.000000',
      '2026-11-20T06:50:00.000000',
    ]);
  });

  it('places a scan stamped up to 15 minutes before the booking (06:30Z) just after it, its own time kept; refuses and keeps one further back', async () => {
    // A parcel of its own, booked at 06:30Z, with no scan yet.
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const seeded = await seedShipments(ctx, 1);
    const { awb_code, shipment_id } = seeded.booked[0]!;
    const awb = awb_code!;
    ctx.clock.set('2026-11-20T06:40:00.000Z');
    // India time written as UTC: 11:40 IST is 06:10Z, twenty minutes before the booking.
    const tooEarly = { awb, status: 'in_transit', event_time: '2026-11-20T11:40:00+05:30' };
    const results = await ingest([
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T06:29:59.999Z' },
      tooEarly,
      // Second-truncated in the booking's own second: the stamp is before the booking's milliseconds.
      { awb, status: 'in_transit', sub_status: 'reached_origin_hub', event_time: '2026-11-20T06:15:00.000Z' },
    ]);
    expect(results).toEqual([
      { awb, accepted: true },
      {
        awb,
        accepted: false,
        error:
          'event_time 2026-11-20T11:40:00+05:30 is more than 15 minutes before the shipment was booked (2026-11-20T06:30:00.000Z): check its time zone',
      },
      {
        awb,
        accepted: true,
        changed: false,
        reason:
          'recorded in its history before later scans, which leave the shipment in_transit (picked_up): status unchanged',
      },
    ]);
    const rows = await queryRows<{ placed: string; stated: string }>(
      ctx.database.db,
      sql`select to_char(event_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as placed,
                 to_char(stated_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as stated
          from tracking_events where shipment_id = ${shipment_id} order by event_time`,
    );
    // Each placed within the booking's next second, in the order of the courier's own times.
    expect(rows).toEqual([
      { placed: '2026-11-20T06:30:00.001', stated: '2026-11-20T06:15:00.000' },
      { placed: '2026-11-20T06:30:00.998', stated: '2026-11-20T06:29:59.999' },
    ]);
    // order-tracking shows each where it stands, with the time the courier gave it (India time).
    const tracked = (await post(ctx, seeded.apiKey, `${V1}/order-tracking`, { awbs: [awb] })).json().result[awb]
      .tracking_data;
    expect(
      tracked.shipment_track_activities.map((a: { date: string; courier_date?: string }) => [a.date, a.courier_date]),
    ).toEqual([
      ['2026-11-20 12:00:00', '2026-11-20 11:59:59'],
      ['2026-11-20 12:00:00', '2026-11-20 11:45:00'],
    ]);
    const kept = (await ctx.app.inject({ method: 'GET', url: '/admin/v1/kept-scans', headers: admin })).json().data;
    expect(kept.filter((k: { awb: string }) => k.awb === awb)).toHaveLength(1);
    expect(kept.find((k: { awb: string }) => k.awb === awb)).toMatchObject({
      awb,
      raw: tooEarly,
      reason_code: 'before_booking',
      connector: 'push',
      journey: 'forward',
      reason: results[1]!.error,
    });
  });

  it('refuses an AWB of another courier or none, for that event only', async () => {
    expect(
      await ingest([
        { awb: 'DLS0000000001', status: 'in_transit', event_time: at(1) },
        { awb: awb.toLowerCase(), status: 'in_transit', event_time: at(1) },
      ]),
    ).toEqual([
      { awb: 'DLS0000000001', accepted: false, error: 'AWB not found for this courier' },
      { awb: awb.toLowerCase(), accepted: false, error: 'AWB not found for this courier' },
    ]);
  });
});

describe('a parcel that goes while its courier is asked (its account deleted)', () => {
  const keptOf = async (gone: string) =>
    queryRows<{ account_id: string | null; reason_code: string }>(
      ctx.database.db,
      sql`select account_id, reason_code from kept_scans where awb = ${gone} order by reason_code`,
    );
  const scan = (gone: string) => ({
    awb: gone,
    status: 'in_transit' as const,
    event_time: at(2),
    raw: { scan: 'hub' },
  });
  const late = (gone: string) => ({ ...scan(gone), event_time: at(70) });

  it('drops the pulled scans of a parcel no longer held, counting them, where a pushed one is kept', async () => {
    const gone = 'SFXGONE0000001';
    const pulled = new Map([
      [gone, { events: [scan(gone), late(gone)], unread: [{ raw: { x: 1 }, reason: 'unreadable' }] }],
    ]);
    // Two scans read, one the courier's connector could not read: three gone.
    expect(await tracking.ingestPulled(SHADOWFAX, pulled)).toEqual({ gone: 3 });
    expect(await keptOf(gone)).toEqual([]);

    expect(await ingest([scan(gone)])).toEqual([
      { awb: gone, accepted: false, error: 'AWB not found for this courier' },
    ]);
    expect(await keptOf(gone)).toEqual([{ account_id: null, reason_code: 'unknown_awb' }]);
  });

  it('writes nothing of a parcel found, then gone before its transaction locked it: dropped when pulled, kept as unknown when pushed', async () => {
    const [{ account_id: accountId }] = (await queryRows<{ account_id: string }>(
      ctx.database.db,
      sql`select account_id from shipments where id = ${shipmentId}`,
    )) as [{ account_id: string }];
    const gone = 'SFXGONE0000002';
    // The lookup's answer, as it stood before the account's deletion took the shipment.
    const found = () =>
      new Map([
        [gone, { journey: 'forward' as const, id: randomUUID(), accountId, booked: new Date(at(0)), boxNo: 0 }],
      ]);
    const intake = createScanIntake(scanIntakeDeps(ctx)).intake;
    const eventsBefore = await storedEvents();

    // Two scans: one to record, one stamped an hour ahead, set aside to keep before the lock.
    const both = [
      { event: scan(gone), raw: scan(gone) },
      { event: late(gone), raw: late(gone) },
    ];
    const polled = await intake(SHADOWFAX, both, { parcels: found(), by: 'poll' });
    expect(polled.results).toEqual([
      { awb: gone, accepted: false, error: 'AWB not found for this courier' },
      { awb: gone, accepted: false, error: expect.stringContaining('event_time') },
    ]);
    expect(polled.gone).toBe(2);
    expect(await keptOf(gone)).toEqual([]);

    const pushed = await intake(SHADOWFAX, both, { parcels: found(), by: 'push' });
    expect(pushed.results).toEqual(polled.results);
    expect(pushed.gone).toBe(0);
    // Kept as no account's: the account the lookup named is the one being deleted.
    expect(await keptOf(gone)).toEqual([
      { account_id: null, reason_code: 'refused' },
      { account_id: null, reason_code: 'unknown_awb' },
    ]);
    expect(await storedEvents()).toBe(eventsBefore);

    // A return the same: its lock finds no row either.
    const returnGone = 'SFXGONE0000003';
    const returned = new Map([
      [returnGone, { journey: 'return' as const, id: randomUUID(), accountId, qcApplied: false }],
    ]);
    const returnScan = { awb: returnGone, status: 'return_in_transit' as const, event_time: at(2) };
    expect(
      (await intake(SHADOWFAX, [{ event: returnScan, raw: returnScan }], { parcels: returned, by: 'poll' })).gone,
    ).toBe(1);
    expect(await keptOf(returnGone)).toEqual([]);
  });
});
