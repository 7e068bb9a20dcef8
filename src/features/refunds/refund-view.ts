import { paiseToRupees } from '../../domain/money.js';
import type { MaskedPayee } from '../../domain/return-requests/refund-payee.js';
import type { RefundRow } from './refunds.repository.js';

/** A refund as the API answers it and its events carry it: money in rupees, exact to the paisa. */
export const refundView = (row: RefundRow) => ({
  id: row.id,
  return_request_id: row.requestId,
  return_id: row.returnId,
  store_id: row.storeId,
  status: row.status,
  amount: paiseToRupees(row.amountPaise),
  items_amount: paiseToRupees(row.itemsPaise),
  deduction: paiseToRupees(row.deductionPaise),
  return_shipping_fee: paiseToRupees(row.returnShippingFeePaise),
  currency: 'INR' as const,
  method: row.method,
  payee: (row.payee ?? null) as MaskedPayee | null,
  release_on: row.releaseOn,
  released_at: row.releasedAt?.toISOString() ?? null,
  utr: row.utr,
  failure_reason: row.failureReason,
  initiated_at: row.initiatedAt?.toISOString() ?? null,
  completed_at: row.completedAt?.toISOString() ?? null,
  failed_at: row.failedAt?.toISOString() ?? null,
  cancelled_at: row.cancelledAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
export type RefundView = ReturnType<typeof refundView>;
