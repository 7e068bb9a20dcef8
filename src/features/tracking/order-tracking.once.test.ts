import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { CANCEL, ORDER_TRACKING, post } from '../../../test/kit/http.js';
import { labelUrlNow } from '../../../test/kit/labels.js';
import { book, type Booked, type OrderFields } from '../../../test/kit/orders.js';
import { issueCarrierToken, sendEvents, track, type TrackActivity } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';

// POST /custom/api/v1/order-tracking answers as Velocity does (VELOCITY.md, "Tracking"): activity
// labels, India-time dates written YYYY-MM-DD HH:mm:ss, and every shipment_track field.

let ctx: TestContext;
let courier: string;
beforeAll(async () => {
  ctx = await createTestApp();
  courier = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
});

const IGNORED = 'dakiya-ignored-fields';

/** A new merchant with one shipment on Shadowfax, booked at 12:00 India time from a warehouse in New Delhi (or Mumbai). */
async function shipment(fields: OrderFields = {}, where: 'delhi' | 'mumbai' = 'delhi') {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const { apiKey } = await ctx.createAccount();
  const booked = await book(ctx, apiKey, await createCityWarehouse(ctx, apiKey, where), fields);
  // Couriers may report anything up to two days later.
  ctx.clock.set('2026-11-22T12:00:00.000Z');
  return { apiKey, booked, awb: booked.awb_code! };
}

/** The shipment_track entry of a shipment booked with book's defaults (test/kit/orders.ts), before any scan. */
function trackOf(booked: Booked, overrides: Record<string, unknown> = {}) {
  return {
    id: booked.shipment_id,
    awb_code: booked.awb_code,
    courier_company_id: SHADOWFAX,
    courier_name: 'Shadowfax Standard',
    shipment_id: booked.shipment_id,
    order_id: booked.order_id,
    channel_order_id: booked.channel_order_id,
    pickup_date: null,
    delivered_date: null,
    weight: 0.5,
    packages: 1,
    // Velocity's word: booked, no courier scan yet.
    current_status: 'ready_for_pickup',
    delivered_to: null,
    destination: 'Mumbai',
    consignee_name: 'Asha',
    origin: 'New Delhi',
    courier_agent_details: null,
    ...overrides,
  };
}

/** Sends the scans (each must be accepted, whether or not it moves the shipment) of one AWB. */
async function scan(awb: string, events: Omit<CarrierEvent, 'awb'>[]) {
  const results = await sendEvents(
    ctx,
    courier,
    events.map((e) => ({ awb, ...e })),
  );
  expect(results.map((r) => ({ awb: r.awb, accepted: r.accepted, error: r.error }))).toEqual(
    events.map(() => ({ awb, accepted: true, error: undefined })),
  );
}

const activity = (
  date: string,
  label: string,
  status: string,
  sub: string | null,
  extra: Partial<TrackActivity> = {},
): TrackActivity => ({
  date,
  activity: label,
  status,
  description: null,
  location: null,
  sr_status_label: sub,
  ...extra,
});

describe('order tracking (POST /custom/api/v1/order-tracking)', () => {
  it('answers Velocity’s tracking_data shape, activities newest first; unknown and foreign AWBs get an error entry', async () => {
    const mine = await shipment();
    const theirs = await shipment();
    await scan(mine.awb, [
      {
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-20T10:00:00Z',
        location: 'Okhla Hub',
        description: 'Picked up from seller',
      },
      { status: 'out_for_delivery', event_time: '2026-11-21T04:00:00Z', location: 'Andheri DC' },
      {
        status: 'delivered',
        sub_status: 'delivered',
        event_time: '2026-11-21T06:00:00Z',
        location: 'Andheri DC',
        description: 'Delivered to Asha',
      },
    ]);
    await scan(theirs.awb, [{ status: 'in_transit', event_time: '2026-11-20T11:00:00Z', location: 'Secret' }]);

    const response = await post(ctx, mine.apiKey, ORDER_TRACKING, { awbs: [mine.awb, 'SFX0000009999', theirs.awb] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      result: {
        [mine.awb]: {
          tracking_data: {
            track_status: 1,
            shipment_status: 'delivered',
            dakiya_status: 'delivered',
            shipment_sub_status: 'delivered',
            shipment_track: [
              trackOf(mine.booked, {
                pickup_date: '2026-11-20 15:30:00',
                delivered_date: '2026-11-21 11:30:00',
                current_status: 'delivered',
                delivered_to: 'Mumbai',
              }),
            ],
            shipment_track_activities: [
              activity('2026-11-21 11:30:00', 'DELIVERED', 'delivered', 'delivered', {
                location: 'Andheri DC',
                description: 'Delivered to Asha',
              }),
              activity('2026-11-21 09:30:00', 'OUT FOR DELIVERY', 'out_for_delivery', null, { location: 'Andheri DC' }),
              activity('2026-11-20 15:30:00', 'PICKED UP', 'in_transit', 'picked_up', {
                location: 'Okhla Hub',
                description: 'Picked up from seller',
              }),
            ],
            track_url: mine.booked.track_url,
            label_url: await labelUrlNow(ctx, mine.booked.shipment_id),
            ndr_actions: [],
          },
        },
        SFX0000009999: { tracking_data: { track_status: 0, error: 'AWB SFX0000009999 not found' } },
        [theirs.awb]: { tracking_data: { track_status: 0, error: `AWB ${theirs.awb} not found` } },
      },
    });
  });

  it('shows a booked shipment with no scans yet: pending, no activities, no pickup or delivery dates', async () => {
    const { apiKey, booked, awb } = await shipment();
    expect(await track(ctx, apiKey, awb)).toEqual({
      track_status: 1,
      shipment_status: 'ready_for_pickup',
      dakiya_status: 'pending',
      shipment_sub_status: null,
      shipment_track: [trackOf(booked)],
      shipment_track_activities: [],
      track_url: booked.track_url,
      // Signed at this read (the clock moved two days on since booking), so it is a fresh link.
      label_url: await labelUrlNow(ctx, booked.shipment_id),
      ndr_actions: [],
    });
  });

  it('writes dates in India time, YYYY-MM-DD HH:mm:ss, whatever offset the courier used; past midnight UTC+05:30 is the next day', async () => {
    const { apiKey, booked, awb } = await shipment();
    await scan(awb, [
      { status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T18:45:30Z' },
      { status: 'in_transit', sub_status: 'departed_origin_hub', event_time: '2026-11-21T00:20:00+05:30' },
      // Fractions of a second are dropped, as Velocity writes whole seconds.
      { status: 'in_transit', sub_status: 'reached_destination_hub', event_time: '2026-11-20T18:55:59.900Z' },
      { status: 'out_for_delivery', event_time: '2026-11-21T08:00:00-02:00' },
      { status: 'delivered', event_time: '2026-11-21T10:29:59Z' },
    ]);
    const data = await track(ctx, apiKey, awb);
    expect(data.shipment_track).toEqual([
      trackOf(booked, {
        pickup_date: '2026-11-21 00:15:30',
        delivered_date: '2026-11-21 15:59:59',
        current_status: 'delivered',
        delivered_to: 'Mumbai',
      }),
    ]);
    expect(data.shipment_track_activities).toEqual([
      activity('2026-11-21 15:59:59', 'DELIVERED', 'delivered', null),
      activity('2026-11-21 15:30:00', 'OUT FOR DELIVERY', 'out_for_delivery', null),
      activity('2026-11-21 00:25:59', 'IN TRANSIT', 'in_transit', 'reached_destination_hub'),
      activity('2026-11-21 00:20:00', 'IN TRANSIT', 'in_transit', 'departed_origin_hub'),
      activity('2026-11-21 00:15:30', 'PICKED UP', 'in_transit', 'picked_up'),
    ]);
  });

  it('labels each stage of a forward journey with a failed attempt; pickup_date is the first pickup scan', async () => {
    const { apiKey, booked, awb } = await shipment();
    await scan(awb, [
      { status: 'pending', sub_status: 'pickup_scheduled', event_time: '2026-11-20T08:00:00Z', location: 'Okhla' },
      {
        status: 'pending',
        sub_status: 'pickup_failed',
        event_time: '2026-11-20T09:00:00Z',
        location: 'Okhla',
        description: 'Seller closed',
      },
      { status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T10:00:00Z', location: 'Okhla' },
      {
        status: 'in_transit',
        sub_status: 'reached_origin_hub',
        event_time: '2026-11-20T11:00:00Z',
        location: 'Okhla Hub',
      },
      { status: 'in_transit', sub_status: 'misrouted', event_time: '2026-11-20T14:00:00Z', location: 'Pune Hub' },
      { status: 'in_transit', event_time: '2026-11-20T20:00:00Z', location: 'Bhiwandi' },
      {
        status: 'out_for_delivery',
        sub_status: 'out_for_delivery',
        event_time: '2026-11-21T03:00:00Z',
        location: 'Andheri DC',
      },
      {
        status: 'ndr_raised',
        sub_status: 'customer_unavailable',
        event_time: '2026-11-21T07:00:00Z',
        location: 'Andheri DC',
        description: 'Door locked',
      },
      { status: 'out_for_delivery', event_time: '2026-11-22T03:00:00Z', location: 'Andheri DC' },
      { status: 'delivered', sub_status: 'delivered', event_time: '2026-11-22T05:00:00Z', location: 'Andheri' },
    ]);
    const data = await track(ctx, apiKey, awb);
    expect(data.shipment_status).toBe('delivered');
    expect(data.shipment_track).toEqual([
      trackOf(booked, {
        pickup_date: '2026-11-20 15:30:00',
        delivered_date: '2026-11-22 10:30:00',
        current_status: 'delivered',
        delivered_to: 'Mumbai',
      }),
    ]);
    expect(data.shipment_track_activities).toEqual([
      activity('2026-11-22 10:30:00', 'DELIVERED', 'delivered', 'delivered', { location: 'Andheri' }),
      activity('2026-11-22 08:30:00', 'OUT FOR DELIVERY', 'out_for_delivery', null, { location: 'Andheri DC' }),
      activity('2026-11-21 12:30:00', 'UNDELIVERED', 'ndr_raised', 'customer_unavailable', {
        location: 'Andheri DC',
        description: 'Door locked',
      }),
      activity('2026-11-21 08:30:00', 'OUT FOR DELIVERY', 'out_for_delivery', 'out_for_delivery', {
        location: 'Andheri DC',
      }),
      activity('2026-11-21 01:30:00', 'IN TRANSIT', 'in_transit', null, { location: 'Bhiwandi' }),
      activity('2026-11-20 19:30:00', 'MISROUTED', 'in_transit', 'misrouted', { location: 'Pune Hub' }),
      activity('2026-11-20 16:30:00', 'IN TRANSIT', 'in_transit', 'reached_origin_hub', { location: 'Okhla Hub' }),
      activity('2026-11-20 15:30:00', 'PICKED UP', 'in_transit', 'picked_up', { location: 'Okhla' }),
      activity('2026-11-20 14:30:00', 'PICKUP EXCEPTION', 'pending', 'pickup_failed', {
        location: 'Okhla',
        description: 'Seller closed',
      }),
      activity('2026-11-20 13:30:00', 'OUT FOR PICKUP', 'pending', 'pickup_scheduled', { location: 'Okhla' }),
    ]);
  });

  it('labels each stage of a return to origin; a shipment returned is never delivered_to anyone', async () => {
    const { apiKey, booked, awb } = await shipment();
    await scan(awb, [
      { status: 'pending', event_time: '2026-11-20T08:00:00Z' },
      { status: 'in_transit', event_time: '2026-11-20T09:00:00Z', location: 'Okhla' },
      { status: 'out_for_delivery', event_time: '2026-11-21T03:00:00Z', location: 'Andheri DC' },
      { status: 'ndr_raised', sub_status: 'refused', event_time: '2026-11-21T05:00:00Z', location: 'Andheri DC' },
      {
        status: 'rto_initiated',
        sub_status: 'rto_initiated',
        rto_reason: 'customer_refused',
        event_time: '2026-11-21T06:00:00Z',
      },
      { status: 'rto_in_transit', event_time: '2026-11-21T09:00:00Z', location: 'Bhiwandi' },
      {
        status: 'rto_in_transit',
        sub_status: 'rto_reached_origin_hub',
        event_time: '2026-11-22T02:00:00Z',
        location: 'Okhla Hub',
      },
      {
        status: 'rto_in_transit',
        sub_status: 'rto_out_for_delivery',
        event_time: '2026-11-22T04:00:00Z',
        location: 'Okhla',
      },
      { status: 'rto_delivered', sub_status: 'rto_delivered', event_time: '2026-11-22T06:00:00Z', location: 'Okhla' },
    ]);
    const data = await track(ctx, apiKey, awb);
    expect(data.shipment_track).toEqual([
      trackOf(booked, { pickup_date: '2026-11-20 14:30:00', current_status: 'rto_delivered' }),
    ]);
    expect(data.shipment_track_activities).toEqual([
      activity('2026-11-22 11:30:00', 'RTO DELIVERED', 'rto_delivered', 'rto_delivered', { location: 'Okhla' }),
      activity('2026-11-22 09:30:00', 'RTO OUT FOR DELIVERY', 'rto_in_transit', 'rto_out_for_delivery', {
        location: 'Okhla',
      }),
      activity('2026-11-22 07:30:00', 'RTO IN TRANSIT', 'rto_in_transit', 'rto_reached_origin_hub', {
        location: 'Okhla Hub',
      }),
      activity('2026-11-21 14:30:00', 'RTO IN TRANSIT', 'rto_in_transit', null, { location: 'Bhiwandi' }),
      activity('2026-11-21 11:30:00', 'RTO INITIATED', 'rto_initiated', 'rto_initiated'),
      activity('2026-11-21 10:30:00', 'UNDELIVERED', 'ndr_raised', 'refused', { location: 'Andheri DC' }),
      activity('2026-11-21 08:30:00', 'OUT FOR DELIVERY', 'out_for_delivery', null, { location: 'Andheri DC' }),
      activity('2026-11-20 14:30:00', 'IN TRANSIT', 'in_transit', null, { location: 'Okhla' }),
      activity('2026-11-20 13:30:00', 'OUT FOR PICKUP', 'pending', null),
    ]);
  });

  it('labels exceptions, and a merchant’s cancellation before pickup as CANCELLED', async () => {
    const lost = await shipment();
    await scan(lost.awb, [
      { status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T09:00:00Z' },
      { status: 'others', sub_status: 'on_hold', event_time: '2026-11-20T12:00:00Z', description: 'Held at hub' },
      { status: 'in_transit', event_time: '2026-11-20T13:00:00Z' },
      { status: 'others', event_time: '2026-11-20T14:00:00Z' },
      { status: 'others', sub_status: 'damaged', event_time: '2026-11-20T15:00:00Z' },
      { status: 'others', sub_status: 'lost', event_time: '2026-11-20T16:00:00Z' },
    ]);
    const data = await track(ctx, lost.apiKey, lost.awb);
    expect(data.shipment_track).toEqual([
      trackOf(lost.booked, { pickup_date: '2026-11-20 14:30:00', current_status: 'lost' }),
    ]);
    expect(data.shipment_track_activities!.map((a) => [a.date, a.activity, a.sr_status_label])).toEqual([
      ['2026-11-20 21:30:00', 'LOST', 'lost'],
      ['2026-11-20 20:30:00', 'DAMAGED', 'damaged'],
      ['2026-11-20 19:30:00', 'EXCEPTION', null],
      ['2026-11-20 18:30:00', 'IN TRANSIT', null],
      ['2026-11-20 17:30:00', 'ON HOLD', 'on_hold'],
      ['2026-11-20 14:30:00', 'PICKED UP', 'picked_up'],
    ]);

    const cancelled = await shipment();
    expect((await post(ctx, cancelled.apiKey, CANCEL, { awbs: [cancelled.awb] })).json().results[0].cancelled).toBe(
      true,
    );
    expect(await track(ctx, cancelled.apiKey, cancelled.awb)).toEqual({
      track_status: 1,
      shipment_status: 'cancelled',
      dakiya_status: 'cancelled',
      shipment_sub_status: 'cancelled_by_merchant',
      shipment_track: [trackOf(cancelled.booked, { current_status: 'cancelled' })],
      // The cancellation is recorded at the server's time: 2026-11-22T12:00Z.
      shipment_track_activities: [
        activity('2026-11-22 17:30:00', 'CANCELLED', 'cancelled', 'cancelled_by_merchant', {
          description: 'Cancelled by the merchant',
        }),
      ],
      track_url: cancelled.booked.track_url,
      // A cancelled shipment's label is void.
      label_url: null,
      ndr_actions: [],
    });
  });

  it('names the consignee from the shipping block with its last name, the origin from the pickup warehouse, the applied weight in kg', async () => {
    const { apiKey, booked, awb } = await shipment(
      { customer: 'Asha', lastName: 'Rao', consignee: { name: 'Ravi', lastName: 'Menon' }, to: 'pune', weight: 1.25 },
      'mumbai',
    );
    expect(booked.applied_weight).toBe(1.25);
    const data = await track(ctx, apiKey, awb);
    expect(data.shipment_track).toEqual([
      trackOf(booked, { consignee_name: 'Ravi Menon', destination: 'Pune', origin: 'Mumbai', weight: 1.25 }),
    ]);

    const billed = await shipment({ customer: 'Asha', lastName: 'Rao' });
    expect((await track(ctx, billed.apiKey, billed.awb)).shipment_track).toEqual([
      trackOf(billed.booked, { consignee_name: 'Asha Rao' }),
    ]);
  });

  it('refuses 0 or 51 AWBs, or awbs not a list, with 400; ignores a field it does not know and names it', async () => {
    const { apiKey, booked, awb } = await shipment();
    for (const awbs of [[], Array.from({ length: 51 }, (_, i) => `SFX${i}`), 'SFX1']) {
      const response = await post(ctx, apiKey, ORDER_TRACKING, { awbs });
      expect(response.statusCode).toBe(400);
      const message = 'awbs must list 1 to 50 AWBs';
      expect(response.json()).toEqual({
        code: 'invalid_request',
        message,
        errors: [message],
        details: [{ field: 'awbs', message }],
      });
    }
    const extra = await post(ctx, apiKey, ORDER_TRACKING, { awbs: [awb], awb: 'SFX0000000001' });
    expect(extra.statusCode).toBe(200);
    expect(extra.headers[IGNORED]).toBe('awb');
    expect(extra.json().result).toEqual({
      [awb]: {
        tracking_data: {
          track_status: 1,
          shipment_status: 'ready_for_pickup',
          dakiya_status: 'pending',
          shipment_sub_status: null,
          shipment_track: [trackOf(booked)],
          shipment_track_activities: [],
          track_url: booked.track_url,
          label_url: await labelUrlNow(ctx, booked.shipment_id),
          ndr_actions: [],
        },
      },
    });
  });
});
