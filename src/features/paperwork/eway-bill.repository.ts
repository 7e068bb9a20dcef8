import { findInvoiceLines } from '../../shipment-records/invoice-lines.js';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { ewayBillGateways, orders, shipmentInvoices, shipments, stores, warehouses } from '../../base/db/schema.js';

export type GatewayRow = typeof ewayBillGateways.$inferSelect;

export async function findGateway(db: Executor, accountId: string): Promise<GatewayRow | undefined> {
  const [row] = await db.select().from(ewayBillGateways).where(eq(ewayBillGateways.accountId, accountId));
  return row;
}

/** Writes the account's gateway, replacing the one it had. */
export async function saveGateway(db: Executor, accountId: string, values: Omit<GatewayRow, 'accountId'>) {
  await db
    .insert(ewayBillGateways)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: ewayBillGateways.accountId, set: values });
}

/** Forgets it; true when there was one. */
export async function deleteGateway(db: Executor, accountId: string): Promise<boolean> {
  const gone = await db
    .delete(ewayBillGateways)
    .where(eq(ewayBillGateways.accountId, accountId))
    .returning({ accountId: ewayBillGateways.accountId });
  return gone.length > 0;
}

/**
 * What Part A is built from, within the account: the order by the merchant's id, its warehouse, its
 * items, the store's seller name, and its shipment's tax invoice number when its booking issued one.
 */
export async function findBillSource(db: Executor, accountId: string, merchantOrderId: string) {
  const [row] = await db
    .select({
      order: orders,
      warehouse: warehouses,
      store: { legalName: stores.invoiceLegalName, brandName: stores.brandName },
      invoice: {
        financialYear: shipmentInvoices.financialYear,
        sequence: shipmentInvoices.sequence,
        prefix: shipmentInvoices.prefix,
        issuedAt: shipmentInvoices.issuedAt,
      },
    })
    .from(orders)
    .innerJoin(warehouses, and(eq(warehouses.accountId, accountId), eq(warehouses.id, orders.warehouseId)))
    .leftJoin(stores, and(eq(stores.accountId, accountId), eq(stores.id, orders.storeId)))
    .leftJoin(shipments, and(eq(shipments.accountId, accountId), eq(shipments.orderId, orders.id)))
    .leftJoin(
      shipmentInvoices,
      and(eq(shipmentInvoices.accountId, accountId), eq(shipmentInvoices.shipmentId, shipments.id)),
    )
    .where(and(eq(orders.accountId, accountId), eq(orders.merchantOrderId, merchantOrderId)))
    .limit(1);
  if (!row) return undefined;
  const items = await findInvoiceLines(db, accountId, row.order.id);
  return { ...row, items };
}

export type BillSource = NonNullable<Awaited<ReturnType<typeof findBillSource>>>;

/** Keeps the bill on the order unless one came first; true when written. */
export async function keepEwayBill(
  db: Executor,
  accountId: string,
  orderId: string,
  bill: { number: string; date: string },
): Promise<boolean> {
  const kept = await db
    .update(orders)
    .set({ ewaybillNo: bill.number, ewaybillDate: bill.date })
    .where(and(eq(orders.accountId, accountId), eq(orders.id, orderId), isNull(orders.ewaybillNo)))
    .returning({ id: orders.id });
  return kept.length > 0;
}
