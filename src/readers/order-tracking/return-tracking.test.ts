import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, META_STATUSES, ORDER_TRACKING, post } from '../../../test/kit/http.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

let ctx: TestContext;
let shadowfax: string;
useTestApp(async (app) => {
  ctx = app;
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
});

describe('order-tracking with return AWBs', () => {
  it("answers Velocity's tracking_data for a return: RETURN labels, newest first, the QC result, customer to warehouse", async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const ret = await bookReturn(ctx, m.apiKey, m.warehouseId, { qc: true, carrierId: SHADOWFAX });
    const awb = ret.awb_code!;
    await sendEvents(ctx, shadowfax, [
      { awb, status: 'return_delivered', event_time: at(-10), location: 'Okhla Hub' },
      {
        awb,
        status: 'return_picked_up',
        sub_status: 'return_picked_up',
        event_time: at(-120),
        location: 'Colaba',
        description: 'QC passed',
        qc_status: 'passed',
      } as never,
      {
        awb,
        status: 'return_in_transit',
        sub_status: 'return_out_for_delivery',
        event_time: at(-60),
        location: 'Okhla Hub',
      },
      // After delivery: kept in the history, without effect.
      { awb, status: 'return_lost', event_time: at(-5) },
    ]);
    const response = await post(ctx, m.apiKey, ORDER_TRACKING, { awbs: [awb] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      result: {
        [awb]: {
          tracking_data: {
            track_status: 1,
            shipment_status: 'return_delivered',
            dakiya_status: 'return_delivered',
            shipment_sub_status: null,
            is_return: 1,
            qc_status: 'passed',
            qc_reason: null,
            shipment_track: [
              {
                id: ret.shipment_id,
                awb_code: awb,
                courier_company_id: SHADOWFAX,
                courier_name: 'Shadowfax Standard',
                shipment_id: ret.shipment_id,
                order_id: ret.return_id,
                channel_order_id: ret.order_id,
                pickup_date: '2026-11-20 10:00:00',
                delivered_date: '2026-11-20 11:50:00',
                weight: 0.5,
                packages: 1,
                current_status: 'return_delivered',
                delivered_to: 'New Delhi',
                destination: 'New Delhi',
                consignee_name: 'Warehouse delhi',
                origin: 'Mumbai',
                courier_agent_details: null,
              },
            ],
            shipment_track_activities: [
              {
                date: '2026-11-20 11:55:00',
                activity: 'RETURN LOST',
                status: 'return_lost',
                description: null,
                location: null,
                sr_status_label: null,
              },
              {
                date: '2026-11-20 11:50:00',
                activity: 'RETURN DELIVERED',
                status: 'return_delivered',
                description: null,
                location: 'Okhla Hub',
                sr_status_label: null,
              },
              {
                date: '2026-11-20 11:00:00',
                activity: 'RETURN OUT FOR DELIVERY',
                status: 'return_in_transit',
                description: null,
                location: 'Okhla Hub',
                sr_status_label: 'return_out_for_delivery',
              },
              {
                date: '2026-11-20 10:00:00',
                activity: 'RETURN PICKED UP',
                status: 'return_picked_up',
                description: 'QC passed',
                location: 'Colaba',
                sr_status_label: 'return_picked_up',
              },
            ],
            track_url: null,
          },
        },
      },
    });
  });

  it('a booked return before any scan; a failed QC reads QC FAILED with its reason', async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const fresh = await bookReturn(ctx, m.apiKey, m.warehouseId, { qc: true, carrierId: SHADOWFAX });
    const failed = await bookReturn(ctx, m.apiKey, m.warehouseId, { qc: true, carrierId: SHADOWFAX });
    await sendEvents(ctx, shadowfax, [
      {
        awb: failed.awb_code!,
        status: 'return_cancelled',
        sub_status: 'qc_failed',
        event_time: at(-30),
        qc_status: 'failed',
        qc_reason: 'Item used',
      } as never,
    ]);
    const { result } = (await post(ctx, m.apiKey, ORDER_TRACKING, { awbs: [fresh.awb_code, failed.awb_code] })).json();
    expect(result[fresh.awb_code!].tracking_data).toMatchObject({
      shipment_status: 'return_pickup_scheduled',
      qc_status: null,
      shipment_track: [
        { current_status: 'return_pickup_scheduled', pickup_date: null, delivered_date: null, delivered_to: null },
      ],
      shipment_track_activities: [],
    });
    expect(result[failed.awb_code!].tracking_data).toMatchObject({
      // Velocity's word for a cancellation on a failed QC; Dakiya's status beside it.
      shipment_status: 'return_qc_failed',
      dakiya_status: 'return_cancelled',
      shipment_sub_status: 'qc_failed',
      qc_status: 'failed',
      qc_reason: 'Item used',
      shipment_track_activities: [{ activity: 'QC FAILED', status: 'return_cancelled', sr_status_label: 'qc_failed' }],
    });
  });

  it("another account's return AWB is not found, never its data", async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const other = await merchantWithCityWarehouse(ctx);
    const theirs = await bookReturn(ctx, other.apiKey, other.warehouseId, { qc: true, carrierId: SHADOWFAX });
    const response = await post(ctx, m.apiKey, ORDER_TRACKING, { awbs: [theirs.awb_code] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      result: { [theirs.awb_code!]: { tracking_data: { track_status: 0, error: `AWB ${theirs.awb_code} not found` } } },
    });
  });
});

describe('the return statuses in the status catalogue (GET /custom/api/v1/meta/statuses)', () => {
  it('publishes them under return_statuses: statuses with their sub_statuses, transitions and QC outcomes', async () => {
    const { apiKey } = await ctx.createAccount();
    const response = await ctx.app.inject({ method: 'GET', url: META_STATUSES, headers: authed(apiKey) });
    expect(response.statusCode).toBe(200);
    expect(response.json().return_statuses).toEqual({
      statuses: [
        { status: 'return_requested', sub_statuses: [] },
        { status: 'return_pickup_scheduled', sub_statuses: ['return_pickup_rescheduled', 'return_pickup_failed'] },
        { status: 'return_picked_up', sub_statuses: ['return_picked_up'] },
        {
          status: 'return_in_transit',
          sub_statuses: ['return_in_transit', 'return_reached_hub', 'return_out_for_delivery'],
        },
        { status: 'return_delivered', sub_statuses: ['return_delivered'] },
        {
          status: 'return_cancelled',
          sub_statuses: [
            'return_cancelled_by_merchant',
            'return_cancelled_by_courier',
            'qc_failed',
            'customer_refused',
          ],
        },
        { status: 'return_lost', sub_statuses: ['return_lost', 'return_damaged'] },
      ],
      transitions: {
        return_requested: ['return_pickup_scheduled', 'return_cancelled'],
        return_pickup_scheduled: ['return_picked_up', 'return_in_transit', 'return_cancelled'],
        return_picked_up: ['return_in_transit', 'return_delivered', 'return_lost'],
        return_in_transit: ['return_delivered', 'return_lost'],
        return_delivered: [],
        return_cancelled: [],
        return_lost: [],
      },
      qc_statuses: ['passed', 'failed'],
    });
  });
});
