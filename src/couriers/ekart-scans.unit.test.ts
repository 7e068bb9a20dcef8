import { describe, expect, it } from 'vitest';
import { RETURN_SUB_STATUSES } from '../domain/shipment/return-status-machine.js';
import { SHIPMENT_STATUSES, SUB_STATUSES } from '../domain/shipment/status-machine.js';
import {
  BY_NDR_STATUS,
  BY_STATUS,
  mapScan,
  mapTrackDetails,
  RETURN_BY_NDR_STATUS,
  RETURN_BY_STATUS,
  readReturnScan,
  scanTime,
} from './ekart-scans.js';
import { EKART_NDR_STATUSES, EKART_SWIFT_STATUSES, EKART_TRACK_UPDATED_SAMPLE } from './fixtures/ekart.fixtures.js';

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

describe('Ekart statuses as its OpenAPI description lists them', () => {
  it('reads every swift_status on a forward parcel, but "Not Serviceable", a booking answer', () => {
    const unread = EKART_SWIFT_STATUSES.filter((status) => !mapScan({ status }));
    expect(unread).toEqual(['Not Serviceable']);
  });

  it('reads every swift_ndr_status of an undelivered forward parcel as an NDR, or the RTO its last attempt starts', () => {
    for (const ndrStatus of EKART_NDR_STATUSES) {
      const mapped = mapScan({ status: 'Undelivered', ndrStatus })!;
      expect(['ndr_raised', 'rto_initiated']).toContain(mapped.status);
    }
  });

  it('applies the track_updated post Ekart’s description shows', () => {
    const { events, unread } = mapTrackDetails('501346BN6838925', [{ ...EKART_TRACK_UPDATED_SAMPLE }]);
    expect(unread).toEqual([]);
    expect(events.map(({ raw: _raw, ...event }) => event)).toEqual([
      {
        awb: '501346BN6838925',
        status: 'delivered',
        sub_status: 'delivered',
        event_time: '2022-07-11T07:06:27.604Z',
        description: 'Delivered Successfully',
        event_id: 'ekart:Delivered::1657523187604',
      },
    ]);
  });
});

describe('Ekart statuses on a return (a reverse pickup: drop_location the customer)', () => {
  it.each([
    ['Order Placed', undefined, 'return_pickup_scheduled', undefined],
    ['Pickup Scheduled', undefined, 'return_pickup_scheduled', undefined],
    ['Out for Pickup', undefined, 'return_pickup_scheduled', undefined],
    ['Pickup Pending', undefined, 'return_pickup_scheduled', undefined],
    ['Not Picked', undefined, 'return_pickup_scheduled', 'return_pickup_failed'],
    ['Undelivered', 'Pickup Rescheduled', 'return_pickup_scheduled', 'return_pickup_rescheduled'],
    ['Undelivered', 'Customer Unavailable', 'return_pickup_scheduled', 'return_pickup_failed'],
    ['Undelivered', 'Rejected by Customer', 'return_pickup_scheduled', 'return_pickup_failed'],
    ['Undelivered', 'Maximum Attempt Reached', 'return_pickup_scheduled', 'return_pickup_failed'],
    ['Picked Up', undefined, 'return_picked_up', 'return_picked_up'],
    ['In Transit', undefined, 'return_in_transit', 'return_in_transit'],
    ['Out for Delivery', undefined, 'return_in_transit', 'return_out_for_delivery'],
    ['Delivered', undefined, 'return_delivered', 'return_delivered'],
    ['Pickup Cancelled', undefined, 'return_cancelled', 'return_cancelled_by_courier'],
    ['Seller Cancelled', undefined, 'return_cancelled', 'return_cancelled_by_merchant'],
    ['Lost', undefined, 'return_lost', 'return_lost'],
    ['Damaged', undefined, 'return_lost', 'return_damaged'],
  ])('%s (%s) is %s / %s', (status, ndrStatus, expected, sub) => {
    const read = readReturnScan({ status, ndrStatus, ctime: T });
    expect(read).toMatchObject({ status: expected });
    expect('sub_status' in read ? read.sub_status : undefined).toBe(sub);
  });

  it('keeps the RTO statuses and "Not Serviceable" unread on a return, with why', () => {
    const rto = EKART_SWIFT_STATUSES.filter((status) => status.includes('RTO'));
    expect(rto).toEqual([
      'RTO Requested',
      'Seller RTO Requested',
      'RTO In Transit',
      'RTO Delivered',
      'RTO Out for Delivery',
      'RTO Failed',
      'RTO Shipment Delayed',
    ]);
    for (const status of rto)
      expect(readReturnScan({ status, ctime: T })).toEqual({
        unread: `Ekart's '${status}' is a forward parcel's return to origin: it has no meaning on a return`,
      });
    expect(readReturnScan({ status: 'Not Serviceable', ctime: T })).toEqual({
      unread: "no return status for Ekart's 'Not Serviceable'",
    });
    const others = EKART_SWIFT_STATUSES.filter((s) => !rto.includes(s) && s !== 'Not Serviceable');
    for (const status of others) expect(readReturnScan({ status, ctime: T })).not.toHaveProperty('unread');
  });

  it('maps every return row to a status and a sub_status the return machine allows', () => {
    for (const mapped of [...Object.values(RETURN_BY_STATUS), ...Object.values(RETURN_BY_NDR_STATUS)]) {
      expect(Object.keys(RETURN_SUB_STATUSES)).toContain(mapped.status);
      if (mapped.sub_status)
        expect(RETURN_SUB_STATUSES[mapped.status as keyof typeof RETURN_SUB_STATUSES]).toContain(mapped.sub_status);
    }
  });

  it('orders a return’s scans by time and adds no RTO start', () => {
    const { events, unread } = mapTrackDetails(
      'R1',
      [
        { status: 'Delivered', ctime: T + 3000, desc: 'Delivered to seller' },
        { status: 'Out for Pickup', ctime: T, desc: 'Agent on the way' },
        { status: 'RTO Requested', ctime: T + 500, desc: '' },
        { status: 'Picked Up', ctime: T + 1000, desc: 'Picked up from customer', location: 'Mumbai' },
      ],
      'return',
    );
    expect(events.map((e) => [e.status, e.event_time, e.event_id])).toEqual([
      ['return_pickup_scheduled', '2026-11-20T06:30:00.000Z', `ekart:Out for Pickup::${T}`],
      ['return_picked_up', '2026-11-20T06:30:01.000Z', `ekart:Picked Up::${T + 1000}`],
      ['return_delivered', '2026-11-20T06:30:03.000Z', `ekart:Delivered::${T + 3000}`],
    ]);
    expect(events[1]).toMatchObject({ awb: 'R1', location: 'Mumbai', raw: { status: 'Picked Up' } });
    expect(unread).toEqual([
      {
        raw: { status: 'RTO Requested', ctime: T + 500, desc: '' },
        reason: "Ekart's 'RTO Requested' is a forward parcel's return to origin: it has no meaning on a return",
      },
    ]);
  });
});
