import { type AnyColumn, and, asc, eq, sql } from 'drizzle-orm';
import { builtOnce, type Executor } from '../../base/db/client.js';
import { orders, shipmentActions, shipments, trackingEvents, warehouses } from '../../base/db/schema.js';

type TrackingEventRow = typeof trackingEvents.$inferSelect;
type ActionRow = typeof shipmentActions.$inferSelect;

// Built once (builtOnce): a tracking request, the checkout's most frequent read after a quote, built
// these three selects through Drizzle at every request, which cost more CPU than the database spent.
const account = (column: AnyColumn) => eq(column, sql.placeholder('accountId'));
const anyOf = (column: AnyColumn) => sql`${column} = any(${sql.placeholder('list')})`;

const trackedShipments = builtOnce((db) =>
  db
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
    .where(and(account(shipments.accountId), anyOf(shipments.awb)))
    .prepare('tracked_shipments'),
);

const eventsOf = builtOnce((db) =>
  db
    .select()
    .from(trackingEvents)
    .where(and(account(trackingEvents.accountId), anyOf(trackingEvents.shipmentId)))
    .orderBy(asc(trackingEvents.eventTime), asc(trackingEvents.receivedAt))
    .prepare('tracking_events_of'),
);

const actionsOf = builtOnce((db) =>
  db
    .select()
    .from(shipmentActions)
    .where(and(account(shipmentActions.accountId), anyOf(shipmentActions.shipmentId)))
    .orderBy(asc(shipmentActions.createdAt), asc(shipmentActions.id))
    .prepare('shipment_actions_of'),
);

/** Shipments of the account by AWB, with their events in time order, for order-tracking. */
export async function findTrackedShipments(db: Executor, accountId: string, awbs: string[]) {
  const found = await trackedShipments(db).execute({ accountId, list: awbs });
  const events = await findEventsOf(
    db,
    accountId,
    found.map((s) => s.id),
  );
  return found.map((shipment) => ({ ...shipment, events: events.get(shipment.id) ?? [] }));
}

/** Rows by shipment, in the order read. */
function byShipment<Row extends { shipmentId: string }>(rows: Row[]): Map<string, Row[]> {
  const grouped = new Map<string, Row[]>();
  for (const row of rows) {
    const list = grouped.get(row.shipmentId);
    if (list) list.push(row);
    else grouped.set(row.shipmentId, [row]);
  }
  return grouped;
}

/** Events of many shipments, oldest first, grouped by shipment. */
export async function findEventsOf(
  db: Executor,
  accountId: string,
  shipmentIds: string[],
): Promise<Map<string, TrackingEventRow[]>> {
  if (shipmentIds.length === 0) return new Map();
  return byShipment(await eventsOf(db).execute({ accountId, list: shipmentIds }));
}

/** Actions of many shipments, oldest first, grouped by shipment. */
export async function findActionsOf(
  db: Executor,
  accountId: string,
  shipmentIds: string[],
): Promise<Map<string, ActionRow[]>> {
  if (shipmentIds.length === 0) return new Map();
  return byShipment(await actionsOf(db).execute({ accountId, list: shipmentIds }));
}
