import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea, timestamptz } from './columns.js';
import { exchanges } from './exchanges.js';
import { type ReturnAddress, returns } from './returns.js';
import { orders, shipments } from './shipments.js';
import { accounts, stores } from './tenancy.js';

// Returns the buyer asks for (docs/returns.md): each store's policy, and the requests.

/**
 * A store's return policy: whether and for how long its buyers may ask for a return, the reasons
 * they may give, and what it never takes back. A store without a row takes no requests.
 */
export const returnPolicies = pgTable('return_policies', {
  storeId: uuid('store_id')
    .primaryKey()
    .references(() => stores.id),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  /** Days after delivery (India days); 0: no requests. */
  windowDays: integer('window_days').notNull(),
  /** Codes of domain/return-requests/return-reasons.ts, in the order the buyer sees them. */
  reasons: text('reasons').array().notNull(),
  nonReturnableSkus: text('non_returnable_skus').array().notNull(),
  nonReturnableCategories: text('non_returnable_categories').array().notNull(),
  /** A refund's terms (domain/return-requests/refund-rules.ts): a whole percentage kept, the return's fee, when it falls due. */
  refundDeductionPercent: integer('refund_deduction_percent').notNull().default(0),
  returnShippingFeePaise: bigint('return_shipping_fee_paise', { mode: 'number' }).notNull().default(0),
  refundRelease: text('refund_release').notNull().default('warehouse'),
  /** Whether buyers may take a refund as store credit. */
  storeCredit: boolean('store_credit').notNull().default(false),
  /** The rules that decide a request as it comes in, in order: domain/return-requests/auto-decisions.ts's AutoRule each. */
  autoRules: jsonb('auto_rules').$type<object[]>().notNull().default([]),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** One photo of a request as its row lists it (the stored copy, re-encoded: see return-photos.ts). */
export interface ReturnPhotoRef {
  position: number;
  content_type: string;
  width: number;
  height: number;
  size: number;
}

/**
 * A buyer's request to send items of a delivered order back: `pending` until the merchant (or the
 * store's rules) decides, then `approved` or `rejected`; `withdrawn` when the buyer takes it back.
 */
export const returnRequests = pgTable(
  'return_requests',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** The delivered forward shipment asked about, and its order and store. */
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    storeId: uuid('store_id')
      .notNull()
      .references(() => stores.id),
    status: text('status').notNull(),
    reason: text('reason').notNull(),
    comment: text('comment'),
    /** `refund` or `exchange`. */
    resolution: text('resolution').notNull(),
    /** For an exchange: what the buyer wants instead (another size or colour, or another SKU of the order). */
    exchangeFor: text('exchange_for'),
    pickup: jsonb('pickup').$type<ReturnAddress>().notNull(),
    /**
     * A refund's payee as answers show it (domain/return-requests/refund-payee.ts: a UPI id's handle
     * and an account number masked), and in full, sealed like the accounts' credentials. Null: an
     * exchange, or a COD refund whose method is still to be agreed.
     */
    refundTo: jsonb('refund_to').$type<Record<string, string>>(),
    refundToSealed: text('refund_to_sealed'),
    /** The buyer's photos, in the order given: what each is; the bytes are in return_request_photos. */
    photos: jsonb('photos').$type<ReturnPhotoRef[]>().notNull().default([]),
    /** The page's language when the buyer asked: what they are written to in. */
    language: text('language').notNull(),
    /** The merchant's decision: when, and the words the buyer is told (a rejection's reason). */
    decidedAt: timestamptz('decided_at'),
    decisionNote: text('decision_note'),
    /** Who decided: the merchant, or the store's rule at `decisionRule` (its place in the rules, from 0). */
    decidedBy: text('decided_by'),
    decisionRule: integer('decision_rule'),
    /** The return an approval booked (the courier's pickup of the items). */
    returnId: uuid('return_id').references(() => returns.id),
    /** An exchange request's approval: the exchange it booked (the replacement, and `returnId` its pickup). */
    exchangeId: uuid('exchange_id').references(() => exchanges.id),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    // Led by the foreign keys, for the check of each shipment, order, return or exchange deleted
    // (an account's deletion, issue 52); the readers by shipment give the account too.
    index('return_requests_shipment_account_idx').on(t.shipmentId, t.accountId),
    index('return_requests_order_fk_idx').on(t.orderId),
    index('return_requests_return_fk_idx').on(t.returnId).where(sql`${t.returnId} is not null`),
    index('return_requests_exchange_fk_idx').on(t.exchangeId).where(sql`${t.exchangeId} is not null`),
    // The queue (GET /return-requests): oldest first, all or by status.
    index('return_requests_account_created_idx').on(t.accountId, t.createdAt, t.id),
    index('return_requests_account_status_created_idx').on(t.accountId, t.status, t.createdAt, t.id),
  ],
);

export const returnRequestItems = pgTable(
  'return_request_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    requestId: uuid('request_id')
      .notNull()
      .references(() => returnRequests.id),
    position: integer('position').notNull(),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    units: integer('units').notNull(),
  },
  (t) => [
    index('return_request_items_request_idx').on(t.accountId, t.requestId, t.position),
    // Led by the foreign key: each request deleted (an account's deletion, issue 52) looks its rows up by it.
    index('return_request_items_request_fk_idx').on(t.requestId),
  ],
);

/** The bytes of a request's photos, apart from the request so that reading requests never loads them. */
export const returnRequestPhotos = pgTable(
  'return_request_photos',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    requestId: uuid('request_id')
      .notNull()
      .references(() => returnRequests.id),
    position: integer('position').notNull(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.position] })],
);

/**
 * What the buyer of an approved refund request is owed (docs/returns.md), recorded, not paid: the
 * merchant's payment system pays it and reports back. `released_at` is when it fell due by the
 * store's release rule (the return picked up, at the warehouse, or through QC).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    requestId: uuid('request_id')
      .notNull()
      .references(() => returnRequests.id),
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id),
    storeId: uuid('store_id')
      .notNull()
      .references(() => stores.id),
    status: text('status').notNull(),
    itemsPaise: bigint('items_paise', { mode: 'number' }).notNull(),
    deductionPaise: bigint('deduction_paise', { mode: 'number' }).notNull(),
    returnShippingFeePaise: bigint('return_shipping_fee_paise', { mode: 'number' }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    /**
     * How the buyer is paid: `original` (the prepaid order's method), `upi`, `bank_transfer` or
     * `store_credit` as the request gave it, or `to_be_agreed` (a COD order's, when none was given).
     */
    method: text('method').notNull(),
    /** The request's payee, masked and sealed (return_requests.refund_to). */
    payee: jsonb('payee').$type<Record<string, string>>(),
    payeeSealed: text('payee_sealed'),
    releaseOn: text('release_on').notNull(),
    releasedAt: timestamptz('released_at'),
    /** The payment system's reference once paid (a UTR for a bank transfer or UPI). */
    utr: text('utr'),
    failureReason: text('failure_reason'),
    initiatedAt: timestamptz('initiated_at'),
    completedAt: timestamptz('completed_at'),
    failedAt: timestamptz('failed_at'),
    /** When its return was cancelled before the refund fell due: nothing is owed. */
    cancelledAt: timestamptz('cancelled_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('refunds_request_idx').on(t.requestId),
    // One refund to a return (one approval books one return): the returns listing joins it.
    uniqueIndex('refunds_return_key').on(t.returnId),
    index('refunds_account_created_idx').on(t.accountId, t.createdAt, t.id),
    index('refunds_account_status_created_idx').on(t.accountId, t.status, t.createdAt, t.id),
  ],
);
