import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { returnRequestItems, type returnRequests } from '../base/db/schema.js';
import type { MaskedPayee } from '../domain/return-requests/refund-payee.js';

// A buyer's return request as the API answers it, its events carry it and its listing shows it:
// read by the return-requests feature and the listing alike, so it lives below both.

export type ReturnRequestRow = typeof returnRequests.$inferSelect;
export type ReturnRequestItemRow = typeof returnRequestItems.$inferSelect;

export const requestView = (request: ReturnRequestRow, items: readonly ReturnRequestItemRow[]) => ({
  id: request.id,
  shipment_id: request.shipmentId,
  order_id: request.orderId,
  store_id: request.storeId,
  status: request.status,
  items: items.map((item) => ({ sku: item.sku, name: item.name, quantity: item.units })),
  reason: request.reason,
  comment: request.comment,
  resolution: request.resolution,
  exchange_for: request.exchangeFor,
  refund_to: request.refundTo as MaskedPayee | null,
  pickup_address: request.pickup,
  photos: request.photos.map((photo) => ({
    url: `/custom/api/v1/return-requests/${request.id}/photos/${photo.position}`,
    content_type: photo.content_type,
    width: photo.width,
    height: photo.height,
    size: photo.size,
  })),
  language: request.language,
  decision_note: request.decisionNote,
  decided_by: request.decidedBy,
  decision_rule: request.decisionRule,
  return_id: request.returnId,
  exchange_id: request.exchangeId,
  created_at: request.createdAt.toISOString(),
  updated_at: request.updatedAt.toISOString(),
  decided_at: request.decidedAt?.toISOString() ?? null,
});
export type ReturnRequestView = ReturnType<typeof requestView>;

/** The items of these requests, in their positions. */
export async function findRequestItems(
  ex: Executor,
  accountId: string,
  requestIds: readonly string[],
): Promise<ReturnRequestItemRow[]> {
  if (requestIds.length === 0) return [];
  return ex
    .select()
    .from(returnRequestItems)
    .where(and(eq(returnRequestItems.accountId, accountId), inArray(returnRequestItems.requestId, [...requestIds])))
    .orderBy(asc(returnRequestItems.requestId), asc(returnRequestItems.position));
}
