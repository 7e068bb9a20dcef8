import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { orders, refunds, returnRequests, shipments, stores } from '../base/db/schema.js';
import type { FoundObject, LocateStores, NamedObjects } from '../domain/access/store-reach.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
    if (sent.length > 0) {
      const ids = sent.filter((value) => UUID.test(value));
      const rows = await db
        .select({ id: shipments.id, awb: shipments.awb, storeId: shipments.storeId })
        .from(shipments)
        .where(
          and(
            eq(shipments.accountId, accountId),
            ids.length > 0
              ? sql`(${inArray(shipments.awb, sent)} or ${inArray(shipments.id, ids)})`
              : inArray(shipments.awb, sent),
          ),
        );
      for (const value of sent) {
        const row = rows.find((one) => one.awb === value || one.id === value.toLowerCase());
        if (row) found.push({ named: value, kind: 'shipment', storeId: row.storeId });
      }
    }
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
