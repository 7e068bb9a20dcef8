import type { ReturnStatus } from './return-status-machine.js';
import type { ShipmentStatus } from './status-machine.js';

/**
 * An exchange's status, read from its two legs (decision 149): Velocity shows `pending` for a new
 * exchange and lists no other word, so the rest name what a merchant acts on.
 */
export const EXCHANGE_STATUSES = [
  'pending',
  'awaiting_return',
  'in_progress',
  'replacement_delivered',
  'return_received',
  'completed',
  'qc_failed',
  'needs_attention',
  'cancelled',
] as const;
export type ExchangeStatus = (typeof EXCHANGE_STATUSES)[number];

export interface ExchangeLegs {
  forward: ShipmentStatus;
  return: ReturnStatus;
  /** The courier's QC result at pickup: passed, failed or null (not reported). */
  qcStatus: string | null;
  /** The replacement waits on the return's pickup or QC pass (the account's release term). */
  replacementHeld: boolean;
}

const FORWARD_GONE_WRONG: ReadonlySet<ShipmentStatus> = new Set(['rto_initiated', 'rto_in_transit', 'rto_delivered']);

export function exchangeStatus(legs: ExchangeLegs): ExchangeStatus {
  const forwardCancelled = legs.forward === 'cancelled';
  const returnCancelled = legs.return === 'return_cancelled';
  if (forwardCancelled && returnCancelled) return 'cancelled';
  if (legs.qcStatus === 'failed') return 'qc_failed';
  // One leg called off or lost while the other goes on, or the replacement coming back: a merchant decides.
  if (forwardCancelled || returnCancelled || legs.return === 'return_lost' || FORWARD_GONE_WRONG.has(legs.forward))
    return 'needs_attention';
  const forwardDelivered = legs.forward === 'delivered';
  const returnDelivered = legs.return === 'return_delivered';
  if (forwardDelivered && returnDelivered) return 'completed';
  if (forwardDelivered) return 'replacement_delivered';
  if (returnDelivered) return 'return_received';
  if (legs.replacementHeld) return 'awaiting_return';
  const returnMoving = legs.return === 'return_picked_up' || legs.return === 'return_in_transit';
  if (legs.forward !== 'pending' || returnMoving) return 'in_progress';
  return 'pending';
}
