import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { invoiceCounters, shipmentInvoices } from '../../base/db/schema.js';
import { financialYearOf } from '../../domain/paperwork/invoice-number.js';

// A store's invoice numbers, issued at booking (docs/paperwork.md, "The buyer's tax invoice"):
// the store's counter for the financial year raised and the shipment's number written, in the
// booking's own statement or transaction. Concurrent bookings of a store wait on its counter row
// until the first commits, so numbers are never repeated; a booking that fails or rolls back takes
// its raise with it, so none is skipped (rule 46(b): consecutive, unique for a financial year).

/** What numbering needs of a store: its id and its prefix, null while it has no invoice details. */
export interface InvoicingStore {
  id: string;
  invoicePrefix: string | null;
}

export interface InvoiceIssue {
  accountId: string;
  storeId: string;
  prefix: string;
  shipmentId: string;
  at: Date;
}

/** The counter raised (or begun at 1), answering the sequence: a data-modifying CTE's body. */
function raiseCounter(issue: InvoiceIssue, year: number): SQL {
  return sql`insert into ${invoiceCounters} (account_id, store_id, financial_year, last_sequence, updated_at)
    values (${issue.accountId}, ${issue.storeId}, ${year}, 1, ${issue.at.toISOString()}::timestamptz)
    on conflict (store_id, financial_year) do update
      set last_sequence = ${invoiceCounters}.last_sequence + 1, updated_at = excluded.updated_at
    returning last_sequence`;
}

/** The shipment's number, from the sequence the CTE `counter` answered. */
function writeNumber(issue: InvoiceIssue, year: number, counter: string): SQL {
  return sql`insert into ${shipmentInvoices} (shipment_id, account_id, store_id, financial_year, sequence, prefix, issued_at)
    select ${issue.shipmentId}::uuid, ${issue.accountId}::uuid, ${issue.storeId}::uuid, ${year}, last_sequence,
      ${issue.prefix}, ${issue.at.toISOString()}::timestamptz
    from ${sql.identifier(counter)}`;
}

/**
 * The two CTEs that number a shipment's invoice within a booking's one statement (orders'
 * insertOrder): the counter's, named `invoice_counter`, and the number's, which reads it.
 */
export function invoiceNumberCtes(issue: InvoiceIssue): { as: string; statement: SQL }[] {
  const year = financialYearOf(issue.at);
  return [
    { as: 'invoice_counter', statement: raiseCounter(issue, year) },
    { as: 'invoice_number', statement: writeNumber(issue, year, 'invoice_counter') },
  ];
}

/** Numbers a shipment's invoice in the caller's transaction: one statement, the counter raised and the number written. */
export async function issueInvoiceNumber(tx: Executor, issue: InvoiceIssue): Promise<void> {
  const year = financialYearOf(issue.at);
  await tx.execute(
    sql`with invoice_counter as (${raiseCounter(issue, year)}) ${writeNumber(issue, year, 'invoice_counter')}`,
  );
}

/** The issue for a booking of `store`'s shipment, or null when the store numbers no invoices. */
export function invoiceIssueFor(
  accountId: string,
  store: InvoicingStore | null | undefined,
  shipmentId: string,
  at: Date,
): InvoiceIssue | null {
  if (!store?.invoicePrefix) return null;
  return { accountId, storeId: store.id, prefix: store.invoicePrefix, shipmentId, at };
}
