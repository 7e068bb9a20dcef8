import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { orders, shipmentActions, shipments, trackingEvents, warehouses } from '../../base/db/schema.js';

type TrackingEventRow = typeof trackingEvents.$inferSelect;
type ActionRow = typeof shipmentActions.$inferSelect;

/** Shipments of the account by AWB, with their events in time order, for order-tracking. */
export async function findTrackedShipments(db: Executor, accountId: string, awbs: string[]) {
  const found = await db
    .select({
      id: shipments.id,
      awb: shipments.awb,
      status: shipments.status,
      subStatus: shipments.subStatus,
      carrierId: shipments.carrierId,
      attemptCount: shipments.attemptCount,
      rtoInitiatedAt: shipments.rtoInitiatedAt,
      appliedWeightGrams: shipments.appliedWeightGrams,
      pickedUpAt: shipments.pickedUpAt,
      deliveredAt: shipments.deliveredAt,
      trackToken: shipments.trackToken,
      orderId: orders.id,
      merchantOrderId: orders.merchantOrderId,
      destination: orders.shippingCity,
      shippingName: orders.shippingName,
      shippingLastName: orders.shippingLastName,
      origin: warehouses.city,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .innerJoin(warehouses, eq(warehouses.id, shipments.warehouseId))
    .where(and(eq(shipments.accountId, accountId), inArray(shipments.awb, awbs)));
  const events = await findEventsOf(
    db,
    accountId,
    found.map((s) => s.id),
  );
  return found.map((shipment) => ({ ...shipment, events: events.get(shipment.id) ?? [] }));
}

/** Events of many shipments, oldest first, grouped by shipment. */
export async function findEventsOf(db: Executor, accountId: string, shipmentIds: string[]) {
  const grouped = new Map<string, TrackingEventRow[]>();
  if (shipmentIds.length === 0) return grouped;
  const rows = await db
    .select()
    .from(trackingEvents)
    .where(and(eq(trackingEvents.accountId, accountId), inArray(trackingEvents.shipmentId, shipmentIds)))
    .orderBy(asc(trackingEvents.eventTime), asc(trackingEvents.receivedAt));
  for (const row of rows) {
    const list = grouped.get(row.shipmentId);
    if (list) list.push(row);
    else grouped.set(row.shipmentId, [row]);
  }
  return grouped;
}

/** Actions of many shipments, oldest first, grouped by shipment. */
export async function findActionsOf(
  db: Executor,
  accountId: string,
  shipmentIds: string[],
): Promise<Map<string, ActionRow[]>> {
  const grouped = new Map<string, ActionRow[]>();
  if (shipmentIds.length === 0) return grouped;
  const rows = await db
    .select()
    .from(shipmentActions)
    .where(and(eq(shipmentActions.accountId, accountId), inArray(shipmentActions.shipmentId, shipmentIds)))
    .orderBy(asc(shipmentActions.createdAt), asc(shipmentActions.id));
  for (const row of rows) {
    const list = grouped.get(row.shipmentId);
    if (list) list.push(row);
    else grouped.set(row.shipmentId, [row]);
  }
  return grouped;
}
