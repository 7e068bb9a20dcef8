import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea, timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

// Weight discrepancies and their evidence. The rest of a shipment's charge ledger (forward freight,
// COD fee, RTO freight) is read from the shipment row itself (domain/charges.ts), so booking and
// the tracking intake write nothing more than they did.

/**
 * A courier's charged weight above the shipment's applied weight: one per shipment (a second
 * report for the same AWB with the same weight changes nothing; with another weight it is refused).
 * States: open → accepted (by the merchant, or by the window running out) | disputed → won | lost.
 */
export const weightDiscrepancies = pgTable(
  'weight_discrepancies',
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
    /** The shipment's applied weight when the report came in. */
    declaredWeightGrams: doublePrecision('declared_weight_grams').notNull(),
    chargedWeightGrams: doublePrecision('charged_weight_grams').notNull(),
    chargedLengthCm: doublePrecision('charged_length_cm'),
    chargedBreadthCm: doublePrecision('charged_breadth_cm'),
    chargedHeightCm: doublePrecision('charged_height_cm'),
    /** The forward freight re-quoted at the charged weight, and its difference from the booked freight. */
    chargedFreightPaise: bigint('charged_freight_paise', { mode: 'number' }).notNull(),
    extraPaise: bigint('extra_paise', { mode: 'number' }).notNull(),
    state: text('state').notNull(),
    /** Who settled it: merchant (accepted), window (accepted when it ran out), operator (won or lost). */
    settledBy: text('settled_by'),
    comment: text('comment'),
    /** The operator's words on a won or lost dispute. */
    resolution: text('resolution'),
    openedAt: timestamptz('opened_at').notNull(),
    /** When an open discrepancy is accepted automatically. */
    dueAt: timestamptz('due_at').notNull(),
    disputedAt: timestamptz('disputed_at'),
    settledAt: timestamptz('settled_at'),
  },
  (t) => [
    // Led by the foreign key, for the check of each shipment deleted (issue 52); readers give both columns.
    uniqueIndex('weight_discrepancies_shipment_account_key').on(t.shipmentId, t.accountId),
    index('weight_discrepancies_account_opened_idx').on(t.accountId, t.openedAt, t.id),
    // The sweeper's look for open discrepancies past their window.
    index('weight_discrepancies_open_due_idx').on(t.dueAt).where(sql`${t.state} = 'open'`),
  ],
);

/** Up to five photos a merchant sends with a dispute, kept like store logos (bytes in the database). */
export const weightDisputeEvidence = pgTable(
  'weight_dispute_evidence',
  {
    discrepancyId: uuid('discrepancy_id')
      .notNull()
      .references(() => weightDiscrepancies.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    position: smallint('position').notNull(),
    contentType: text('content_type').notNull(),
    sha256: text('sha256').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.discrepancyId, t.position] })],
);
