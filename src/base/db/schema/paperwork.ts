import { integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts, stores } from './tenancy.js';

/**
 * An account's paperwork settings (docs/paperwork.md): whether booking an order that needs an
 * e-way bill and has none is refused (the default) or only warned of.
 */
export const paperworkSettings = pgTable('paperwork_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  ewayBillCheck: text('eway_bill_check').$type<'refuse' | 'warn'>().notNull().default('refuse'),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * The last invoice number a store issued in a financial year (2025 for 2025-26): the booking that
 * issues the next one raises it in its own statement (insert … on conflict do update … returning),
 * so concurrent bookings wait on this row and a booking rolled back leaves no gap (rule 46(b)).
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    storeId: uuid('store_id')
      .notNull()
      .references(() => stores.id),
    financialYear: integer('financial_year').notNull(),
    lastSequence: integer('last_sequence').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.financialYear] })],
);

/**
 * A shipment's tax invoice number, issued at its booking: the store's series, the financial year,
 * the sequence within it and the prefix it was issued under (the number is written from these:
 * domain/paperwork/invoice-number.ts).
 */
export const shipmentInvoices = pgTable(
  'shipment_invoices',
  {
    shipmentId: uuid('shipment_id')
      .primaryKey()
      .references(() => shipments.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    storeId: uuid('store_id')
      .notNull()
      .references(() => stores.id),
    financialYear: integer('financial_year').notNull(),
    sequence: integer('sequence').notNull(),
    prefix: text('prefix').notNull(),
    issuedAt: timestamptz('issued_at').notNull(),
  },
  (t) => [uniqueIndex('shipment_invoices_series_key').on(t.storeId, t.financialYear, t.sequence)],
);

/**
 * An account's credentials for generating e-way bills through a GST Suvidha Provider (docs/paperwork.md,
 * "Generation through a GSP"): the GSP's base URL, the GSTIN whose e-way bill user they are and the
 * e-mail the GSP knows the account by, in clear (shown back); the client id and secret and the e-way
 * bill user's name and password sealed with the secret box (base/secret-box.ts), never shown. No row:
 * generation is off for the account.
 */
export const ewayBillGateways = pgTable('eway_bill_gateways', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  baseUrl: text('base_url').notNull(),
  gstin: text('gstin').notNull(),
  email: text('email').notNull(),
  sealed: text('sealed').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
