import type { ReturnStatus } from '../shipment/return-status-machine.js';

// A buyer's refund (issue 50: "item price less the store's deductions and return shipping fee, if
// any"), and when it falls due: what the store's policy says at the approval, applied to the items
// the request sends back. Dakiya records refunds; the merchant's payment system pays them.

/** When a refund falls due: the courier picking the items up, their delivery to the warehouse, or their QC pass. */
export const REFUND_RELEASES = ['pickup', 'warehouse', 'qc_pass'] as const;
export type RefundRelease = (typeof REFUND_RELEASES)[number];

/**
 * A refund's life: pending (due or not), initiated by the payment system, then completed with a UTR,
 * or failed; cancelled, with nothing owed, when its return is cancelled before it falls due.
 */
export const REFUND_STATUSES = ['pending', 'initiated', 'completed', 'failed', 'cancelled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export interface RefundTerms {
  /** A whole percentage of the items' value the store keeps (a restocking fee). */
  deductionPercent: number;
  /** The return's shipping the buyer pays, taken from the refund. */
  returnShippingFeePaise: number;
}

export interface RefundAmount {
  itemsPaise: number;
  deductionPaise: number;
  /** The fee as taken: never more than what is left after the deduction. */
  returnShippingFeePaise: number;
  amountPaise: number;
}

/** What a refund comes to, in paise: the items at the price paid, less the deduction (rounded half up), less the fee. */
export function refundAmount(items: readonly { unitPaise: number; units: number }[], terms: RefundTerms): RefundAmount {
  const itemsPaise = items.reduce((sum, item) => sum + item.unitPaise * item.units, 0);
  const deductionPaise = Math.floor((itemsPaise * terms.deductionPercent + 50) / 100);
  const returnShippingFeePaise = Math.min(terms.returnShippingFeePaise, itemsPaise - deductionPaise);
  return {
    itemsPaise,
    deductionPaise,
    returnShippingFeePaise,
    amountPaise: itemsPaise - deductionPaise - returnShippingFeePaise,
  };
}

const PICKED_UP: ReadonlySet<ReturnStatus> = new Set(['return_picked_up', 'return_in_transit', 'return_delivered']);

/**
 * Whether a return in this state releases a refund held for `release`. A QC pass releases a
 * `qc_pass` refund; so does the return's delivery to the warehouse when no QC failed: a pickup
 * booked without QC has no pass to wait on, and a courier that never reports its check has let the
 * items through (a failed check stops the pickup).
 */
export function refundReleased(
  release: RefundRelease,
  state: { status: ReturnStatus; qcStatus: string | null },
): boolean {
  if (state.qcStatus === 'failed') return false;
  switch (release) {
    case 'pickup':
      return PICKED_UP.has(state.status);
    case 'warehouse':
      return state.status === 'return_delivered';
    case 'qc_pass':
      return state.qcStatus === 'passed' || state.status === 'return_delivered';
  }
}

/**
 * Whether a return in this state cancels its refund: the pickup was called off (by the merchant,
 * or by the courier, as when the item fails its check at the door), so nothing comes back and
 * nothing is owed. A refund already due stays: its return was picked up, and a return picked up is
 * never cancelled (return-status-machine.ts).
 */
export const refundCancelled = (state: { status: ReturnStatus }): boolean => state.status === 'return_cancelled';

/** The moves a refund takes, by what the merchant's payment system reports; a cancelled refund takes none. */
export const REFUND_MOVES: Record<'initiate' | 'complete' | 'fail', readonly RefundStatus[]> = {
  // A failed payment is tried again.
  initiate: ['pending', 'failed'],
  // Paid at once, or after the payment system took it.
  complete: ['pending', 'initiated'],
  fail: ['initiated'],
};
