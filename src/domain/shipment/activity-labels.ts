import type { ShipmentStatus } from './status-machine.js';

/**
 * Velocity writes each tracking activity as an upper-case label, and integrations switch on those
 * words. A stage's label, unless its granular status says something Velocity has a word for.
 */
const STAGE_LABELS: Readonly<Record<ShipmentStatus, string>> = {
  // Couriers scan a parcel before pickup only when they set out to collect it.
  pending: 'OUT FOR PICKUP',
  in_transit: 'IN TRANSIT',
  out_for_delivery: 'OUT FOR DELIVERY',
  delivered: 'DELIVERED',
  ndr_raised: 'UNDELIVERED',
  rto_initiated: 'RTO INITIATED',
  rto_in_transit: 'RTO IN TRANSIT',
  rto_delivered: 'RTO DELIVERED',
  cancelled: 'CANCELLED',
  others: 'EXCEPTION',
};

/** Granular statuses are unique across stages (docs/tracking.md), so they key this table alone. */
const SUB_STATUS_LABELS: Readonly<Record<string, string>> = {
  pickup_failed: 'PICKUP EXCEPTION',
  picked_up: 'PICKED UP',
  misrouted: 'MISROUTED',
  rto_out_for_delivery: 'RTO OUT FOR DELIVERY',
  lost: 'LOST',
  damaged: 'DAMAGED',
  destroyed: 'DESTROYED',
  on_hold: 'ON HOLD',
};

/** The activity label of an event; the full table is in docs/tracking.md. */
export function activityLabel(status: ShipmentStatus, subStatus: string | null): string {
  return (subStatus !== null && SUB_STATUS_LABELS[subStatus]) || STAGE_LABELS[status];
}
