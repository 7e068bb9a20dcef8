import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { pickups } from './pickups.js';
import { accounts, stores, warehouses } from './tenancy.js';

// Orders, their shipments, the listing counters and milestones, and the AWB series.

/** One box of a multi-piece order: grams and centimetres, and the items it holds by SKU. */
export interface OrderPackage {
  weightGrams: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
  items: { sku: string; units: number }[];
}

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** The merchant's own order id (SPEC's order_id; shown as display_id and external_id). */
    merchantOrderId: text('merchant_order_id').notNull(),
    storeId: uuid('store_id').references(() => stores.id),
    warehouseId: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    channel: text('channel').notNull(),
    orderDate: timestamptz('order_date').notNull(),
    paymentMethod: text('payment_method').notNull(),
    subTotalPaise: bigint('sub_total_paise', { mode: 'number' }).notNull(),
    codCollectiblePaise: bigint('cod_collectible_paise', { mode: 'number' }).notNull(),
    billingName: text('billing_name').notNull(),
    billingLastName: text('billing_last_name'),
    billingAddress: text('billing_address').notNull(),
    billingAddress2: text('billing_address_2'),
    billingCity: text('billing_city').notNull(),
    billingPincode: text('billing_pincode').notNull(),
    billingState: text('billing_state').notNull(),
    billingCountry: text('billing_country').notNull(),
    billingEmail: text('billing_email'),
    billingPhone: text('billing_phone').notNull(),
    shippingIsBilling: boolean('shipping_is_billing').notNull(),
    shippingName: text('shipping_name').notNull(),
    shippingLastName: text('shipping_last_name'),
    shippingAddress: text('shipping_address').notNull(),
    shippingAddress2: text('shipping_address_2'),
    shippingCity: text('shipping_city').notNull(),
    shippingPincode: text('shipping_pincode').notNull(),
    shippingState: text('shipping_state').notNull(),
    shippingCountry: text('shipping_country').notNull(),
    shippingEmail: text('shipping_email'),
    shippingPhone: text('shipping_phone').notNull(),
    /** Another phone for the courier to call, from the buyer's "update your address" form (docs/rto.md); +91 form. */
    shippingAlternatePhone: text('shipping_alternate_phone'),
    lengthCm: doublePrecision('length_cm').notNull(),
    breadthCm: doublePrecision('breadth_cm').notNull(),
    heightCm: doublePrecision('height_cm').notNull(),
    weightGrams: doublePrecision('weight_grams').notNull(),
    tags: text('tags').array().notNull(),
    printLabel: boolean('print_label').notNull(),
    /** The merchant's own channel reference (Velocity's channel_id); `channel` stays manual_order. */
    channelRef: text('channel_ref'),
    /** The sales channel (shopify, woocommerce) the order came in from, and the store's id and name of it ("#1001"). */
    salesChannelId: uuid('sales_channel_id'),
    channelOrderId: text('channel_order_id'),
    channelOrderName: text('channel_order_name'),
    companyName: text('company_name'),
    /** The buyer's GSTIN (billing_gstin; Dakiya's addition), printed on its tax invoice: a B2B supply. */
    buyerGstin: text('buyer_gstin'),
    totalDiscountPaise: bigint('total_discount_paise', { mode: 'number' }).notNull().default(0),
    /** Velocity's vendor_details: the seller the parcel ships for, as sent (snake_case keys). */
    vendorDetails: jsonb('vendor_details').$type<Record<string, string>>(),
    /** The language the merchant set for this order's buyer, over the store's (domain/buyer-copy/page-text.ts). */
    language: text('language'),
    /** The e-way bill the merchant generated (rule 138; docs/paperwork.md): its 12-digit number and day (YYYY-MM-DD). */
    ewaybillNo: text('ewaybill_no'),
    ewaybillDate: date('ewaybill_date', { mode: 'string' }),
    /**
     * The boxes a multi-piece order ships in (Dakiya's `packages[]`, docs/paperwork.md), each with its
     * own weight and size and the items it holds; null for an order in one box (the columns above).
     */
    packages: jsonb('packages').$type<OrderPackage[]>(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('orders_account_merchant_order_key').on(t.accountId, t.merchantOrderId),
    // The listing's search by a buyer's whole phone (readers/shipments withSearchKeys), and erasure's by phone.
    index('orders_account_shipping_phone_idx').on(t.accountId, t.shippingPhone),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    sku: text('sku').notNull(),
    units: integer('units').notNull(),
    sellingPricePaise: bigint('selling_price_paise', { mode: 'number' }).notNull(),
    discountPaise: bigint('discount_paise', { mode: 'number' }).notNull(),
    taxPercent: doublePrecision('tax_percent'),
    hsn: text('hsn'),
    /** The merchant's category of the item (Dakiya's addition): a return policy may refuse categories. */
    category: text('category'),
  },
  (t) => [
    index('order_items_order_idx').on(t.accountId, t.orderId, t.position),
    // Led by the foreign key: each order deleted (an account's deletion, issue 52) looks its rows up by it.
    index('order_items_order_fk_idx').on(t.orderId),
  ],
);

/**
 * One forward shipment per order. The columns the listing filters on are copied here from the
 * order (store, channel, order date, SKUs, tags, search text) so every filter, sort and count runs
 * on this one table and its indexes, never a join, at millions of rows.
 */
export const shipments = pgTable(
  'shipments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    warehouseId: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    storeId: uuid('store_id').references(() => stores.id),
    channel: text('channel').notNull(),
    orderDate: timestamptz('order_date').notNull(),
    status: text('status').notNull(),
    subStatus: text('sub_status'),
    zone: text('zone').notNull(),
    isCod: boolean('is_cod').notNull(),
    codAmountPaise: bigint('cod_amount_paise', { mode: 'number' }).notNull(),
    totalPricePaise: bigint('total_price_paise', { mode: 'number' }).notNull(),
    appliedWeightGrams: doublePrecision('applied_weight_grams').notNull(),
    carrierId: text('carrier_id'),
    awb: text('awb'),
    freightPaise: bigint('freight_paise', { mode: 'number' }),
    codChargesPaise: bigint('cod_charges_paise', { mode: 'number' }),
    rtoChargesPaise: bigint('rto_charges_paise', { mode: 'number' }),
    attemptCount: integer('attempt_count').notNull().default(0),
    ndrReason: text('ndr_reason'),
    rtoReason: text('rto_reason'),
    skus: text('skus').array().notNull(),
    tags: text('tags').array().notNull(),
    /** Lower-cased AWB, order ids, customer name, phone, email, city and pincode, for trigram search. */
    searchText: text('search_text').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    assignedAt: timestamptz('assigned_at'),
    pickedUpAt: timestamptz('picked_up_at'),
    deliveredAt: timestamptz('delivered_at'),
    cancelledAt: timestamptz('cancelled_at'),
    rtoInitiatedAt: timestamptz('rto_initiated_at'),
    rtoDeliveredAt: timestamptz('rto_delivered_at'),
    /** The pickup and delivery dates (India time) of the quote the shipment was booked on. */
    expectedPickupDate: date('expected_pickup_date', { mode: 'string' }),
    expectedDeliveryDate: date('expected_delivery_date', { mode: 'string' }),
    /** The courier's sort (routing) code for the destination, from its booking answer; null when it gives none. */
    routingCode: text('routing_code'),
    /**
     * Barcodes the courier prints on its own label besides the AWB (Ekart's vendor waybill and COD
     * waybill), each with its caption, from its booking answer; Dakiya's label prints them too.
     * Null when the courier gives none.
     */
    courierBarcodes: jsonb('courier_barcodes').$type<{ label: string; value: string }[]>(),
    /** Booked with a waybill no courier issued (the sandbox, or a push courier without an allotted series): a test booking. */
    testMode: boolean('test_mode').notNull().default(false),
    /** 1 for the label made at booking, one more per re-issue; printed on labels after the first. */
    labelVersion: integer('label_version').notNull().default(1),
    /** The latest re-issue: label links signed before it answer 410 (features/labels). */
    labelReissuedAt: timestamptz('label_reissued_at'),
    /** When the current label version's PDF was first fetched (features/labels): a re-issue clears it. */
    labelPrintedAt: timestamptz('label_printed_at'),
    /**
     * The secret in the customer's tracking link (PUBLIC_BASE_URL/t/<token>): random, never derived
     * from the AWB or an id. Bookings write 128 random bits (tracking-page/track-links.ts); the
     * default (two random UUIDs, 244 bits) covers rows written before the column and bulk loads.
     */
    /** The address checks at booking (domain/rto/address-check.ts): valid, incomplete or suspicious; null on rows booked before them. */
    addressValidity: text('address_validity'),
    /** Why the address is not valid, in the checks' order; empty when valid. */
    addressReasons: text('address_reasons').array(),
    /** low, medium or high (domain/rto/risk.ts), scored at booking; null on rows booked before it. */
    rtoRisk: text('rto_risk'),
    rtoRiskScore: integer('rto_risk_score'),
    /** The score's parts: [{reason, points}], in the scoring's order. */
    rtoRiskReasons: jsonb('rto_risk_reasons').$type<{ reason: string; points: number }[]>(),
    /** Every action taken on the shipment's NDRs (reattempt, rto, buyer_message), each once, for ndr_all_outcomes[]. */
    ndrOutcomes: text('ndr_outcomes').array().notNull().default(sql`'{}'::text[]`),
    trackToken: text('track_token')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    /** Which allocation rule chose the courier and why; null when the order named its courier. */
    allocation: jsonb('allocation').$type<{
      ruleId: string | null;
      rule: string | null;
      strategy: string;
      reason: string;
    }>(),
    /** The pickup whose manifest lists it (features/pickups); null until manifested. */
    pickupId: uuid('pickup_id').references(() => pickups.id),
    /** When its buyer's data was anonymised (consumers/privacy), a while after it finished; null before. */
    buyerAnonymisedAt: timestamptz('buyer_anonymised_at'),
    /** When its scans but the last were pruned (consumers/retention), a while after it finished; null before. */
    historyPrunedAt: timestamptz('history_pruned_at'),
  },
  (t) => [
    uniqueIndex('shipments_awb_key').on(t.awb),
    uniqueIndex('shipments_track_token_key').on(t.trackToken),
    // Led by the foreign key, for the check of each order deleted (issue 52); readers give both columns.
    uniqueIndex('shipments_order_account_key').on(t.orderId, t.accountId),
    index('shipments_account_created_idx').on(t.accountId, t.createdAt, t.id),
    // The summary report (reports.repository.ts) reads only these columns over a created_at range: an
    // index-only scan. Key columns rather than INCLUDE, which drizzle-kit cannot express.
    index('shipments_account_created_report_idx').on(t.accountId, t.createdAt, t.status, t.isCod, t.totalPricePaise),
    index('shipments_account_status_created_idx').on(t.accountId, t.status, t.createdAt, t.id),
    index('shipments_account_carrier_created_idx').on(t.accountId, t.carrierId, t.createdAt, t.id),
    index('shipments_account_warehouse_created_idx').on(t.accountId, t.warehouseId, t.createdAt, t.id),
    index('shipments_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('shipments_skus_idx').using('gin', t.skus),
    index('shipments_tags_idx').using('gin', t.tags),
    // The listing's other filters, account first: each one's exact count is an index-only scan
    // of the account's matching entries, and its first page a short walk.
    index('shipments_account_store_created_idx').on(t.accountId, t.storeId, t.createdAt, t.id),
    index('shipments_account_weight_idx').on(t.accountId, t.appliedWeightGrams),
    index('shipments_account_order_date_idx').on(t.accountId, t.orderDate),
    index('shipments_account_updated_idx').on(t.accountId, t.updatedAt),
    index('shipments_account_picked_up_idx').on(t.accountId, t.pickedUpAt).where(sql`${t.pickedUpAt} is not null`),
    index('shipments_account_delivered_idx').on(t.accountId, t.deliveredAt).where(sql`${t.deliveredAt} is not null`),
    index('shipments_account_cancelled_idx').on(t.accountId, t.cancelledAt).where(sql`${t.cancelledAt} is not null`),
    index('shipments_account_rto_initiated_idx')
      .on(t.accountId, t.rtoInitiatedAt)
      .where(sql`${t.rtoInitiatedAt} is not null`),
    index('shipments_account_pickup_idx')
      .on(t.accountId, t.pickupId, t.createdAt, t.id)
      .where(sql`${t.pickupId} is not null`),
    // Led by the foreign key: each pickup deleted (an account's deletion, issue 52) looks its
    // shipments up by it. Not the index above reordered: the listing's `manifested` filter and
    // count read that one by account alone.
    index('shipments_pickup_fk_idx').on(t.pickupId).where(sql`${t.pickupId} is not null`),
    index('shipments_account_rto_delivered_idx')
      .on(t.accountId, t.rtoDeliveredAt)
      .where(sql`${t.rtoDeliveredAt} is not null`),
    // The anonymisation job's pick: finished shipments whose buyer is still in clear, oldest first.
    index('shipments_finished_in_clear_idx')
      .on(t.updatedAt)
      .where(sql`${t.buyerAnonymisedAt} is null and ${shipmentFinished(t)}`),
    // The pruning job's pick: finished shipments whose scans are all still kept, oldest first.
    index('shipments_finished_history_kept_idx')
      .on(t.updatedAt)
      .where(sql`${t.historyPrunedAt} is null and ${shipmentFinished(t)}`),
  ],
);

/**
 * A finished shipment (domain/shipment's `isFinished`: delivered, returned to origin, cancelled, or
 * lost, damaged or destroyed), as the partial indexes above hold it. A query that picks finished
 * shipments writes this very predicate, so that PostgreSQL sees it implies the index's. `columns`
 * are the table's own or an alias's (`shipmentColumnsOf('s')`). Never null (a sub-status may be),
 * so that `not` of it is the open shipments.
 */
export function shipmentFinished(columns: { status: SQLWrapper; subStatus: SQLWrapper }): SQL {
  return sql`(${columns.status} in ('delivered', 'rto_delivered', 'cancelled') or (${columns.status} = 'others' and coalesce(${columns.subStatus}, '') in ('lost', 'damaged', 'destroyed')))`;
}

/** A shipments alias's status columns, for `shipmentFinished`. */
export function shipmentColumnsOf(alias: string): { status: SQL; subStatus: SQL } {
  return { status: sql.raw(`${alias}.status`), subStatus: sql.raw(`${alias}.sub_status`) };
}

export const shipmentMilestones = pgTable(
  'shipment_milestones',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    milestone: text('milestone').notNull(),
    milestoneAt: timestamptz('milestone_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.shipmentId, t.milestone] }),
    // The listing's milestone date fields (ndr_raised_at, expected_delivery_date_at, …) find an
    // account's shipments by when a milestone fell.
    index('shipment_milestones_account_milestone_at_idx').on(t.accountId, t.milestone, t.milestoneAt),
  ],
);

/** Each courier's AWB series: the last number handed out. Numbers are never reused; gaps are fine. */
export const awbCounters = pgTable('awb_counters', {
  carrierId: text('carrier_id').primaryKey(),
  lastValue: bigint('last_value', { mode: 'number' }).notNull(),
});
