import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { orders, refunds, returnRequests, returns, shipments, stores, weightDiscrepancies } from '../base/db/schema.js';
import type { FoundObject, LocateStores, NamedObjects } from '../domain/access/store-reach.js';
import { findBoxAwbs } from './box-awbs.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Shipments named by id or AWB, with their stores. */
async function shipmentStores(db: Executor, accountId: string, sent: readonly string[]): Promise<FoundObject[]> {
  if (sent.length === 0) return [];
  const ids = sent.filter((value) => UUID.test(value));
  const rows = await db
    .select({ id: shipments.id, awb: shipments.awb, storeId: shipments.storeId })
    .from(shipments)
    .where(
      and(
        eq(shipments.accountId, accountId),
        ids.length > 0
          ? sql`(${inArray(shipments.awb, [...sent])} or ${inArray(shipments.id, ids)})`
          : inArray(shipments.awb, [...sent]),
      ),
    );
  // A multi-piece shipment's box AWB names its shipment, as the routes that take AWBs read it.
  const boxes = await findBoxAwbs(
    db,
    accountId,
    sent.filter((value) => !rows.some((one) => one.awb === value || one.id === value.toLowerCase())),
  );
  return sent.flatMap((value) => {
    const row = rows.find((one) => one.awb === value || one.id === value.toLowerCase()) ?? boxes.get(value);
    return row ? [{ named: value, kind: 'shipment' as const, storeId: row.storeId }] : [];
  });
}

/**
 * Returns named by AWB, shipment id or id, each with its forward shipment's store: a return booked
 * without naming its forward shipment belongs to no store.
 */
async function returnStores(db: Executor, accountId: string, sent: readonly string[]): Promise<FoundObject[]> {
  const values = [...new Set(sent)];
  if (values.length === 0) return [];
  const ids = values.filter((value) => UUID.test(value));
  const rows = await db
    .select({ id: returns.id, shipmentId: returns.shipmentId, awb: returns.awb, storeId: shipments.storeId })
    .from(returns)
    .leftJoin(shipments, eq(shipments.id, returns.forwardShipmentId))
    .where(
      and(
        eq(returns.accountId, accountId),
        ids.length > 0
          ? sql`(${inArray(returns.awb, values)} or ${inArray(returns.shipmentId, ids)} or ${inArray(returns.id, ids)})`
          : inArray(returns.awb, values),
      ),
    );
  return values.flatMap((value) => {
    const lower = value.toLowerCase();
    const row = rows.find((one) => one.awb === value || one.shipmentId === lower || one.id === lower);
    return row ? [{ named: value, kind: 'return' as const, storeId: row.storeId }] : [];
  });
}

/**
 * The stores of the shipments, orders and stores a request names, for the hook that keeps a
 * store-limited credential to its own (issue 51): a shipment by id or AWB through their unique
 * indexes, an order by the merchant's order_id, a new order's store by its name. Those not found
 * are left out: the route answers them as it answers any unknown one.
 */
export function storeLocator(db: Executor): LocateStores {
  return async (accountId: string, named: NamedObjects) => {
    const found: FoundObject[] = [];
    const sent = [...new Set(named.shipments ?? [])];
    const shipped = await shipmentStores(db, accountId, sent);
    found.push(...shipped);
    // What is not a shipment may be a return, by its AWB, its shipment id or its id (cancel-order,
    // order-tracking and labels take both); and returns named as such (return_id).
    const left = sent.filter((value) => !shipped.some((one) => one.named === value));
    found.push(...(await returnStores(db, accountId, [...left, ...(named.returns ?? [])])));
    const orderIds = [...new Set(named.orders ?? [])];
    if (orderIds.length > 0) {
      const rows = await db
        .select({ merchantOrderId: orders.merchantOrderId, storeId: orders.storeId })
        .from(orders)
        .where(and(eq(orders.accountId, accountId), inArray(orders.merchantOrderId, orderIds)));
      for (const row of rows) found.push({ named: row.merchantOrderId, kind: 'order', storeId: row.storeId });
    }
    for (const [kind, table, ids] of [
      ['return_request', returnRequests, named.returnRequests],
      ['refund', refunds, named.refunds],
    ] as const) {
      const wanted = [...new Set(ids ?? [])].filter((id) => UUID.test(id));
      if (wanted.length === 0) continue;
      const rows = await db
        .select({ id: table.id, storeId: table.storeId })
        .from(table)
        .where(and(eq(table.accountId, accountId), inArray(table.id, wanted)));
      for (const row of rows) found.push({ named: row.id, kind, storeId: row.storeId });
    }
    const disputes = [...new Set(named.weightDisputes ?? [])].filter((id) => UUID.test(id));
    if (disputes.length > 0) {
      // A weight dispute is its shipment's store's.
      const rows = await db
        .select({ id: weightDiscrepancies.id, storeId: shipments.storeId })
        .from(weightDiscrepancies)
        .innerJoin(shipments, eq(shipments.id, weightDiscrepancies.shipmentId))
        .where(and(eq(weightDiscrepancies.accountId, accountId), inArray(weightDiscrepancies.id, disputes)));
      for (const row of rows) found.push({ named: row.id, kind: 'weight_dispute', storeId: row.storeId });
    }
    const pickupIds = [...new Set(named.pickups ?? [])].filter((id) => UUID.test(id));
    if (pickupIds.length > 0) {
      // Once per store among a pickup's parcels (a parcel of no store, as no store's).
      const rows = await db
        .selectDistinct({ id: shipments.pickupId, storeId: shipments.storeId })
        .from(shipments)
        .where(and(eq(shipments.accountId, accountId), inArray(shipments.pickupId, pickupIds)));
      for (const row of rows) found.push({ named: row.id!, kind: 'pickup', storeId: row.storeId });
    }
    for (const id of new Set(named.stores ?? []))
      found.push({ named: id, kind: 'store', storeId: UUID.test(id) ? id.toLowerCase() : null });
    const storeName = named.booksInto?.storeName;
    if (typeof storeName === 'string' && storeName.trim() !== '') {
      const [row] = await db
        .select({ id: stores.id })
        .from(stores)
        .where(
          and(eq(stores.accountId, accountId), eq(sql`lower(${stores.storeName})`, storeName.trim().toLowerCase())),
        );
      if (row) found.push({ named: storeName, kind: 'store', storeId: row.id });
    }
    return found;
  };
}
