import { describe, expect, it } from 'vitest';
import { SHIPMENT_STATUSES, SUB_STATUSES } from '../domain/shipment/status-machine.js';
import { BY_STATUS_ID, mapScan, mapTrackingDetails, scanTime } from './shadowfax-scans.js';

describe('Shadowfax status table', () => {
  it.each([
    ['new', 'pending', 'pickup_scheduled', undefined],
    ['assigned_for_seller_pickup', 'pending', 'pickup_scheduled', undefined],
    ['ofp', 'pending', 'pickup_scheduled', undefined],
    ['pickup_on_hold', 'pending', 'pickup_failed', undefined],
    ['seller_initiated_delay', 'pending', 'pickup_failed', undefined],
    ['picked', 'in_transit', 'picked_up', undefined],
    ['recd_at_rev_hub', 'in_transit', 'reached_origin_hub', undefined],
    ['sent_to_fwd', 'in_transit', 'departed_origin_hub', undefined],
    ['in_transit', 'in_transit', 'in_transit', undefined],
    ['recd_at_fwd_hub', 'in_transit', 'reached_destination_hub', undefined],
    ['recd_at_fwd_dc', 'in_transit', 'reached_destination_hub', undefined],
    ['assigned_for_delivery', 'in_transit', 'reached_destination_hub', undefined],
    ['ofd', 'out_for_delivery', 'out_for_delivery', undefined],
    ['delivered', 'delivered', 'delivered', undefined],
    ['nc', 'ndr_raised', 'contact_unreachable', 'contact_unreachable'],
    ['na', 'ndr_raised', 'customer_unavailable', 'customer_unavailable'],
    ['reopen_ndr', 'ndr_raised', 'customer_unavailable', 'customer_unavailable'],
    ['cid', 'ndr_raised', 'future_delivery_requested', 'future_delivery_requested'],
    ['cancelled_by_customer', 'ndr_raised', 'refused', 'refused'],
    ['rts', 'rto_initiated', 'rto_initiated', undefined],
    ['rts_in_transit', 'rto_in_transit', 'rto_in_transit', undefined],
    ['rts_ofd', 'rto_in_transit', 'rto_out_for_delivery', undefined],
    ['rts_d', 'rto_delivered', 'rto_delivered', undefined],
    ['cancelled_by_client', 'cancelled', 'cancelled_by_merchant', undefined],
    ['cancelled', 'cancelled', 'cancelled_by_courier', undefined],
    ['on_hold', 'others', 'on_hold', undefined],
    ['lost', 'others', 'lost', undefined],
    ['damaged', 'others', 'damaged', undefined],
  ])('%s is %s / %s', (statusId, status, sub, reason) => {
    expect(mapScan({ status_id: statusId })).toEqual({
      status,
      sub_status: sub,
      ...(reason && { ndr_reason: reason }),
    });
    expect(mapScan({ status_id: statusId.toUpperCase() })).toEqual(mapScan({ status_id: statusId }));
  });

  it('has a test row for every row of the table', () => {
    expect(Object.keys(BY_STATUS_ID)).toHaveLength(28);
  });

  it('maps every row to a status and a sub_status the status machine allows', () => {
    for (const mapped of Object.values(BY_STATUS_ID)) {
      expect(SHIPMENT_STATUSES).toContain(mapped.status);
      expect(SUB_STATUSES[mapped.status as keyof typeof SUB_STATUSES]).toContain(mapped.sub_status);
    }
  });

  it('reads ISO times, India time when they carry no zone, and leaves out unknown ids and unreadable times', () => {
    expect(scanTime('2026-11-20T12:00:00+05:30')).toBe('2026-11-20T06:30:00.000Z');
    expect(scanTime('2026-11-20T06:30:00Z')).toBe('2026-11-20T06:30:00.000Z');
    expect(scanTime('2026-11-20 12:00:00')).toBe('2026-11-20T06:30:00.000Z');
    expect(scanTime('yesterday')).toBeUndefined();
    expect(scanTime(1763620200000)).toBeUndefined();
    expect(mapScan({ status_id: 'shrugged' })).toBeUndefined();
    expect(mapScan({ status: 'Delivered' })).toBeUndefined();
    expect(
      mapTrackingDetails('SF1', [
        { status_id: 'delivered', created: 'soon' },
        { status_id: 'shrugged', created: '2026-11-20T06:30:00Z' },
      ]),
    ).toEqual({
      events: [],
      unread: [
        { raw: { status_id: 'delivered', created: 'soon' }, reason: "created 'soon' is not a time" },
        {
          raw: { status_id: 'shrugged', created: '2026-11-20T06:30:00Z' },
          reason: "no status for status_id 'shrugged'",
        },
      ],
    });
  });

  it('orders scans by time, with a stable event id, and starts an RTS Shadowfax reports only by its movement', () => {
    const events = mapTrackingDetails('SF1', [
      {
        status_id: 'rts_in_transit',
        status: 'RTS In Transit',
        remarks: 'Returning to seller',
        location: 'Mumbai',
        created: '2026-11-20T12:00:02+05:30',
      },
      { status_id: 'picked', status: 'Picked', created: '2026-11-20T12:00:00+05:30' },
    ]).events.map(({ raw: _raw, ...event }) => event);
    expect(events).toEqual([
      {
        awb: 'SF1',
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-20T06:30:00.000Z',
        description: 'Picked',
        event_id: 'shadowfax:picked:2026-11-20T06:30:00.000Z',
      },
      {
        awb: 'SF1',
        status: 'rto_initiated',
        sub_status: 'rto_initiated',
        event_time: '2026-11-20T06:30:01.999Z',
        location: 'Mumbai',
        description: 'Return to origin started',
        event_id: 'shadowfax:rto-start:shadowfax:rts_in_transit:2026-11-20T06:30:02.000Z',
      },
      {
        awb: 'SF1',
        status: 'rto_in_transit',
        sub_status: 'rto_in_transit',
        event_time: '2026-11-20T06:30:02.000Z',
        location: 'Mumbai',
        description: 'Returning to seller',
        event_id: 'shadowfax:rts_in_transit:2026-11-20T06:30:02.000Z',
      },
    ]);
  });
});
