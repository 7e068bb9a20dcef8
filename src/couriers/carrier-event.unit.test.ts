import { describe, expect, it } from 'vitest';
import { asReturnScan, type CarrierEvent, readParcelScans } from './carrier-event.js';

const scan = (status: string, sub_status?: string, extra: Partial<CarrierEvent> = {}): CarrierEvent => ({
  awb: 'R1',
  status,
  ...(sub_status && { sub_status }),
  event_time: '2026-11-21T10:00:00+05:30',
  event_id: 'x:1',
  ...extra,
});

describe('asReturnScan: a reverse pickup read through a forward table', () => {
  it.each([
    [scan('pending', 'pickup_scheduled'), 'return_pickup_scheduled', undefined],
    [scan('pending', 'pickup_failed'), 'return_pickup_scheduled', 'return_pickup_failed'],
    [scan('in_transit', 'picked_up'), 'return_picked_up', 'return_picked_up'],
    [scan('in_transit', 'in_transit'), 'return_in_transit', 'return_in_transit'],
    [scan('in_transit', 'reached_destination_hub'), 'return_in_transit', 'return_reached_hub'],
    [scan('out_for_delivery', 'out_for_delivery'), 'return_in_transit', 'return_out_for_delivery'],
    [scan('delivered', 'delivered'), 'return_delivered', 'return_delivered'],
    [
      scan('ndr_raised', 'customer_unavailable', { ndr_reason: 'customer_unavailable' }),
      'return_pickup_scheduled',
      'return_pickup_failed',
    ],
    [scan('cancelled', 'cancelled_by_courier'), 'return_cancelled', 'return_cancelled_by_courier'],
    [scan('others', 'lost'), 'return_lost', 'return_lost'],
    [scan('others', 'damaged'), 'return_lost', 'return_damaged'],
  ])('reads %o as %s (%s), keeping its time, id and place', (forward, status, subStatus) => {
    const read = asReturnScan({ ...forward, location: 'Andheri' });
    expect(read).toEqual({
      awb: 'R1',
      status,
      ...(subStatus && { sub_status: subStatus }),
      event_time: forward.event_time,
      event_id: 'x:1',
      location: 'Andheri',
    });
  });

  it.each([
    [
      scan('rto_initiated', 'rto_initiated'),
      'rto_initiated is a forward parcel’s return to origin: it has no meaning on a return',
    ],
    [
      scan('rto_delivered', 'rto_delivered'),
      'rto_delivered is a forward parcel’s return to origin: it has no meaning on a return',
    ],
    [scan('others', 'on_hold'), 'others (on_hold) has no return status'],
  ])('leaves %o unread: %s', (forward, unread) => {
    expect(asReturnScan(forward)).toEqual({ unread: unread.replace('’', "'") });
  });

  it('reads a return’s scans through the table, keeping what it cannot read with its record and why', () => {
    const items = [
      { code: 'PICKED', t: '2026-11-21T10:00:00Z' },
      { code: 'RTO', t: '2026-11-21T11:00:00Z' },
      { code: '??', t: 'x' },
    ];
    const read = readParcelScans(
      'R1',
      'return',
      items,
      (item) =>
        item.code === '??'
          ? { unread: 'no status for ??' }
          : item.code === 'PICKED'
            ? { status: 'in_transit', sub_status: 'picked_up', event_time: item.t }
            : { status: 'rto_initiated', event_time: item.t },
      'test',
    );
    expect(read).toEqual({
      events: [
        {
          awb: 'R1',
          status: 'return_picked_up',
          sub_status: 'return_picked_up',
          event_time: items[0]!.t,
          raw: items[0],
        },
      ],
      unread: [
        {
          raw: items[1],
          reason: "rto_initiated is a forward parcel's return to origin: it has no meaning on a return",
        },
        { raw: items[2], reason: 'no status for ??' },
      ],
    });
  });
});
