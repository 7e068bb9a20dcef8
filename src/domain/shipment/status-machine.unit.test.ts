import { describe, expect, it } from 'vitest';
import {
  foldEvents,
  isFinished,
  MILESTONE_NAMES,
  NDR_REASONS,
  SHIPMENT_STATUSES,
  type ShipmentStatus,
  type StoredEvent,
  SUB_STATUSES,
  TERMINAL_STATUSES,
  TRANSITIONS,
} from './status-machine.js';

/**
 * The documented state machine (docs/tracking.md), written out independently of TRANSITIONS.
 * y: the status may follow; .: refused (kept in history, no change); r: the same stage repeating
 * (updates sub_status); x: a terminal status, nothing follows, not even itself.
 */
const TABLE = `
from \\ to        pending in_transit out_for_delivery delivered ndr_raised rto_initiated rto_in_transit rto_delivered cancelled others
pending           r       y          .                .         .          .             .              .             y         y
in_transit        .       r          y                y         y          y             .              .             .         y
out_for_delivery  .       y          r                y         y          .             .              .             .         y
delivered         x       x          x                x         x          x             x              x             x         x
ndr_raised        .       y          y                y         r          y             .              .             .         y
rto_initiated     .       .          .                .         .          r             y              y             .         y
rto_in_transit    .       .          .                .         .          .             r              y             .         y
rto_delivered     x       x          x                x         x          x             x              x             x         x
cancelled         x       x          x                x         x          x             x              x             x         x
others            .       y          y                y         y          y             y              y             .         r
`;

const rows = TABLE.trim().split('\n');
const columns = rows[0]!.split(/\s+/).slice(3) as ShipmentStatus[];
const cells = rows.slice(1).flatMap((line) => {
  const [from, ...marks] = line.split(/\s+/);
  return marks.map((mark, i) => ({
    from: from as ShipmentStatus,
    to: columns[i]!,
    mark: mark as 'y' | '.' | 'r' | 'x',
  }));
});

/** A path of statuses from pending that reaches each status through allowed transitions. */
const PATH_TO: Record<ShipmentStatus, ShipmentStatus[]> = {
  pending: [],
  in_transit: ['in_transit'],
  out_for_delivery: ['in_transit', 'out_for_delivery'],
  delivered: ['in_transit', 'out_for_delivery', 'delivered'],
  ndr_raised: ['in_transit', 'out_for_delivery', 'ndr_raised'],
  rto_initiated: ['in_transit', 'out_for_delivery', 'ndr_raised', 'rto_initiated'],
  rto_in_transit: ['in_transit', 'out_for_delivery', 'ndr_raised', 'rto_initiated', 'rto_in_transit'],
  rto_delivered: ['in_transit', 'out_for_delivery', 'ndr_raised', 'rto_initiated', 'rto_in_transit', 'rto_delivered'],
  cancelled: ['cancelled'],
  others: ['in_transit', 'others'],
};

const T0 = Date.parse('2026-11-20T06:00:00.000Z');
const RECEIVED = new Date('2026-11-20T07:00:00.000Z');
const minutes = (m: number) => new Date(T0 + m * 60_000);

let nextId = 0;
function ev(status: ShipmentStatus, minute: number, extra: Partial<StoredEvent> = {}): StoredEvent {
  return {
    id: `e${++nextId}`,
    status,
    subStatus: SUB_STATUSES[status][0] ?? null,
    eventTime: minutes(minute),
    ndrReason: null,
    rtoReason: null,
    receivedAt: RECEIVED,
    ...extra,
  };
}

const pathEvents = (statuses: ShipmentStatus[]) => statuses.map((status, i) => ev(status, i * 10));

/** Every order of a list (for the small lists here). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('the transition table', () => {
  it('covers every pair of the ten statuses of SPEC section 3', () => {
    expect(columns).toEqual([...SHIPMENT_STATUSES]);
    expect(rows.slice(1).map((line) => line.split(/\s+/)[0])).toEqual([...SHIPMENT_STATUSES]);
    expect(cells).toHaveLength(100);
  });

  it('is what TRANSITIONS says, and only delivered, rto_delivered and cancelled are terminal', () => {
    for (const from of SHIPMENT_STATUSES) {
      const allowed = cells.filter((c) => c.from === from && c.mark === 'y').map((c) => c.to);
      expect({ from, to: [...TRANSITIONS[from]].sort() }).toEqual({ from, to: allowed.sort() });
    }
    expect([...TERMINAL_STATUSES].sort()).toEqual(['cancelled', 'delivered', 'rto_delivered']);
  });

  it.each([
    ['delivered', 'delivered', true],
    ['rto_delivered', 'rto_delivered', true],
    ['cancelled', 'cancelled_by_courier', true],
    ['others', 'lost', true],
    ['others', 'damaged', true],
    ['others', 'destroyed', true],
    ['others', 'on_hold', false],
    ['others', 'box_exception', false],
    ['others', null, false],
    ['ndr_raised', 'refused', false],
    ['rto_in_transit', 'rto_in_transit', false],
    ['pending', null, false],
  ] as const)('finishes %s (%s): %s', (status, subStatus, finished) => {
    expect(isFinished(status, subStatus)).toBe(finished);
  });

  it('reaches every status along its test path', () => {
    for (const status of SHIPMENT_STATUSES) expect(foldEvents(pathEvents(PATH_TO[status])).status).toBe(status);
  });

  it.each(cells)('$from → $to: $mark', ({ from, to, mark }) => {
    const before = pathEvents(PATH_TO[from]);
    const start = foldEvents(before);
    const next = ev(to, 500, { subStatus: SUB_STATUSES[to].at(-1)! });
    const state = foldEvents([...before, next]);
    if (mark === 'y' || mark === 'r') {
      expect(state.status).toBe(to);
      expect(state.subStatus).toBe(SUB_STATUSES[to].at(-1));
      expect(state.appliedEventIds.has(next.id)).toBe(true);
    } else {
      // Kept out of the state entirely: the shipment is exactly as it was.
      expect(state.appliedEventIds.has(next.id)).toBe(false);
      expect({ ...state, appliedEventIds: [...state.appliedEventIds] }).toEqual({
        ...start,
        appliedEventIds: [...start.appliedEventIds],
      });
    }
  });
});

describe('foldEvents', () => {
  it('starts pending with nothing set when there are no events', () => {
    expect(foldEvents([])).toEqual({
      status: 'pending',
      subStatus: null,
      attemptCount: 0,
      ndrReason: null,
      rtoReason: null,
      pickedUpAt: null,
      deliveredAt: null,
      cancelledAt: null,
      rtoInitiatedAt: null,
      rtoDeliveredAt: null,
      milestones: [],
      appliedEventIds: new Set(),
    });
  });

  it('gives the same state whatever order the events arrive in', () => {
    const events = [
      ev('in_transit', 0, { subStatus: 'picked_up' }),
      ev('out_for_delivery', 60),
      ev('ndr_raised', 90, { subStatus: 'customer_unavailable', ndrReason: 'customer_unavailable' }),
      ev('out_for_delivery', 1500),
      ev('delivered', 1530),
    ];
    const inOrder = foldEvents(events);
    expect(inOrder.status).toBe('delivered');
    for (const arrival of permutations(events)) {
      // Later arrivals carry later received_at, as the intake records them.
      const received = arrival.map((e, i) => ({ ...e, receivedAt: new Date(RECEIVED.getTime() + i * 1000) }));
      expect(foldEvents(received)).toEqual(inOrder);
    }
  });

  it('applies scans stamped with the same time and received together in lifecycle order', () => {
    const pickedUp = ev('in_transit', 0, { subStatus: 'picked_up' });
    const outForDelivery = ev('out_for_delivery', 60);
    const delivered = ev('delivered', 60);
    for (const batch of [
      [pickedUp, outForDelivery, delivered],
      [pickedUp, delivered, outForDelivery],
    ]) {
      const state = foldEvents(batch);
      expect(state.status).toBe('delivered');
      expect(state.appliedEventIds).toEqual(new Set([pickedUp.id, outForDelivery.id, delivered.id]));
    }
  });

  it('places a late scan at its event_time: an earlier scan arriving last fills the history but does not move the status back', () => {
    const inTransit = ev('in_transit', 0, { subStatus: 'picked_up' });
    const delivered = ev('delivered', 120);
    const lateOfd = ev('out_for_delivery', 60, { receivedAt: new Date(RECEIVED.getTime() + 3_600_000) });
    const state = foldEvents([inTransit, delivered, lateOfd]);
    expect(state.status).toBe('delivered');
    expect(state.subStatus).toBe('delivered');
    expect(state.milestones).toEqual([
      { milestone: 'picked_up', at: minutes(0) },
      { milestone: 'out_for_delivery', at: minutes(60) },
      { milestone: 'delivered', at: minutes(120) },
    ]);
    expect([...state.appliedEventIds]).toEqual([inTransit.id, lateOfd.id, delivered.id]);
  });

  it('ignores a scan dated after a terminal status, and one that would move an RTO back to forward transit', () => {
    const forward = pathEvents(['in_transit', 'out_for_delivery', 'delivered']);
    const stray = ev('in_transit', 300, { subStatus: 'reached_destination_hub' });
    expect(foldEvents([...forward, stray])).toMatchObject({ status: 'delivered', subStatus: 'delivered' });
    expect(foldEvents([...forward, stray]).appliedEventIds.has(stray.id)).toBe(false);

    const rto = pathEvents(['in_transit', 'ndr_raised', 'rto_initiated']);
    const late = ev('out_for_delivery', 300);
    expect(foldEvents([...rto, late])).toMatchObject({ status: 'rto_initiated', subStatus: 'rto_initiated' });
  });

  it.each(['delivered', 'rto_delivered', 'cancelled'] as const)(
    '%s is terminal: nothing after it applies',
    (terminal) => {
      const path = pathEvents(PATH_TO[terminal]);
      const final = foldEvents(path);
      const later = SHIPMENT_STATUSES.map((status, i) => ev(status, 1000 + i));
      const state = foldEvents([...path, ...later]);
      expect(state.status).toBe(terminal);
      expect(state.subStatus).toBe(final.subStatus);
      expect(state.attemptCount).toBe(final.attemptCount);
      expect(state.milestones).toEqual(final.milestones);
      for (const e of later) expect(state.appliedEventIds.has(e.id)).toBe(false);
    },
  );

  it('a cancellation dated after the pickup scan does not apply; one dated before it wins over the pickup', () => {
    const pickup = ev('in_transit', 10, { subStatus: 'picked_up' });
    expect(foldEvents([pickup, ev('cancelled', 20)]).status).toBe('in_transit');
    const early = foldEvents([pickup, ev('cancelled', 5)]);
    expect(early).toMatchObject({ status: 'cancelled', cancelledAt: minutes(5), pickedUpAt: null });
  });

  it('a repeated stage updates sub_status without a new milestone', () => {
    const state = foldEvents([
      ev('in_transit', 0, { subStatus: 'picked_up' }),
      ev('in_transit', 30, { subStatus: 'reached_origin_hub' }),
      ev('in_transit', 90, { subStatus: 'reached_destination_hub' }),
    ]);
    expect(state.status).toBe('in_transit');
    expect(state.subStatus).toBe('reached_destination_hub');
    expect(state.milestones).toEqual([{ milestone: 'picked_up', at: minutes(0) }]);
    expect(state.pickedUpAt).toEqual(minutes(0));
    expect(state.appliedEventIds.size).toBe(3);
  });

  it('sub_status is the latest applied event’s, null when that event has none', () => {
    const state = foldEvents([
      ev('in_transit', 0, { subStatus: 'picked_up' }),
      ev('in_transit', 10, { subStatus: null }),
    ]);
    expect(state.subStatus).toBeNull();
  });

  it('counts each ndr_raised and the final delivered as delivery attempts', () => {
    const state = foldEvents([
      ev('in_transit', 0),
      ev('out_for_delivery', 100),
      ev('ndr_raised', 110, { subStatus: 'customer_unavailable' }),
      ev('out_for_delivery', 1540),
      ev('ndr_raised', 1550, { subStatus: 'address_incomplete', ndrReason: 'address_incomplete' }),
      ev('out_for_delivery', 2980),
      ev('delivered', 2990),
    ]);
    expect(state.attemptCount).toBe(3);
    expect(state.status).toBe('delivered');
    // The reason of the latest NDR stays on the shipment after delivery.
    expect(state.ndrReason).toBe('address_incomplete');
  });

  it('a repeated ndr_raised scan (no out_for_delivery between) updates the reason but is the same attempt', () => {
    const state = foldEvents([
      ev('in_transit', 0),
      ev('out_for_delivery', 100),
      ev('ndr_raised', 110, { subStatus: 'customer_unavailable', ndrReason: 'customer_unavailable' }),
      ev('ndr_raised', 130, { subStatus: 'contact_unreachable', ndrReason: 'contact_unreachable' }),
    ]);
    expect(state.attemptCount).toBe(1);
    expect(state.ndrReason).toBe('contact_unreachable');
    expect(state.subStatus).toBe('contact_unreachable');
  });

  it('an NDR without ndr_reason takes its sub_status as the reason', () => {
    const state = foldEvents([ev('in_transit', 0), ev('ndr_raised', 10, { subStatus: 'refused', ndrReason: null })]);
    expect(state.ndrReason).toBe('refused');
    expect(NDR_REASONS).toContain('refused');
  });

  it('a delivery with no NDR before it is one attempt; undelivered shipments have none', () => {
    expect(foldEvents(pathEvents(['in_transit', 'out_for_delivery', 'delivered'])).attemptCount).toBe(1);
    expect(foldEvents(pathEvents(['in_transit', 'out_for_delivery'])).attemptCount).toBe(0);
  });

  it('keeps the rto_reason of the RTO events', () => {
    const state = foldEvents([
      ev('in_transit', 0),
      ev('ndr_raised', 10, { subStatus: 'refused' }),
      ev('rto_initiated', 20, { rtoReason: 'customer_refused' }),
      ev('rto_in_transit', 30),
    ]);
    expect(state.rtoReason).toBe('customer_refused');
    expect(state.status).toBe('rto_in_transit');
  });

  it('records the first arrival in each stage as a milestone, once, and sets the listing timestamps', () => {
    const state = foldEvents([
      ev('in_transit', 0, { subStatus: 'picked_up' }),
      ev('in_transit', 5, { subStatus: 'in_transit' }),
      ev('out_for_delivery', 10),
      ev('ndr_raised', 20, { subStatus: 'refused' }),
      ev('out_for_delivery', 30),
      ev('ndr_raised', 40, { subStatus: 'refused' }),
      ev('rto_initiated', 50),
      ev('rto_in_transit', 60),
      ev('rto_in_transit', 70, { subStatus: 'rto_reached_origin_hub' }),
      ev('rto_delivered', 80),
    ]);
    expect(state.milestones).toEqual([
      { milestone: 'picked_up', at: minutes(0) },
      { milestone: 'out_for_delivery', at: minutes(10) },
      { milestone: 'ndr_raised', at: minutes(20) },
      { milestone: 'rto_initiated', at: minutes(50) },
      { milestone: 'rto_in_transit', at: minutes(60) },
      { milestone: 'rto_delivered', at: minutes(80) },
    ]);
    expect(state).toMatchObject({
      pickedUpAt: minutes(0),
      deliveredAt: null,
      cancelledAt: null,
      rtoInitiatedAt: minutes(50),
      rtoDeliveredAt: minutes(80),
      attemptCount: 2,
    });
  });

  it('sets delivered_at and cancelled_at at their events', () => {
    expect(foldEvents(pathEvents(['in_transit', 'out_for_delivery', 'delivered']))).toMatchObject({
      pickedUpAt: minutes(0),
      deliveredAt: minutes(20),
    });
    expect(foldEvents([ev('cancelled', 7)])).toMatchObject({ cancelledAt: minutes(7), pickedUpAt: null });
  });

  it('names the milestone of every stage (others is an exception)', () => {
    expect(MILESTONE_NAMES).toEqual({
      pending: 'pending',
      in_transit: 'picked_up',
      out_for_delivery: 'out_for_delivery',
      delivered: 'delivered',
      ndr_raised: 'ndr_raised',
      rto_initiated: 'rto_initiated',
      rto_in_transit: 'rto_in_transit',
      rto_delivered: 'rto_delivered',
      cancelled: 'cancelled',
      others: 'exception',
    });
  });

  it('breaks event_time ties by arrival order', () => {
    const first = ev('in_transit', 0, { receivedAt: new Date(RECEIVED.getTime()) });
    const a = ev('out_for_delivery', 10, { receivedAt: new Date(RECEIVED.getTime() + 1) });
    const b = ev('ndr_raised', 10, { subStatus: 'refused', receivedAt: new Date(RECEIVED.getTime() + 2) });
    // out_for_delivery then ndr_raised: both apply. Sent the other way round (ndr first), the NDR
    // applies from in_transit and out_for_delivery follows it.
    expect(foldEvents([b, a, first]).status).toBe('ndr_raised');
    const swapped = foldEvents([
      first,
      { ...a, receivedAt: new Date(RECEIVED.getTime() + 2) },
      { ...b, receivedAt: new Date(RECEIVED.getTime() + 1) },
    ]);
    expect(swapped.status).toBe('out_for_delivery');
  });

  it('an exception (others) may resume transit, and its milestone is "exception"', () => {
    const state = foldEvents([ev('in_transit', 0), ev('others', 10, { subStatus: 'on_hold' }), ev('in_transit', 20)]);
    expect(state.status).toBe('in_transit');
    expect(state.milestones.map((m) => m.milestone)).toEqual(['picked_up', 'exception']);
  });
});
