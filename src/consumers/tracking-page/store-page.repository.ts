import { and, eq, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { accounts, orders, shipments, stores } from '../../base/db/schema.js';
import { findWithBoxAwb } from '../../shipment-records/box-awbs.js';

// The store's tracking page (store-page.routes.ts): every shipment lookup is scoped by the store's
// account and the store itself, so a shipment of another account, or of another store of the same
// account, is not there to be found: the page cannot tell it from one that does not exist.

/** A connected store, with what its page shows; a disconnected one has no page. */
export async function findConnectedStore(db: Executor, storeId: string) {
  const [row] = await db
    .select({
      id: stores.id,
      accountId: stores.accountId,
      status: stores.status,
      brandName: stores.brandName,
      accountName: accounts.name,
      logoSha256: stores.logoSha256,
      supportEmail: stores.supportEmail,
      supportPhone: stores.supportPhone,
      language: stores.language,
    })
    .from(stores)
    .innerJoin(accounts, eq(accounts.id, stores.accountId))
    .where(eq(stores.id, storeId));
  return row?.status === 'connected' ? row : undefined;
}

export type PublicStore = NonNullable<Awaited<ReturnType<typeof findConnectedStore>>>;

/**
 * The store's shipment with this AWB (or a box's of it), with the order's two phones: its link's
 * token is handed out only to the one who gives one of them (store-page.routes.ts), never for the
 * AWB alone.
 */
export async function findAwbOrder(db: Executor, store: PublicStore, awb: string) {
  const found = await findWithBoxAwb(db, store.accountId, awb, async (key) => {
    const [row] = await db
      .select({ token: shipments.trackToken, shippingPhone: orders.shippingPhone, billingPhone: orders.billingPhone })
      .from(shipments)
      .innerJoin(orders, and(eq(orders.accountId, shipments.accountId), eq(orders.id, shipments.orderId)))
      .where(
        and(
          key === awb ? eq(shipments.awb, awb) : eq(shipments.id, key),
          eq(shipments.accountId, store.accountId),
          eq(shipments.storeId, store.id),
        ),
      );
    return row;
  });
  return found?.found;
}

/** The store's booked shipment of this order (the merchant's order id), with the order's two phones. */
export async function findBookedOrder(db: Executor, store: PublicStore, merchantOrderId: string) {
  const [row] = await db
    .select({ token: shipments.trackToken, shippingPhone: orders.shippingPhone, billingPhone: orders.billingPhone })
    .from(orders)
    .innerJoin(shipments, and(eq(shipments.accountId, orders.accountId), eq(shipments.orderId, orders.id)))
    .where(
      and(
        eq(orders.accountId, store.accountId),
        eq(orders.merchantOrderId, merchantOrderId),
        eq(shipments.storeId, store.id),
        isNotNull(shipments.awb),
      ),
    );
  return row;
}
