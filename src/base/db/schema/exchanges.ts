import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { orders, shipments } from './shipments.js';
import { returns } from './returns.js';
import { accounts } from './tenancy.js';

// Exchanges (docs/returns.md): a replacement sent forward and the old item picked up, booked
// together by exchange-order-orchestration; and each account's exchange terms.

/**
 * One exchange: its two legs are an ordinary forward shipment (`forward_shipment_id`, with its
 * order) and an ordinary return (`return_id`), so the listings, tracking, labels and webhooks of
 * each leg are the usual ones; this row links them and keeps what belongs to the pair.
 */
export const exchanges = pgTable(
  'exchanges',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** The caller's `order_id`: Velocity's display_id, and what a repeated request is known by. */
    displayId: text('display_id').notNull(),
    /** Velocity's short reference of the exchange (`EX` and 10 characters), unique per account. */
    uniqueId: text('unique_id').notNull(),
    channel: text('channel').notNull(),
    returnReason: text('return_reason').notNull(),
    forwardOrderId: uuid('forward_order_id')
      .notNull()
      .references(() => orders.id),
    forwardShipmentId: uuid('forward_shipment_id')
      .notNull()
      .references(() => shipments.id),
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id),
    /** When the replacement may go: at_once, return_picked_up or qc_passed (the account's term when booked). */
    releaseOn: text('release_on').notNull(),
    /** True while the replacement waits on its release: labels and pickups refuse it (shipment-records/hold.ts). */
    replacementHeld: boolean('replacement_held').notNull(),
    /** When the returned item failed its quality check: the exchange is flagged for the merchant. */
    qcFailedAt: timestamptz('qc_failed_at'),
    /** The account's QC charge when it set one (else the courier's), and its exchange fee, when booked. */
    qcChargePaise: bigint('qc_charge_paise', { mode: 'number' }),
    exchangeChargePaise: bigint('exchange_charge_paise', { mode: 'number' }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('exchanges_account_display_key').on(t.accountId, t.displayId),
    uniqueIndex('exchanges_account_unique_key').on(t.accountId, t.uniqueId),
    uniqueIndex('exchanges_forward_shipment_key').on(t.forwardShipmentId),
    uniqueIndex('exchanges_return_key').on(t.returnId),
    index('exchanges_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id),
    index('exchanges_held_idx').on(t.returnId).where(sql`${t.replacementHeld}`),
    // Led by the foreign key: each order deleted (an account's deletion, issue 52) looks its rows up by it.
    index('exchanges_forward_order_fk_idx').on(t.forwardOrderId),
  ],
);

/** An account's exchange terms; no row: the replacement goes at once, the courier's QC charge, no fee. */
export const exchangeSettings = pgTable('exchange_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  releaseOn: text('release_on').notNull(),
  /** Null: the QC charge of the courier the return is booked with. */
  qcChargePaise: bigint('qc_charge_paise', { mode: 'number' }),
  exchangeChargePaise: bigint('exchange_charge_paise', { mode: 'number' }).notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
