import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts } from './tenancy.js';
import { shipments } from './shipments.js';

// Fewer parcels coming back (docs/rto.md): the delivered history risk is scored on, each account's
// thresholds and NDR rules, and what the rules did.

/**
 * Outcomes of an account's forward shipments per buyer phone, destination pincode and district
 * (`kind`: phone, pincode, district; `key`: 10 digits, 6 digits, "state|district"). Kept by the
 * tracking intake in the transaction that records a delivery, an RTO or a refusal, so a booking
 * reads a buyer's and an area's history as three rows of the primary key.
 */
export const rtoHistory = pgTable(
  'rto_history',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    delivered: integer('delivered').notNull().default(0),
    rto: integer('rto').notNull().default(0),
    refused: integer('refused').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'rto_history_pkey', columns: [t.accountId, t.kind, t.key] })],
);

/** An account's risk thresholds (null: the defaults) and NDR rules (an ordered list; none by default). */
export const rtoSettings = pgTable('rto_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  thresholds: jsonb('thresholds').$type<{ medium: number; high: number; high_value_paise: number }>(),
  ndrRules: jsonb('ndr_rules').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * Each action an NDR rule takes, planned when the NDR's event is read and carried out when due
 * (at once, or after the buyer's window for an RTO fallback), leased as webhook jobs are. One per
 * (shipment, failed attempt, action): a replayed event plans nothing twice.
 */
export const ndrRuleRuns = pgTable(
  'ndr_rule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    attempt: integer('attempt').notNull(),
    /** reattempt, rto, message_buyer, or rto_fallback (the RTO a message_buyer rule asked for if the buyer does not answer). */
    action: text('action').notNull(),
    /** The rule as it stood when it matched, and its place in the list. */
    ruleName: text('rule_name').notNull(),
    ruleIndex: integer('rule_index').notNull(),
    rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
    /** pending, done, refused (the NDR path said no: the reason is in outcome), skipped (nothing left to do). */
    status: text('status').notNull(),
    outcome: text('outcome'),
    /** The NDR instruction it made, when it made one. */
    actionId: uuid('action_id'),
    dueAt: timestamptz('due_at').notNull(),
    lockedUntil: timestamptz('locked_until'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('ndr_rule_runs_shipment_attempt_action_key').on(t.accountId, t.shipmentId, t.attempt, t.action),
    // Led by the foreign key: each shipment deleted (an account's deletion, issue 52) looks its rows up by it.
    index('ndr_rule_runs_shipment_fk_idx').on(t.shipmentId),
    index('ndr_rule_runs_due_idx').on(t.dueAt).where(sql`${t.status} = 'pending'`),
  ],
);
