import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

// The COD ledger: what couriers owe for cash collected on delivery, what they paid, and where the two differ.

/**
 * One per delivered COD shipment: the cash the courier collected and owes, and when it is due
 * (the courier's remittance cycle). pending → remitted (money arrived, not the expected sum) →
 * reconciled (received equals expected). Written in the tracking intake's transaction that
 * records the delivery, so a delivery is never without its receivable.
 */
export const codReceivables = pgTable(
  'cod_receivables',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    awb: text('awb').notNull(),
    carrierId: text('carrier_id').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    deliveredAt: timestamptz('delivered_at').notNull(),
    /** India's calendar day the courier's cycle makes the cash due. */
    expectedDate: date('expected_date', { mode: 'string' }).notNull(),
    state: text('state').notNull(),
    /** Sum of every remittance line applied to it. */
    receivedPaise: bigint('received_paise', { mode: 'number' }).notNull().default(0),
    /** The latest remittance's bank reference and date. */
    utr: text('utr'),
    remittanceDate: date('remittance_date', { mode: 'string' }),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    // Led by the foreign key, for the check of each shipment deleted (issue 52); readers give both columns.
    uniqueIndex('cod_receivables_shipment_account_key').on(t.shipmentId, t.accountId),
    index('cod_receivables_account_delivered_idx').on(t.accountId, t.deliveredAt, t.id),
    index('cod_receivables_account_expected_idx').on(t.accountId, t.carrierId, t.expectedDate),
    // The overdue check looks across accounts for pending cash past its day.
    index('cod_receivables_pending_due_idx').on(t.expectedDate).where(sql`${t.state} = 'pending'`),
    index('cod_receivables_account_utr_idx').on(t.accountId, t.utr),
  ],
);

/** One remittance file taken in (API or CLI), with what became of its lines. */
export const codRemittanceImports = pgTable('cod_remittance_imports', {
  id: uuid('id').primaryKey().defaultRandom(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  format: text('format').notNull(),
  source: text('source').notNull(),
  fileName: text('file_name'),
  lines: integer('lines').notNull(),
  applied: integer('applied').notNull(),
  duplicates: integer('duplicates').notNull(),
  problems: integer('problems').notNull(),
  appliedPaise: bigint('applied_paise', { mode: 'number' }).notNull(),
  createdAt: timestamptz('created_at').notNull(),
});

/**
 * One line of a courier's remittance: an amount paid for one AWB under one bank transfer (UTR).
 * The key (courier, UTR, AWB) makes a file taken twice change nothing. A line for a shipment that
 * was not delivered has no receivable, and a discrepancy says so.
 */
export const codRemittances = pgTable(
  'cod_remittances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    importId: uuid('import_id')
      .notNull()
      .references(() => codRemittanceImports.id),
    carrierId: text('carrier_id').notNull(),
    awb: text('awb').notNull(),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    receivableId: uuid('receivable_id').references(() => codReceivables.id),
    utr: text('utr').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    remittanceDate: date('remittance_date', { mode: 'string' }).notNull(),
    /** The file's line it came from. */
    line: integer('line').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('cod_remittances_key').on(t.accountId, t.carrierId, t.utr, t.awb),
    index('cod_remittances_account_date_idx').on(t.accountId, t.remittanceDate, t.id),
    index('cod_remittances_account_utr_idx').on(t.accountId, t.utr),
    index('cod_remittances_receivable_idx').on(t.receivableId),
    // A late delivery scan looks for the lines paid before it (insertReceivables). Led by the
    // foreign key, for the check of each shipment deleted (an account's deletion, issue 52).
    index('cod_remittances_shipment_account_idx').on(t.shipmentId, t.accountId),
    // Led by the foreign key: each remittance import deleted (an account's deletion, issue 52) looks its rows up by it.
    index('cod_remittances_import_fk_idx').on(t.importId),
  ],
);

/**
 * Where the money and the ledger disagree, kept as found and never overwritten: short_paid and
 * over_paid (a line left the receivable's total below or above the amount), paid_not_delivered
 * (a line for a shipment that was not delivered: an RTO paid as delivered), missing_from_remittance
 * (delivered, and still unpaid past its expected day; found by the scheduled check, once).
 */
export const codDiscrepancies = pgTable(
  'cod_discrepancies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind').notNull(),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    awb: text('awb').notNull(),
    carrierId: text('carrier_id').notNull(),
    receivableId: uuid('receivable_id').references(() => codReceivables.id),
    remittanceId: uuid('remittance_id').references(() => codRemittances.id),
    expectedPaise: bigint('expected_paise', { mode: 'number' }).notNull(),
    /** What the courier had paid for the AWB by then (every line so far). */
    receivedPaise: bigint('received_paise', { mode: 'number' }).notNull(),
    /** Due date of the receivable, for missing_from_remittance. */
    expectedDate: date('expected_date', { mode: 'string' }),
    detectedAt: timestamptz('detected_at').notNull(),
  },
  (t) => [
    index('cod_discrepancies_account_detected_idx').on(t.accountId, t.detectedAt, t.id),
    index('cod_discrepancies_receivable_idx').on(t.receivableId),
    // Led by the foreign keys: each shipment or remittance line deleted (an account's deletion,
    // issue 52) looks its discrepancies up by them.
    index('cod_discrepancies_shipment_fk_idx').on(t.shipmentId),
    index('cod_discrepancies_remittance_fk_idx').on(t.remittanceId).where(sql`${t.remittanceId} is not null`),
    uniqueIndex('cod_discrepancies_missing_key').on(t.receivableId).where(sql`${t.kind} = 'missing_from_remittance'`),
  ],
);
