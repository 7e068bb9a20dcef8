import type * as repo from './return-requests.repository.js';

// A return request as the API answers it and its events carry it.

export const requestView = ({ request, items }: NonNullable<Awaited<ReturnType<typeof repo.findRequest>>>) => ({
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
  pickup_address: request.pickup,
  language: request.language,
  decision_note: request.decisionNote,
  return_id: request.returnId,
  created_at: request.createdAt.toISOString(),
  updated_at: request.updatedAt.toISOString(),
  decided_at: request.decidedAt?.toISOString() ?? null,
});
export type ReturnRequestView = ReturnType<typeof requestView>;
