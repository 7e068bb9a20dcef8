import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, CANCEL, META_STATUSES, post } from '../../../test/kit/http.js';
import { merchantWithShipments } from '../../../test/kit/orders.js';
import { list, listed } from '../../../test/kit/shipments.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';

let ctx: TestContext;
let shadowfaxToken: string;
beforeAll(async () => {
  ctx = await createTestApp();
  shadowfaxToken = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
});

describe('the status catalogue (GET /custom/api/v1/meta/statuses)', () => {
  it('publishes the statuses, their sub_statuses, the NDR and RTO reasons and the transitions', async () => {
    const { apiKey } = await ctx.createAccount();
    const response = await ctx.app.inject({ method: 'GET', url: META_STATUSES, headers: authed(apiKey) });
    expect(response.statusCode).toBe(200);
    // The return statuses (return-tracking.test.ts) and the granular ones (shipments-granular.test.ts) have keys of their own; the forward keys are as they were.
    const { return_statuses, granular_statuses, ...forward } = response.json();
    expect(Object.keys(response.json())).toEqual([
      'statuses',
      'ndr_reasons',
      'rto_reasons',
      'transitions',
      'return_statuses',
      'granular_statuses',
    ]);
    expect(forward).toEqual({
      statuses: [
        { status: 'pending', sub_statuses: ['pickup_scheduled', 'pickup_failed'] },
        {
          status: 'in_transit',
          sub_statuses: [
            'picked_up',
            'in_transit',
            'reached_origin_hub',
            'departed_origin_hub',
            'reached_destination_hub',
            'misrouted',
          ],
        },
        { status: 'out_for_delivery', sub_statuses: ['out_for_delivery'] },
        { status: 'delivered', sub_statuses: ['delivered'] },
        {
          status: 'ndr_raised',
          sub_statuses: [
            'customer_unavailable',
            'address_incomplete',
            'refused',
            'cod_not_ready',
            'premises_closed',
            'future_delivery_requested',
            'contact_unreachable',
            'other',
          ],
        },
        { status: 'rto_initiated', sub_statuses: ['rto_initiated'] },
        {
          status: 'rto_in_transit',
          sub_statuses: ['rto_in_transit', 'rto_reached_origin_hub', 'rto_out_for_delivery'],
        },
        { status: 'rto_delivered', sub_statuses: ['rto_delivered'] },
        { status: 'cancelled', sub_statuses: ['cancelled_by_merchant', 'cancelled_by_courier'] },
        // box_exception: a multi-piece shipment's boxes gone separate ways (no scan carries it).
        { status: 'others', sub_statuses: ['lost', 'damaged', 'destroyed', 'on_hold', 'box_exception'] },
      ],
      ndr_reasons: [
        'customer_unavailable',
        'address_incomplete',
        'refused',
        'cod_not_ready',
        'premises_closed',
        'future_delivery_requested',
        'contact_unreachable',
        'other',
      ],
      rto_reasons: [
        'customer_refused',
        'customer_unreachable',
        'address_not_found',
        'max_attempts_exceeded',
        'cod_not_ready',
        'merchant_requested',
        'damaged_in_transit',
      ],
      transitions: {
        pending: ['in_transit', 'cancelled', 'others'],
        in_transit: ['out_for_delivery', 'ndr_raised', 'rto_initiated', 'delivered', 'others'],
        out_for_delivery: ['delivered', 'ndr_raised', 'in_transit', 'others'],
        delivered: [],
        ndr_raised: ['out_for_delivery', 'in_transit', 'rto_initiated', 'delivered', 'others'],
        rto_initiated: ['rto_in_transit', 'rto_delivered', 'others'],
        rto_in_transit: ['rto_delivered', 'others'],
        rto_delivered: [],
        cancelled: [],
        others: [
          'in_transit',
          'out_for_delivery',
          'ndr_raised',
          'rto_initiated',
          'rto_in_transit',
          'delivered',
          'rto_delivered',
        ],
      },
    });
  });

  it('needs an account credential', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: META_STATUSES });
    expect(response.statusCode).toBe(401);
  });
});

describe('merchant cancellation is a tracking event', () => {
  it('cancels a shipment not yet picked up: recorded in tracking_details, with a cancelled milestone', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    ctx.clock.set('2026-11-20T07:00:00.000Z');
    const response = await post(ctx, apiKey, CANCEL, { awbs });
    expect(response.json()).toEqual({
      message: '1 of 1 shipment cancelled',
      results: [{ awb: awbs[0], cancelled: true, message: 'Shipment cancelled' }],
    });
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s).toMatchObject({ status: 'cancelled', sub_status: 'cancelled_by_merchant' });
    expect(s.tracking_details.map(({ id: _, ...d }) => d)).toEqual([
      {
        status: 'cancelled',
        last_location: null,
        event_date_time: '2026-11-20T07:00:00.000Z',
        description: 'Cancelled by the merchant',
      },
    ]);
    expect(s.shipment_milestones).toContainEqual({ milestone: 'cancelled', milestone_at: '2026-11-20T07:00:00.000Z' });
    // A courier's pickup scan after the cancellation is kept but does not revive the shipment.
    ctx.clock.set('2026-11-20T09:00:00.000Z');
    expect(
      await sendEvents(ctx, shadowfaxToken, [
        { awb: awbs[0]!, status: 'in_transit', event_time: '2026-11-20T08:00:00Z' },
      ]),
    ).toEqual([
      {
        awb: awbs[0],
        accepted: true,
        changed: false,
        reason:
          'the status machine does not apply in_transit at its event_time (the shipment is cancelled (cancelled_by_merchant)): recorded in its history, status unchanged',
      },
    ]);
    expect((await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes.status).toBe('cancelled');
  });

  it('refuses to cancel after the pickup scan', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    ctx.clock.set('2026-11-20T08:00:00.000Z');
    await sendEvents(ctx, shadowfaxToken, [
      { awb: awbs[0]!, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T07:30:00Z' },
    ]);
    const response = await post(ctx, apiKey, CANCEL, { awbs });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [{ awb: awbs[0], cancelled: false, message: 'Shipment is in_transit and can no longer be cancelled' }],
    });
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s.status).toBe('in_transit');
    expect(s.tracking_details.map((d) => d.status)).toEqual(['in_transit']);
  });

  it('a pickup scan dated before an accepted cancellation, arriving after it, wins: the parcel had already left', async () => {
    const { apiKey, awbs, booked } = await merchantWithShipments(ctx);
    ctx.clock.set('2026-11-20T08:00:00.000Z');
    expect((await post(ctx, apiKey, CANCEL, { awbs })).json().results[0].cancelled).toBe(true);
    await sendEvents(ctx, shadowfaxToken, [
      { awb: awbs[0]!, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T07:45:00Z' },
    ]);
    const s = (await listed(ctx, apiKey, booked[0]!.shipment_id)).attributes;
    expect(s).toMatchObject({ status: 'in_transit', sub_status: 'picked_up' });
    expect(s.tracking_details.map((d) => d.status)).toEqual(['in_transit', 'cancelled']);
    expect(
      (await list(ctx, apiKey, { date_field: 'cancelled_at', start_time: 0, end_time: 99_999_999_999 })).meta.total,
    ).toBe(0);
  });
});
