import { describe, expect, it } from 'vitest';
import { velocityEventOf, velocityStatusWord } from './velocity-webhooks.js';

describe("Velocity's words", () => {
  it('a status_change only when the word moves; milestones are not sent twice', () => {
    const change = (from: string, fromSub: string | null, to: string, sub: string | null) =>
      velocityEventOf({
        type: 'shipment.status_changed',
        data: { from, from_sub_status: fromSub, to, sub_status: sub },
      });
    expect(change('pending', null, 'in_transit', 'picked_up')).toBe('status_change');
    expect(change('in_transit', 'picked_up', 'in_transit', 'reached_destination_hub')).toBeUndefined();
    expect(change('pending', null, 'pending', 'pickup_scheduled')).toBe('status_change');
    expect(velocityEventOf({ type: 'shipment.delivered', data: {} })).toBeUndefined();
    expect(velocityEventOf({ type: 'shipment.tracking_added', data: {} })).toBe('tracking_addition');
    expect(velocityEventOf({ type: 'return.qc_updated', data: {} })).toBe('qc_update');
    expect(velocityStatusWord('return', 'return_picked_up', 'return_picked_up')).toBe('return_in_transit');
    expect(velocityStatusWord('return', 'return_cancelled', 'qc_failed')).toBe('return_qc_failed');
    expect(velocityStatusWord('shipment', 'others', 'lost')).toBe('lost');
  });
});
