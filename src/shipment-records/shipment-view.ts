import { eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { accounts, orders, shipments, stores, warehouses } from '../base/db/schema.js';
import { bookedBoxesColumn } from './shipment-boxes.js';

/**
 * Shipments with their order, warehouse, account name, store (null without one) and, for a
 * multi-piece shipment, its booked boxes (box number, AWB, status; [] for one box): the one
 * statement every reader of a shipment's customer and brand uses (labels, the tracking page,
 * customer e-mails). The caller's condition names the account, except where a link's own secret
 * is the credential.
 */
export function findShipmentViews(ex: Executor, where: SQL | undefined) {
  return ex
    .select({
      shipment: shipments,
      order: orders,
      warehouse: warehouses,
      accountName: accounts.name,
      store: {
        id: stores.id,
        storeName: stores.storeName,
        brandName: stores.brandName,
        logoSha256: stores.logoSha256,
        supportEmail: stores.supportEmail,
        supportPhone: stores.supportPhone,
        notifyEvents: stores.notifyEvents,
        language: stores.language,
      },
      boxes: bookedBoxesColumn(shipments.id, shipments.accountId),
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .innerJoin(warehouses, eq(warehouses.id, shipments.warehouseId))
    .innerJoin(accounts, eq(accounts.id, shipments.accountId))
    .leftJoin(stores, eq(stores.id, shipments.storeId))
    .where(where);
}

export type ShipmentView = Awaited<ReturnType<typeof findShipmentViews>>[number];

/**
 * findShipmentViews' tables and joins as plain SQL (shipments `s`, orders `o`, warehouses `w`,
 * accounts `a`, stores `st`), for a reader that needs a few of a view's columns for every event of a
 * batch (the customer e-mails): a shipment is in a view only with its order, warehouse and account.
 */
export const SHIPMENT_VIEW_FROM = sql`from shipments s
  join orders o on o.id = s.order_id
  join warehouses w on w.id = s.warehouse_id
  join accounts a on a.id = s.account_id
  left join stores st on st.id = s.store_id`;

/** The brand columns of a shipment view, flat, as customer e-mails and the tracking page read them. */
export const brandColumns = ({ accountName, store }: Pick<ShipmentView, 'accountName' | 'store'>) => ({
  accountName,
  storeId: store?.id ?? null,
  brandName: store?.brandName ?? null,
  logoSha256: store?.logoSha256 ?? null,
  supportEmail: store?.supportEmail ?? null,
  supportPhone: store?.supportPhone ?? null,
});
