import { describe, expect, it } from 'vitest';
import { returnActivityLabel } from './return-activity-labels.js';
import { RETURN_STATUSES, RETURN_SUB_STATUSES, type ReturnStatus } from './return-status-machine.js';

/** docs/tracking.md's table of return activity labels, row by row. */
const TABLE: [ReturnStatus, string | null, string][] = [
  ['return_requested', null, 'RETURN REQUESTED'],
  ['return_pickup_scheduled', null, 'RETURN PICKUP SCHEDULED'],
  ['return_pickup_scheduled', 'return_pickup_rescheduled', 'RETURN PICKUP RESCHEDULED'],
  ['return_pickup_scheduled', 'return_pickup_failed', 'RETURN PICKUP EXCEPTION'],
  ['return_picked_up', null, 'RETURN PICKED UP'],
  ['return_picked_up', 'return_picked_up', 'RETURN PICKED UP'],
  ['return_in_transit', null, 'RETURN IN TRANSIT'],
  ['return_in_transit', 'return_in_transit', 'RETURN IN TRANSIT'],
  ['return_in_transit', 'return_reached_hub', 'RETURN IN TRANSIT'],
  ['return_in_transit', 'return_out_for_delivery', 'RETURN OUT FOR DELIVERY'],
  ['return_delivered', null, 'RETURN DELIVERED'],
  ['return_delivered', 'return_delivered', 'RETURN DELIVERED'],
  ['return_cancelled', null, 'RETURN CANCELLED'],
  ['return_cancelled', 'return_cancelled_by_merchant', 'RETURN CANCELLED'],
  ['return_cancelled', 'return_cancelled_by_courier', 'RETURN CANCELLED'],
  ['return_cancelled', 'customer_refused', 'RETURN CANCELLED'],
  ['return_cancelled', 'qc_failed', 'QC FAILED'],
  ['return_lost', null, 'RETURN LOST'],
  ['return_lost', 'return_lost', 'RETURN LOST'],
  ['return_lost', 'return_damaged', 'RETURN DAMAGED'],
];

describe('return activity labels', () => {
  it('covers every return status with no sub_status and every sub_status', () => {
    const covered = new Set(TABLE.map(([status, sub]) => `${status}/${sub}`));
    for (const status of RETURN_STATUSES) {
      expect(covered.has(`${status}/null`)).toBe(true);
      for (const sub of RETURN_SUB_STATUSES[status]) expect(covered.has(`${status}/${sub}`)).toBe(true);
    }
  });

  it.each(TABLE)('%s / %s → %s', (status, sub, label) => {
    expect(returnActivityLabel(status, sub)).toBe(label);
  });
});
