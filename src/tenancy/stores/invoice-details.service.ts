import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import { invalid } from '../../domain/errors.js';
import { GST_STATE_CODES, gstinProblems } from '../../domain/paperwork/gstin.js';
import { invoicePrefixProblem } from '../../domain/paperwork/invoice-number.js';
import { auditRecorder } from '../audit/audit.js';
import type { InvoiceDetailsBody } from './invoice-details.schemas.js';
import { STORE_ERRORS } from './stores.errors.js';
import { findStore, setInvoiceDetails, type StoreRow } from './stores.repository.js';

// A store's seller details for its buyers' tax invoices (docs/paperwork.md): set together, read back.

export type InvoiceDetailsService = ReturnType<typeof createInvoiceDetailsService>;

const view = (row: StoreRow) => ({
  store_id: row.id,
  legal_name: row.invoiceLegalName,
  gstin: row.invoiceGstin,
  state: row.invoiceGstin ? (GST_STATE_CODES[row.invoiceGstin.slice(0, 2)] ?? null) : null,
  address: row.invoiceAddress,
  invoice_prefix: row.invoicePrefix,
});

export function createInvoiceDetailsService({ db, clock }: { db: Db; clock: Clock }) {
  const record = auditRecorder(clock);
  return {
    async get(accountId: string, storeId: string) {
      const row = await findStore(db, accountId, storeId);
      if (!row) throw STORE_ERRORS.store_not_found.error('Store not found');
      return view(row);
    },

    /**
     * All four together. A GSTIN whose state code or check character is wrong is refused here
     * (Velocity-style leniency ends where a tax invoice begins): an invoice must not carry it.
     */
    async set(actor: Actor, storeId: string, body: InvoiceDetailsBody) {
      const gstin = body.gstin.trim().toUpperCase();
      const problems = gstinProblems(gstin);
      if (problems.length > 0) throw invalid(`gstin ${gstin} is not a valid GSTIN: ${problems.join('; ')}`, 'gstin');
      // The schema states the prefix's form; this says why in the same words if a caller skipped it.
      const prefixProblem = invoicePrefixProblem(body.invoice_prefix);
      if (prefixProblem) throw invalid(`invoice_prefix ${prefixProblem}`, 'invoice_prefix');
      const row = await db.transaction(async (tx) => {
        const updated = await setInvoiceDetails(tx, actor.accountId, storeId, {
          invoiceLegalName: body.legal_name.trim(),
          invoiceGstin: gstin,
          invoiceAddress: body.address.trim(),
          invoicePrefix: body.invoice_prefix,
        });
        if (!updated) throw STORE_ERRORS.store_not_found.error('Store not found');
        await record(tx, actor, {
          action: 'store.invoice_details_set',
          objectType: 'store',
          objectId: storeId,
          changes: { gstin, invoice_prefix: body.invoice_prefix },
        });
        return updated;
      });
      return view(row);
    },
  };
}
