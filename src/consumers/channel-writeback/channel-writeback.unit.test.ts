import { describe, expect, it } from 'vitest';
import { ChannelCallError } from '../../channels/channel-adapter.js';
import type { StoredEvent } from '../../events/events.repository.js';
import { trackingStatusOf, trackPayloadOf } from './channel-writeback.plan.js';
import { failureOf, retryAt } from './channel-writeback.worker.js';

const NOW = new Date('2026-11-20T06:30:00.000Z');
const DELAYS = [10, 60, 300];
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('when a failed write-back is tried again', () => {
  it('follows the schedule for a store that is down, and gives up after its last delay', () => {
    const down = new ChannelCallError('unavailable', 'Store answered 500');
    expect(retryAt(down, 1, DELAYS, NOW, 0.5)).toEqual(later(10));
    expect(retryAt(down, 3, DELAYS, NOW, 0.5)).toEqual(later(300));
    expect(retryAt(down, 4, DELAYS, NOW, 0.5)).toBeNull();
    expect(retryAt(new Error('socket hang up'), 2, DELAYS, NOW, 0.5)).toEqual(later(60));
  });

  it('waits no less than the Retry-After of a throttled store', () => {
    const throttled = new ChannelCallError('throttled', 'Too many requests', [], 120_000);
    expect(retryAt(throttled, 1, DELAYS, NOW, 0.5)).toEqual(later(120));
    expect(retryAt(throttled, 3, DELAYS, NOW, 0.5)).toEqual(later(300));
  });

  it('never repeats a call the store rejected', () => {
    expect(retryAt(new ChannelCallError('rejected', 'Shopify has no order 42'), 1, DELAYS, NOW, 0.5)).toBeNull();
  });

  it('waits the longest delay each time for refused credentials or an address without DNS, within the attempts', () => {
    for (const kind of ['refused_credentials', 'unresolved'] as const) {
      const error = new ChannelCallError(kind, 'no');
      expect(retryAt(error, 1, DELAYS, NOW, 0.5)).toEqual(later(300));
      expect(retryAt(error, 3, DELAYS, NOW, 0.5)).toEqual(later(300));
      expect(retryAt(error, 4, DELAYS, NOW, 0.5)).toBeNull();
    }
  });

  it('names the kind of a store failure', () => {
    expect(failureOf(new ChannelCallError('unavailable', 'Store answered 500'))).toBe(
      'unavailable: Store answered 500',
    );
    expect(failureOf(new Error('bad key'))).toBe('bad key');
    expect(failureOf('odd')).toBe('odd');
  });
});

describe("a status's word in the store", () => {
  it.each([
    ['in_transit', null, 'in_transit'],
    ['out_for_delivery', null, 'out_for_delivery'],
    ['ndr_raised', 'customer_unavailable', 'attempted_delivery'],
    ['delivered', 'delivered', 'delivered'],
    ['rto_initiated', 'rto_initiated', 'failure'],
    ['others', 'lost', 'failure'],
    ['others', 'damaged', 'failure'],
    ['others', 'on_hold', null],
    ['rto_in_transit', 'rto_in_transit', null],
    ['rto_delivered', 'rto_delivered', null],
    ['pending', 'pickup_failed', null],
    ['cancelled', 'cancelled_by_merchant', null],
  ] as const)('%s (%s) is %s', (to, sub, word) => {
    expect(trackingStatusOf(to, sub)).toBe(word);
  });
});

describe('what the store is told of a status change', () => {
  const moved = (data: Record<string, unknown>): StoredEvent => ({
    id: 'e1',
    accountId: 'a1',
    type: 'shipment.status_changed',
    subjectType: 'shipment',
    subjectId: 's1',
    sequence: 3,
    data,
    createdAt: NOW,
    txid: '1',
    position: 0,
  });

  it("an attempted delivery names the NDR's reason, else the sub-status, else nothing", () => {
    const base = { from: 'out_for_delivery', to: 'ndr_raised', event_time: '2026-11-20T12:00:00.000Z' };
    expect(trackPayloadOf(moved({ ...base, ndr_reason: 'customer_unavailable', location: 'Mumbai' }))).toEqual({
      status: 'attempted_delivery',
      message: 'Delivery attempted: customer unavailable',
      happenedAt: '2026-11-20T12:00:00.000Z',
      city: 'Mumbai',
    });
    expect(trackPayloadOf(moved({ ...base, sub_status: 'premises_closed' }))!.message).toBe(
      'Delivery attempted: premises closed',
    );
    expect(trackPayloadOf(moved({ ...base, ndr_reason: '' }))!.message).toBe('Delivery attempted');
  });

  it('a return to the sender names its reason when it has one; a lost or damaged parcel its sub-status', () => {
    expect(
      trackPayloadOf(moved({ from: 'ndr_raised', to: 'rto_initiated', rto_reason: 'max_attempts_exceeded' })),
    ).toEqual({
      status: 'failure',
      message: 'Returning to the sender: max attempts exceeded',
      happenedAt: NOW.toISOString(),
      city: null,
    });
    expect(trackPayloadOf(moved({ from: 'ndr_raised', to: 'rto_initiated' }))!.message).toBe('Returning to the sender');
    expect(trackPayloadOf(moved({ from: 'in_transit', to: 'others', sub_status: 'lost' }))!.message).toBe(
      'Delivery failed: lost',
    );
  });

  it('tells nothing of a move within a status, a status the store keeps no word for, or an event without one', () => {
    expect(
      trackPayloadOf(moved({ from: 'in_transit', to: 'in_transit', sub_status: 'reached_destination_hub' })),
    ).toBeNull();
    expect(trackPayloadOf(moved({ from: 'in_transit', to: 'others', sub_status: 'on_hold' }))).toBeNull();
    expect(trackPayloadOf(moved({ from: 'in_transit' }))).toBeNull();
  });
});
