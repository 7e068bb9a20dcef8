import { findInvoiceLines } from '../../shipment-records/invoice-lines.js';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { orders, shipmentInvoices, shipments, storeLogos, stores, warehouses } from '../../base/db/schema.js';
import { UUID } from '../../base/uuid.js';

/**
 * Everything a shipment's tax invoice prints, within the account: the shipment (by id or AWB), its
 * order and items, its warehouse, the number its booking issued (null when none was), and the store
 * that issued it (else the shipment's) with the seller's details and logo.
 */
export async function findInvoiceSource(db: Executor, accountId: string, idOrAwb: string) {
  const [row] = await db
    .select({
      shipment: {
        id: shipments.id,
        awb: shipments.awb,
        status: shipments.status,
        storeId: shipments.storeId,
      },
      order: orders,
      warehouse: warehouses,
      store: {
        id: stores.id,
        brandName: stores.brandName,
        legalName: stores.invoiceLegalName,
        gstin: stores.invoiceGstin,
        address: stores.invoiceAddress,
        prefix: stores.invoicePrefix,
        logoSha256: storeLogos.sha256,
        logoPng: storeLogos.labelPng,
      },
      number: {
        financialYear: shipmentInvoices.financialYear,
        sequence: shipmentInvoices.sequence,
        prefix: shipmentInvoices.prefix,
        issuedAt: shipmentInvoices.issuedAt,
      },
    })
    .from(shipments)
    .innerJoin(orders, and(eq(orders.accountId, accountId), eq(orders.id, shipments.orderId)))
    .innerJoin(warehouses, and(eq(warehouses.accountId, accountId), eq(warehouses.id, shipments.warehouseId)))
    .leftJoin(
      shipmentInvoices,
      and(eq(shipmentInvoices.accountId, accountId), eq(shipmentInvoices.shipmentId, shipments.id)),
    )
    // The store whose series numbered the invoice (an order moved to another store since keeps it), else the shipment's.
    .leftJoin(
      stores,
      and(
        eq(stores.accountId, accountId),
        eq(stores.id, sql`coalesce(${shipmentInvoices.storeId}, ${shipments.storeId})`),
      ),
    )
    .leftJoin(storeLogos, eq(storeLogos.storeId, stores.id))
    .where(
      and(
        eq(shipments.accountId, accountId),
        UUID.test(idOrAwb) ? eq(shipments.id, idOrAwb) : eq(shipments.awb, idOrAwb),
      ),
    );
  if (!row) return undefined;
  const items = await findInvoiceLines(db, accountId, row.order.id);
  return { ...row, items };
}

export type InvoiceSource = NonNullable<Awaited<ReturnType<typeof findInvoiceSource>>>;
