import type { ReturnStatus } from './return-status-machine.js';

/**
 * Velocity labels each activity with upper-case words; a return's say RETURN so that an integration
 * switching on the forward words (PICKED UP, DELIVERED) never mistakes a return for a delivery.
 */
const STAGE_LABELS: Readonly<Record<ReturnStatus, string>> = {
  return_requested: 'RETURN REQUESTED',
  return_pickup_scheduled: 'RETURN PICKUP SCHEDULED',
  return_picked_up: 'RETURN PICKED UP',
  return_in_transit: 'RETURN IN TRANSIT',
  return_delivered: 'RETURN DELIVERED',
  return_cancelled: 'RETURN CANCELLED',
  return_lost: 'RETURN LOST',
};

/** Granular statuses are unique across return stages, so they key this table alone. */
const SUB_STATUS_LABELS: Readonly<Record<string, string>> = {
  return_pickup_rescheduled: 'RETURN PICKUP RESCHEDULED',
  return_pickup_failed: 'RETURN PICKUP EXCEPTION',
  return_out_for_delivery: 'RETURN OUT FOR DELIVERY',
  qc_failed: 'QC FAILED',
  return_damaged: 'RETURN DAMAGED',
};

/** The activity label of a return event; the table is in docs/tracking.md ("Returns"). */
export function returnActivityLabel(status: ReturnStatus, subStatus: string | null): string {
  return (subStatus !== null && SUB_STATUS_LABELS[subStatus]) || STAGE_LABELS[status];
}
