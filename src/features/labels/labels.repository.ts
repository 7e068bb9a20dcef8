import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { findShipmentViews } from '../../shipment-records/shipment-view.js';
import { orderItems, returns, shipments, storeLogos, stores } from '../../base/db/schema.js';
import { UUID } from '../../base/uuid.js';

/**
 * Everything printed on a label. Found by shipment id alone: the caller holds a signed link for
 * that id, which is the authorisation; every other row is then read within the shipment's account.
 */
export async function findLabelSource(db: Executor, shipmentId: string) {
  const [view] = await findShipmentViews(db, eq(shipments.id, shipmentId));
  if (!view) return undefined;
  const row = {
    shipment: view.shipment,
    order: view.order,
    warehouse: view.warehouse,
    accountName: view.accountName,
    boxes: view.boxes,
  };
  const accountId = row.shipment.accountId;
  const items = await db
    .select({ name: orderItems.name, sku: orderItems.sku, units: orderItems.units })
    .from(orderItems)
    .where(and(eq(orderItems.accountId, accountId), eq(orderItems.orderId, row.order.id)))
    .orderBy(asc(orderItems.position));
  const [store] = row.order.storeId
    ? await db
        .select({
          id: stores.id,
          brandName: stores.brandName,
          logoSha256: storeLogos.sha256,
          logoPng: storeLogos.labelPng,
        })
        .from(stores)
        .leftJoin(storeLogos, eq(storeLogos.storeId, stores.id))
        .where(and(eq(stores.accountId, accountId), eq(stores.id, row.order.storeId)))
    : [];
  return { ...row, items, store };
}

/** The account's shipment by its id or its AWB. */
export async function findAccountShipment(db: Executor, accountId: string, idOrAwb: string) {
  const [row] = await db
    .select({ id: shipments.id, awb: shipments.awb, status: shipments.status })
    .from(shipments)
    .where(
      and(
        eq(shipments.accountId, accountId),
        UUID.test(idOrAwb) ? eq(shipments.id, idOrAwb) : eq(shipments.awb, idOrAwb),
      ),
    );
  return row;
}

/** The account's shipments and returns with these AWBs: the rest are unknown to it (or another account's). */
export async function findAccountLabelsByAwbs(db: Executor, accountId: string, awbs: string[]) {
  const forward = await db
    .select({ id: shipments.id, awb: shipments.awb, status: shipments.status })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), inArray(shipments.awb, awbs)));
  const found = new Set(forward.map((row) => row.awb));
  const missing = awbs.filter((awb) => !found.has(awb));
  const backward = missing.length
    ? await db
        .select({ id: returns.shipmentId, awb: returns.awb, status: returns.status })
        .from(returns)
        .where(and(eq(returns.accountId, accountId), inArray(returns.awb, missing)))
    : [];
  return [
    ...forward,
    // A cancelled return's label is void exactly as a cancelled shipment's.
    ...backward.map((row) => ({ ...row, status: row.status === 'return_cancelled' ? 'cancelled' : row.status })),
  ];
}

/** The account's forward shipment, locked for a re-issue of its label. */
export async function lockAccountShipment(tx: Executor, accountId: string, idOrAwb: string) {
  const [row] = await tx
    .select({ id: shipments.id, awb: shipments.awb, status: shipments.status, labelVersion: shipments.labelVersion })
    .from(shipments)
    .where(
      and(
        eq(shipments.accountId, accountId),
        UUID.test(idOrAwb) ? eq(shipments.id, idOrAwb) : eq(shipments.awb, idOrAwb),
      ),
    )
    .for('update');
  return row;
}

export async function bumpLabelVersion(tx: Executor, accountId: string, shipmentId: string, at: Date) {
  const [row] = await tx
    .update(shipments)
    // The new version has not been printed yet: a later change (COD to prepaid) asks whether it was.
    .set({ labelVersion: sql`${shipments.labelVersion} + 1`, labelReissuedAt: at, labelPrintedAt: null, updatedAt: at })
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)))
    .returning({ labelVersion: shipments.labelVersion });
  return row!.labelVersion;
}

/** The first fetch of a label version's PDF; later fetches leave the time as it is. */
export async function markLabelPrinted(ex: Executor, accountId: string, shipmentId: string, at: Date) {
  await ex
    .update(shipments)
    .set({ labelPrintedAt: at })
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId), isNull(shipments.labelPrintedAt)));
}
