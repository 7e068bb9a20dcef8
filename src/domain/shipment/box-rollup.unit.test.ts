import { describe, expect, it } from 'vitest';
import { type BoxEvent, type BoxStatus, foldBoxEvents, rollUpBoxes, sameExceptions } from './box-rollup.js';
import type { ShipmentStatus } from './status-machine.js';

/** "delivered", "in_transit/reached_destination_hub": a box's status and sub-status. */
const box = (boxNo: number, word: string): BoxStatus => {
  const [status, subStatus] = word.split('/') as [ShipmentStatus, string | undefined];
  return { boxNo, status, subStatus: subStatus ?? null };
};
const boxes = (...words: string[]) => words.map((word, i) => box(i + 1, word));

describe('rollUpBoxes', () => {
  // boxes (box 1 first) → the shipment's status/sub_status, and the exception boxes' numbers.
  const table: [string, string[], string, number[]][] = [
    ['all pending', ['pending', 'pending'], 'pending', []],
    [
      'one picked up, one not: still pending',
      ['in_transit/picked_up', 'pending/pickup_failed'],
      'pending/pickup_failed',
      [],
    ],
    [
      'both picked up: the first box among equals',
      ['in_transit/picked_up', 'in_transit/in_transit'],
      'in_transit/picked_up',
      [],
    ],
    [
      'one delivered, one in transit: not delivered',
      ['delivered/delivered', 'in_transit/reached_destination_hub'],
      'in_transit/reached_destination_hub',
      [],
    ],
    [
      'one delivered, one out for delivery',
      ['delivered/delivered', 'out_for_delivery/out_for_delivery'],
      'out_for_delivery/out_for_delivery',
      [],
    ],
    [
      'a failed attempt ranks below one under way',
      ['out_for_delivery/out_for_delivery', 'ndr_raised/refused'],
      'ndr_raised/refused',
      [],
    ],
    [
      'one delivered, one failed: NDR',
      ['delivered/delivered', 'ndr_raised/customer_unavailable'],
      'ndr_raised/customer_unavailable',
      [],
    ],
    [
      'every box delivered',
      ['delivered/delivered', 'delivered/delivered', 'delivered/delivered'],
      'delivered/delivered',
      [],
    ],
    [
      'every box returning: the least advanced',
      ['rto_delivered/rto_delivered', 'rto_in_transit/rto_in_transit'],
      'rto_in_transit/rto_in_transit',
      [],
    ],
    [
      'every box back',
      ['rto_delivered/rto_delivered', 'rto_delivered/rto_delivered'],
      'rto_delivered/rto_delivered',
      [],
    ],
    [
      'every box cancelled',
      ['cancelled/cancelled_by_merchant', 'cancelled/cancelled_by_merchant'],
      'cancelled/cancelled_by_merchant',
      [],
    ],
    ['every box lost: the first box', ['others/lost', 'others/damaged'], 'others/lost', []],
    ['one box lost, one delivered', ['delivered/delivered', 'others/lost'], 'others/box_exception', [2]],
    ['one box lost, one moving', ['others/lost', 'in_transit/in_transit'], 'others/box_exception', [1]],
    [
      'one box held, two moving',
      ['in_transit/in_transit', 'others/on_hold', 'out_for_delivery/out_for_delivery'],
      'others/box_exception',
      [2],
    ],
    [
      'one box returned alone, one delivered',
      ['delivered/delivered', 'rto_delivered/rto_delivered'],
      'others/box_exception',
      [2],
    ],
    [
      'one box RTO, one in transit',
      ['rto_initiated/rto_initiated', 'in_transit/in_transit'],
      'others/box_exception',
      [1],
    ],
    [
      'one box returning, one lost: the returning way leads',
      ['rto_in_transit/rto_in_transit', 'others/damaged'],
      'others/box_exception',
      [2],
    ],
    [
      'one box cancelled, one moving',
      ['cancelled/cancelled_by_courier', 'in_transit/in_transit'],
      'others/box_exception',
      [1],
    ],
    [
      'two of three returned',
      ['rto_initiated/rto_initiated', 'delivered/delivered', 'rto_in_transit/rto_in_transit'],
      'others/box_exception',
      [1, 3],
    ],
  ];
  it.each(table)('%s', (_name, words, expected, exceptionBoxes) => {
    const rolled = rollUpBoxes(boxes(...words));
    expect(rolled.subStatus ? `${rolled.status}/${rolled.subStatus}` : rolled.status).toBe(expected);
    expect(rolled.exceptions.map((b) => b.boxNo)).toEqual(exceptionBoxes);
  });

  it('names each exception box with its own status', () => {
    expect(rollUpBoxes(boxes('delivered/delivered', 'others/lost')).exceptions).toEqual([
      { boxNo: 2, status: 'others', subStatus: 'lost' },
    ]);
  });
});

describe('foldBoxEvents', () => {
  let n = 0;
  const T0 = Date.parse('2026-11-20T06:00:00Z');
  const ev = (boxNo: number, minute: number, word: string, more: Partial<BoxEvent> = {}): BoxEvent => {
    const { status, subStatus } = box(boxNo, word);
    return {
      id: `e${++n}`,
      boxNo,
      status,
      subStatus,
      eventTime: new Date(T0 + minute * 60_000),
      receivedAt: new Date(T0 + minute * 60_000),
      ndrReason: null,
      rtoReason: null,
      ...more,
    };
  };
  const minute = (m: number) => new Date(T0 + m * 60_000);

  it('delivered when the last box is: its milestones and date columns are the roll-up’s', () => {
    const events = [
      ev(1, 1, 'in_transit/picked_up'),
      ev(2, 2, 'in_transit/picked_up'),
      ev(1, 3, 'out_for_delivery/out_for_delivery'),
      ev(1, 4, 'delivered/delivered'),
      ev(2, 5, 'out_for_delivery/out_for_delivery'),
      ev(2, 6, 'delivered/delivered'),
    ];
    const state = foldBoxEvents(events, 2);
    expect([state.status, state.subStatus]).toEqual(['delivered', 'delivered']);
    expect(state.pickedUpAt).toEqual(minute(2));
    expect(state.deliveredAt).toEqual(minute(6));
    expect(state.milestones).toEqual([
      { milestone: 'picked_up', at: minute(2) },
      { milestone: 'out_for_delivery', at: minute(5) },
      { milestone: 'delivered', at: minute(6) },
    ]);
    expect(state.attemptCount).toBe(1);
    expect(state.boxes).toEqual([
      { boxNo: 1, status: 'delivered', subStatus: 'delivered', at: minute(4), attemptCount: 1 },
      { boxNo: 2, status: 'delivered', subStatus: 'delivered', at: minute(6), attemptCount: 1 },
    ]);
    expect(state.appliedEventIds.size).toBe(6);
  });

  it('one box delivered, the other in transit: in transit, not delivered', () => {
    const state = foldBoxEvents(
      [ev(1, 1, 'in_transit/picked_up'), ev(2, 1, 'in_transit/picked_up'), ev(1, 9, 'delivered/delivered')],
      2,
    );
    expect([state.status, state.subStatus, state.deliveredAt]).toEqual(['in_transit', 'picked_up', null]);
    expect(state.exceptions).toEqual([]);
  });

  it('a box returned alone is an exception; the merchant’s RTO (box 0) turns back only the boxes not delivered', () => {
    const events = [
      ev(1, 1, 'in_transit/picked_up'),
      ev(2, 1, 'in_transit/picked_up'),
      ev(1, 3, 'delivered/delivered'),
      ev(2, 3, 'ndr_raised/refused', { ndrReason: 'refused' }),
      ev(0, 4, 'rto_initiated/rto_initiated', { rtoReason: 'merchant_requested' }),
    ];
    const state = foldBoxEvents(events, 2);
    expect([state.status, state.subStatus]).toEqual(['others', 'box_exception']);
    expect(state.exceptions).toEqual([{ boxNo: 2, status: 'rto_initiated', subStatus: 'rto_initiated' }]);
    expect([state.ndrReason, state.rtoReason, state.attemptCount]).toEqual(['refused', 'merchant_requested', 1]);
    expect(state.milestones.map((m) => m.milestone)).toEqual(['picked_up', 'ndr_raised', 'exception']);
  });

  it('a scan the box’s machine refuses is not applied; another box’s same scan is', () => {
    const late = ev(1, 5, 'in_transit/in_transit');
    const state = foldBoxEvents(
      [ev(1, 0, 'in_transit/picked_up'), ev(1, 1, 'delivered/delivered'), late, ev(2, 2, 'in_transit/in_transit')],
      2,
    );
    expect(state.appliedEventIds.has(late.id)).toBe(false);
    expect(state.boxes.map((b) => b.status)).toEqual(['delivered', 'in_transit']);
  });

  it('pending is a milestone only when a scan says pending', () => {
    const state = foldBoxEvents([ev(1, 1, 'in_transit/picked_up'), ev(2, 2, 'pending/pickup_failed')], 2);
    expect([state.status, state.subStatus]).toEqual(['pending', 'pickup_failed']);
    expect(state.milestones).toEqual([{ milestone: 'pending', at: minute(2) }]);
  });

  it('a cancellation (box 0) cancels every box', () => {
    const state = foldBoxEvents([ev(0, 1, 'cancelled/cancelled_by_merchant')], 3);
    expect([state.status, state.cancelledAt]).toEqual(['cancelled', minute(1)]);
    expect(state.boxes.map((b) => b.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });

  it('sameExceptions compares box, status and sub-status', () => {
    const a = [box(2, 'others/lost')];
    expect(sameExceptions(a, [box(2, 'others/lost')])).toBe(true);
    expect(sameExceptions(a, [box(2, 'others/damaged')])).toBe(false);
    expect(sameExceptions(a, [])).toBe(false);
  });
});
