import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { orderItems } from '../base/db/schema.js';
import type { InvoiceLineInput } from '../domain/paperwork/invoice-tax.js';

/**
 * An order's lines as its tax is computed from them, in the order's own order: what the buyer's
 * tax invoice (features/labels) prints and an e-way bill's request (features/paperwork) declares,
 * so that the two documents of one consignment state the same values.
 */
export async function findInvoiceLines(db: Executor, accountId: string, orderId: string): Promise<InvoiceLineInput[]> {
  const rows = await db
    .select({
      name: orderItems.name,
      sku: orderItems.sku,
      hsn: orderItems.hsn,
      units: orderItems.units,
      unitPricePaise: orderItems.sellingPricePaise,
      unitDiscountPaise: orderItems.discountPaise,
      taxPercent: orderItems.taxPercent,
    })
    .from(orderItems)
    .where(and(eq(orderItems.accountId, accountId), eq(orderItems.orderId, orderId)))
    .orderBy(asc(orderItems.position));
  return rows;
}
