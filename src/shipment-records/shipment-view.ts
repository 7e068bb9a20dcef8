import { eq, type SQL } from 'drizzle-orm';
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

/** The brand columns of a shipment view, flat, as customer e-mails and the tracking page read them. */
export const brandColumns = ({ accountName, store }: Pick<ShipmentView, 'accountName' | 'store'>) => ({
  accountName,
  storeId: store?.id ?? null,
  brandName: store?.brandName ?? null,
  logoSha256: store?.logoSha256 ?? null,
  supportEmail: store?.supportEmail ?? null,
  supportPhone: store?.supportPhone ?? null,
});
