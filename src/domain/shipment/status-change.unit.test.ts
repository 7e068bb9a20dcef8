import { describe, expect, it } from 'vitest';
import { type HistoryEvent, statusChangeEvents } from './status-change.js';

const t = (minute: number) => new Date(Date.UTC(2026, 10, 20, 6, minute));
const event = (
  id: string,
  status: string,
  minute: number,
  location: string | null = null,
  receivedMinute = minute,
): HistoryEvent => ({
  id,
  status,
  subStatus: null,
  eventTime: t(minute),
  receivedAt: t(receivedMinute),
  location,
});

describe('statusChangeEvents', () => {
  const history = [
    event('a', 'in_transit', 10, 'Okhla'),
    event('b', 'in_transit', 20, 'Bhiwandi'),
    event('c', 'delivered', 40, 'Colaba'),
    event('d', 'in_transit', 30, 'Ignored'),
  ];
  const cases: {
    name: string;
    kind: 'shipment' | 'return';
    before: [string, string | null];
    after: [string, string | null];
    applied: string[];
    types: string[];
    location?: string | null;
    time?: string | null;
  }[] = [
    {
      name: 'no move, no event',
      kind: 'shipment',
      before: ['in_transit', null],
      after: ['in_transit', null],
      applied: ['a'],
      types: [],
    },
    {
      name: 'a sub-status move alone is a change',
      kind: 'shipment',
      before: ['in_transit', 'picked_up'],
      after: ['in_transit', 'reached_destination_hub'],
      applied: ['a', 'b'],
      types: ['shipment.status_changed'],
      location: 'Bhiwandi',
      time: t(20).toISOString(),
    },
    {
      name: 'delivered raises its own event after status_changed',
      kind: 'shipment',
      before: ['in_transit', null],
      after: ['delivered', null],
      applied: ['a', 'b', 'c'],
      types: ['shipment.status_changed', 'shipment.delivered'],
      location: 'Colaba',
      time: t(40).toISOString(),
    },
    {
      name: 'cancelled',
      kind: 'shipment',
      before: ['pending', null],
      after: ['cancelled', null],
      applied: [],
      types: ['shipment.status_changed', 'shipment.cancelled'],
      location: null,
      time: null,
    },
    {
      name: 'ndr_raised',
      kind: 'shipment',
      before: ['out_for_delivery', null],
      after: ['ndr_raised', null],
      applied: [],
      types: ['shipment.status_changed', 'shipment.ndr_raised'],
    },
    {
      name: 'rto_initiated',
      kind: 'shipment',
      before: ['ndr_raised', null],
      after: ['rto_initiated', null],
      applied: [],
      types: ['shipment.status_changed', 'shipment.rto_initiated'],
    },
    {
      name: 'rto_delivered is a plain move',
      kind: 'shipment',
      before: ['rto_in_transit', null],
      after: ['rto_delivered', null],
      applied: [],
      types: ['shipment.status_changed'],
    },
    {
      name: 'the cause is the latest applied event of the new status, not one the machine kept aside',
      kind: 'shipment',
      before: ['pending', null],
      after: ['in_transit', null],
      applied: ['a', 'b'],
      types: ['shipment.status_changed'],
      location: 'Bhiwandi',
      time: t(20).toISOString(),
    },
    {
      name: 'return cancelled',
      kind: 'return',
      before: ['return_pickup_scheduled', null],
      after: ['return_cancelled', null],
      applied: [],
      types: ['return.status_changed', 'return.cancelled'],
    },
    {
      name: 'return delivered',
      kind: 'return',
      before: ['return_in_transit', null],
      after: ['return_delivered', null],
      applied: [],
      types: ['return.status_changed', 'return.delivered'],
    },
    {
      name: 'return picked up',
      kind: 'return',
      before: ['return_pickup_scheduled', null],
      after: ['return_picked_up', null],
      applied: [],
      types: ['return.status_changed'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const raised = statusChangeEvents(
        c.kind,
        { status: c.before[0], subStatus: c.before[1] },
        { status: c.after[0], subStatus: c.after[1], appliedEventIds: new Set(c.applied) },
        history,
        { extra: 1 },
      );
      expect(raised.map((e) => e.type)).toEqual(c.types);
      for (const { change } of raised) {
        expect(change).toMatchObject({
          from: c.before[0],
          from_sub_status: c.before[1],
          to: c.after[0],
          sub_status: c.after[1],
          extra: 1,
        });
        if (c.location !== undefined) expect(change.location).toBe(c.location);
        if (c.time !== undefined) expect(change.event_time).toBe(c.time);
      }
    });
  }

  it('ties in time go to the event received last', () => {
    const tied = [event('x', 'in_transit', 10, 'First', 11), event('y', 'in_transit', 10, 'Second', 12)];
    const [raised] = statusChangeEvents(
      'shipment',
      { status: 'pending', subStatus: null },
      { status: 'in_transit', subStatus: null, appliedEventIds: new Set(['x', 'y']) },
      tied,
    );
    expect(raised!.change.location).toBe('Second');
  });
});
