import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { awbCounters, orderItems, orders, shipmentMilestones, shipments, stores } from '../../db/schema.js';

export type OrderRow = typeof orders.$inferSelect;
export type ShipmentRow = typeof shipments.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
type NewOrder = Omit<typeof orders.$inferInsert, 'accountId'>;
type NewItem = Omit<typeof orderItems.$inferInsert, 'accountId' | 'orderId'>;
type NewShipment = Omit<typeof shipments.$inferInsert, 'accountId' | 'orderId'>;

export async function insertOrder(
  db: Executor,
  accountId: string,
  order: NewOrder,
  items: NewItem[],
  shipment: NewShipment,
): Promise<{ order: OrderRow; shipment: ShipmentRow }> {
  const [orderRow] = await db
    .insert(orders)
    .values({ ...order, accountId })
    .returning();
  await db.insert(orderItems).values(items.map((item) => ({ ...item, accountId, orderId: orderRow!.id })));
  const [shipmentRow] = await db
    .insert(shipments)
    .values({ ...shipment, accountId, orderId: orderRow!.id })
    .returning();
  return { order: orderRow!, shipment: shipmentRow! };
}

export async function addMilestones(
  db: Executor,
  accountId: string,
  shipmentId: string,
  milestones: { milestone: string; at: Date }[],
): Promise<void> {
  if (milestones.length === 0) return;
  await db
    .insert(shipmentMilestones)
    .values(milestones.map((m) => ({ accountId, shipmentId, milestone: m.milestone, milestoneAt: m.at })))
    .onConflictDoNothing();
}

/** The shipment with its order, locked for the rest of the transaction when `forUpdate`. */
export async function findShipmentWithOrder(db: Executor, accountId: string, shipmentId: string, forUpdate = false) {
  const query = db
    .select({ shipment: shipments, order: orders })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  const [row] = await (forUpdate ? query.for('update', { of: shipments }) : query);
  return row;
}

export async function findItems(db: Executor, accountId: string, orderId: string): Promise<OrderItemRow[]> {
  return db
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.accountId, accountId), eq(orderItems.orderId, orderId)))
    .orderBy(orderItems.position);
}

export async function findStoreName(db: Executor, accountId: string, storeId: string | null) {
  if (!storeId) return null;
  const [row] = await db
    .select({ storeName: stores.storeName, brandName: stores.brandName, logoSha256: stores.logoSha256 })
    .from(stores)
    .where(and(eq(stores.accountId, accountId), eq(stores.id, storeId)));
  return row ?? null;
}

/** Books a courier onto a shipment that has none yet; undefined when it already had one. */
export async function assignCourier(
  db: Executor,
  accountId: string,
  shipmentId: string,
  values: Pick<ShipmentRow, 'carrierId' | 'awb' | 'freightPaise' | 'codChargesPaise' | 'rtoChargesPaise' | 'assignedAt' | 'updatedAt' | 'searchText'>,
): Promise<ShipmentRow | undefined> {
  const [row] = await db
    .update(shipments)
    .set(values)
    .where(
      and(
        eq(shipments.accountId, accountId),
        eq(shipments.id, shipmentId),
        sql`${shipments.awb} is null`,
        eq(shipments.status, 'pending'),
      ),
    )
    .returning();
  return row;
}

/**
 * The next number of a courier's AWB series. Runs as its own statement, outside the booking
 * transaction, so the counter row is locked for microseconds rather than for a whole booking; a
 * booking that then fails leaves a gap, and numbers are never handed out twice.
 */
export async function nextAwbNumber(db: Executor, carrierId: string): Promise<number> {
  const [row] = await db
    .insert(awbCounters)
    .values({ carrierId, lastValue: 1 })
    .onConflictDoUpdate({ target: awbCounters.carrierId, set: { lastValue: sql`${awbCounters.lastValue} + 1` } })
    .returning({ value: awbCounters.lastValue });
  return row!.value;
}

export async function findShipmentsByAwb(db: Executor, accountId: string, awbs: string[]) {
  return db
    .select({ id: shipments.id, awb: shipments.awb, status: shipments.status })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), inArray(shipments.awb, awbs)));
}
