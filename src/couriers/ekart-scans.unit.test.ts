import { describe, expect, it } from 'vitest';
import { SHIPMENT_STATUSES, SUB_STATUSES } from '../domain/shipment/status-machine.js';
import { BY_NDR_STATUS, BY_STATUS, mapScan, mapTrackDetails, scanTime } from './ekart-scans.js';

const T = Date.parse('2026-11-20T06:30:00Z');

describe('Ekart status table', () => {
  it.each([
    ['Order Placed', undefined, 'pending', 'pickup_scheduled'],
    ['Not Picked', undefined, 'pending', 'pickup_failed'],
    ['Picked Up', undefined, 'in_transit', 'picked_up'],
    ['In Transit', undefined, 'in_transit', 'in_transit'],
    ['Out for Delivery', undefined, 'out_for_delivery', 'out_for_delivery'],
    ['Delivered', undefined, 'delivered', 'delivered'],
    ['Undelivered', 'Customer Unavailable', 'ndr_raised', 'customer_unavailable'],
    ['Undelivered', 'Rejected by Customer', 'ndr_raised', 'refused'],
    ['Undelivered', 'Customer Unreachable', 'ndr_raised', 'contact_unreachable'],
    ['Undelivered', 'Address Issue', 'ndr_raised', 'address_incomplete'],
    ['Undelivered', 'Payment Issue', 'ndr_raised', 'cod_not_ready'],
    ['Undelivered', 'Delivery Rescheduled', 'ndr_raised', 'future_delivery_requested'],
    ['Undelivered', 'Self Collect', 'ndr_raised', 'customer_unavailable'],
    ['Undelivered', 'Maximum Attempt Reached', 'rto_initiated', 'rto_initiated'],
    ['RTO Requested', undefined, 'rto_initiated', 'rto_initiated'],
    ['RTO Out for Delivery', undefined, 'rto_in_transit', 'rto_out_for_delivery'],
    ['RTO Delivered', undefined, 'rto_delivered', 'rto_delivered'],
    ['Seller Cancelled', undefined, 'cancelled', 'cancelled_by_merchant'],
    ['Lost', undefined, 'others', 'lost'],
  ])('%s (%s) is %s / %s', (status, ndrStatus, expected, sub) => {
    expect(mapScan({ status, ndrStatus })).toMatchObject({ status: expected, sub_status: sub });
  });

  it('maps every row to a status and a sub_status the status machine allows', () => {
    for (const mapped of [...Object.values(BY_STATUS), ...Object.values(BY_NDR_STATUS)]) {
      expect(SHIPMENT_STATUSES).toContain(mapped.status);
      expect(SUB_STATUSES[mapped.status as keyof typeof SUB_STATUSES]).toContain(mapped.sub_status);
    }
  });

  it('keeps statuses it does not know and unreadable times unread, with why', () => {
    expect(mapScan({ status: 'Not Serviceable' })).toBeUndefined();
    expect(scanTime('yesterday')).toBeUndefined();
    expect(scanTime(T)).toBe('2026-11-20T06:30:00.000Z');
    expect(
      mapTrackDetails('A1', [
        { status: 'Delivered', ctime: 'soon' },
        { status: 'Shrugged', ctime: T },
      ]),
    ).toEqual({
      events: [],
      unread: [
        {
          raw: { status: 'Delivered', ctime: 'soon' },
          reason: "ctime 'soon' is not a time in milliseconds since the epoch",
        },
        { raw: { status: 'Shrugged', ctime: T }, reason: "no status for Ekart's 'Shrugged'" },
      ],
    });
  });

  it('orders scans by time, with a stable event id, and starts an RTO Ekart reports only by its movement', () => {
    const events = mapTrackDetails('A1', [
      { status: 'RTO In Transit', ctime: T + 2000, desc: 'Returning', location: 'Mumbai' },
      { status: 'Picked Up', ctime: T, desc: 'Picked up' },
    ]).events.map(({ raw: _raw, ...event }) => event);
    expect(events).toEqual([
      {
        awb: 'A1',
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-20T06:30:00.000Z',
        description: 'Picked up',
        event_id: `ekart:Picked Up::${T}`,
      },
      {
        awb: 'A1',
        status: 'rto_initiated',
        sub_status: 'rto_initiated',
        event_time: '2026-11-20T06:30:01.999Z',
        location: 'Mumbai',
        description: 'Return to origin started',
        event_id: `ekart:rto-start:ekart:RTO In Transit::${T + 2000}`,
      },
      {
        awb: 'A1',
        status: 'rto_in_transit',
        sub_status: 'rto_in_transit',
        event_time: '2026-11-20T06:30:02.000Z',
        location: 'Mumbai',
        description: 'Returning',
        event_id: `ekart:RTO In Transit::${T + 2000}`,
      },
    ]);
  });
});
