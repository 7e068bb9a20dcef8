import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// PGlite hands bytea back as Uint8Array and pg as Buffer; normalise to Buffer at the boundary.
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    // Login names are global (the token endpoint has no account context), compared case-insensitively.
    username: text('username'),
    passwordHash: text('password_hash'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('accounts_username_key').on(sql`lower(${t.username})`)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    // The first characters of the key, kept in clear so an operator can name a key to revoke it.
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    uniqueIndex('api_keys_prefix_key').on(t.prefix),
    index('api_keys_account_idx').on(t.accountId),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('access_tokens_token_hash_key').on(t.tokenHash),
    index('access_tokens_account_idx').on(t.accountId, t.expiresAt),
  ],
);

export const stores = pgTable(
  'stores',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    storeName: text('store_name').notNull(),
    brandName: text('brand_name'),
    channel: text('channel').notNull(),
    status: text('status').notNull(),
    // Hash of the current logo (hex SHA-256), null when the store has none; the bytes live in store_logos.
    logoSha256: text('logo_sha256'),
    /** The merchant's contact shown to customers on the tracking page and in e-mails. */
    supportEmail: text('support_email'),
    supportPhone: text('support_phone'),
    /** The customer e-mails this store sends (notifications/notify-events.ts); every one by default. */
    notifyEvents: text('notify_events')
      .array()
      .notNull()
      .default(sql`'{shipped,out_for_delivery,delivered,ndr_raised,rto_delivered}'::text[]`),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    // Names stay reserved after a store is disconnected, and differ only in case count as one.
    uniqueIndex('stores_account_name_key').on(t.accountId, sql`lower(${t.storeName})`),
    index('stores_account_created_idx').on(t.accountId, t.createdAt, t.id),
  ],
);

export const storeLogos = pgTable('store_logos', {
  storeId: uuid('store_id')
    .primaryKey()
    .references(() => stores.id),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  contentType: text('content_type').notNull(),
  sha256: text('sha256').notNull(),
  bytes: bytea('bytes').notNull(),
  /** A PNG of a WebP or GIF logo, made once at upload: pdfkit draws only PNG and JPEG on labels. */
  labelPng: bytea('label_png'),
});

export const warehouses = pgTable(
  'warehouses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    contactPerson: text('contact_person'),
    streetAddress: text('street_address').notNull(),
    pincode: text('pincode').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull(),
    /** GSTIN, printed on labels as the shipper's. */
    gstNo: text('gst_no'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('warehouses_account_created_idx').on(t.accountId, t.createdAt, t.id)],
);

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
    lengthCm: doublePrecision('length_cm').notNull(),
    breadthCm: doublePrecision('breadth_cm').notNull(),
    heightCm: doublePrecision('height_cm').notNull(),
    weightGrams: doublePrecision('weight_grams').notNull(),
    tags: text('tags').array().notNull(),
    printLabel: boolean('print_label').notNull(),
    /** The merchant's own channel reference (Velocity's channel_id); `channel` stays manual_order. */
    channelRef: text('channel_ref'),
    companyName: text('company_name'),
    totalDiscountPaise: bigint('total_discount_paise', { mode: 'number' }).notNull().default(0),
    /** Velocity's vendor_details: the seller the parcel ships for, as sent (snake_case keys). */
    vendorDetails: jsonb('vendor_details').$type<Record<string, string>>(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('orders_account_merchant_order_key').on(t.accountId, t.merchantOrderId)],
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
  },
  (t) => [index('order_items_order_idx').on(t.accountId, t.orderId, t.position)],
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
     * The secret in the customer's tracking link (PUBLIC_BASE_URL/t/<token>): random, never derived
     * from the AWB or an id. Bookings write 128 random bits (tracking-page/track-links.ts); the
     * default (two random UUIDs, 244 bits) covers rows written before the column and bulk loads.
     */
    trackToken: text('track_token')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
  },
  (t) => [
    uniqueIndex('shipments_awb_key').on(t.awb),
    uniqueIndex('shipments_track_token_key').on(t.trackToken),
    uniqueIndex('shipments_order_key').on(t.accountId, t.orderId),
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
    index('shipments_account_rto_initiated_idx').on(t.accountId, t.rtoInitiatedAt).where(sql`${t.rtoInitiatedAt} is not null`),
    index('shipments_account_rto_delivered_idx').on(t.accountId, t.rtoDeliveredAt).where(sql`${t.rtoDeliveredAt} is not null`),
  ],
);

/**
 * Exact shipment counts per account and combination of the listing's equality filters, kept by
 * triggers on shipments (migration 0005). Counting 300,000 shipments row by row costs tens of
 * milliseconds on every listing request; summing the few thousand combinations an account has
 * costs about one. Absent values are stored as '' (no filter asks for ''), so the key has no nulls.
 */
export const shipmentCounts = pgTable(
  'shipment_counts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    status: text('status').notNull(),
    subStatus: text('sub_status').notNull(),
    channel: text('channel').notNull(),
    zone: text('zone').notNull(),
    isCod: boolean('is_cod').notNull(),
    carrierId: text('carrier_id').notNull(),
    attemptCount: integer('attempt_count').notNull(),
    ndrReason: text('ndr_reason').notNull(),
    rtoReason: text('rto_reason').notNull(),
    shipments: bigint('shipments', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'shipment_counts_pkey',
      columns: [t.accountId, t.status, t.subStatus, t.channel, t.zone, t.isCod, t.carrierId, t.attemptCount, t.ndrReason, t.rtoReason],
    }),
  ],
);

/**
 * Shipments per account and one value of a filter the combinations above leave out (too many
 * values to multiply in): `warehouse` and `store` (ids, '' for no store), `sku` and `tag`. Kept by
 * the same triggers. A shipment counts once per distinct value it carries.
 */
export const shipmentFacetCounts = pgTable(
  'shipment_facet_counts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    facet: text('facet').notNull(),
    value: text('value').notNull(),
    shipments: bigint('shipments', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'shipment_facet_counts_pkey', columns: [t.accountId, t.facet, t.value] })],
);

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
  (t) => [primaryKey({ columns: [t.shipmentId, t.milestone] })],
);

/** Each courier's AWB series: the last number handed out. Numbers are never reused; gaps are fine. */
export const awbCounters = pgTable('awb_counters', {
  carrierId: text('carrier_id').primaryKey(),
  lastValue: bigint('last_value', { mode: 'number' }).notNull(),
});

/** Stripe-style idempotency: the first response to a key is kept for 24 hours and replayed. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Server-wide secrets (label link signing), made once and shared by every process. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/** A courier's credential for reporting scans; it may only touch shipments booked on that service. */
export const carrierTokens = pgTable(
  'carrier_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    carrierId: text('carrier_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [uniqueIndex('carrier_tokens_token_hash_key').on(t.tokenHash)],
);

/**
 * Every scan a courier reported, kept whether or not it moved the shipment. The two unique keys
 * make a replay (same event_id, or same status and time) a no-op.
 */
export const trackingEvents = pgTable(
  'tracking_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    status: text('status').notNull(),
    subStatus: text('sub_status'),
    eventTime: timestamptz('event_time').notNull(),
    location: text('location'),
    description: text('description'),
    ndrReason: text('ndr_reason'),
    rtoReason: text('rto_reason'),
    eventId: text('event_id'),
    receivedAt: timestamptz('received_at').notNull(),
  },
  (t) => [
    uniqueIndex('tracking_events_event_id_key').on(t.shipmentId, t.eventId).where(sql`${t.eventId} is not null`),
    uniqueIndex('tracking_events_status_time_key').on(t.shipmentId, t.status, t.eventTime),
    index('tracking_events_account_shipment_idx').on(t.accountId, t.shipmentId, t.eventTime),
  ],
);

/**
 * A merchant's instruction on a shipment after a failed delivery (reattempt) or instead of one
 * (RTO), kept for the merchant's history and handed to the courier until it acknowledges it.
 */
export const shipmentActions = pgTable(
  'shipment_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    /** The courier service the instruction goes to: the shipment's, when it was given. */
    carrierId: text('carrier_id').notNull(),
    /** `reattempt` or `rto`. */
    action: text('action').notNull(),
    /** `merchant` (the API) or `customer` (the tracking page's reattempt form). */
    requestedBy: text('requested_by').notNull(),
    /** The shipment's attempt_count when asked: one reattempt per failed attempt. */
    attempt: integer('attempt').notNull(),
    /** The instruction's fields, snake_case as sent (updated_address, updated_phone_number, comments, reattempt_date). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz('created_at').notNull(),
    acknowledgedAt: timestamptz('acknowledged_at'),
  },
  (t) => [
    index('shipment_actions_account_shipment_idx').on(t.accountId, t.shipmentId, t.createdAt),
    // The courier's queue spans accounts (a courier serves them all), so it alone is keyed by courier.
    index('shipment_actions_carrier_open_idx').on(t.carrierId, t.createdAt, t.id).where(sql`${t.acknowledgedAt} is null`),
  ],
);

/**
 * Return (reverse pickup) orders: the customer's parcel comes back to a warehouse. Kept apart from
 * orders/shipments so the forward listing, its counters (shipment_counts) and its triggers never
 * see a return; one row is both Velocity's return (`id`, its return_id) and its shipment
 * (`shipment_id`). AWBs come from the same per-courier series as forward ones, so they never collide.
 */
export const returns = pgTable(
  'returns',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id').notNull(),
    /** The merchant's own id of the return; unique per account among returns. */
    merchantOrderId: text('merchant_order_id').notNull(),
    /** The destination warehouse when the request named one; else shipping_* is the destination. */
    warehouseId: uuid('warehouse_id').references(() => warehouses.id),
    /** The forward shipment this parcel returns, when the request named it (forward_awb or forward_order_id). */
    forwardShipmentId: uuid('forward_shipment_id').references(() => shipments.id),
    channelRef: text('channel_ref'),
    orderDate: timestamptz('order_date').notNull(),
    paymentMethod: text('payment_method').notNull(),
    subTotalPaise: bigint('sub_total_paise', { mode: 'number' }).notNull(),
    totalDiscountPaise: bigint('total_discount_paise', { mode: 'number' }).notNull(),
    /** The customer, where the courier picks the parcel up. */
    pickup: jsonb('pickup').$type<ReturnAddress>().notNull(),
    /** The warehouse address the parcel goes back to. */
    shipping: jsonb('shipping').$type<ReturnAddress>().notNull(),
    lengthCm: doublePrecision('length_cm').notNull(),
    breadthCm: doublePrecision('breadth_cm').notNull(),
    heightCm: doublePrecision('height_cm').notNull(),
    weightGrams: doublePrecision('weight_grams').notNull(),
    requestPickup: boolean('request_pickup').notNull(),
    /** The items asked for a quality check (1 or 2 SKUs); false when none did or too many did. */
    qcRequested: boolean('qc_requested').notNull(),
    /** Booked with a QC-capable courier and QC charged; null until a courier is assigned. */
    qcApplied: boolean('qc_applied'),
    /** Why a return is not quality-checked although items asked for it. */
    qcNote: text('qc_note'),
    status: text('status').notNull(),
    zone: text('zone').notNull(),
    appliedWeightGrams: doublePrecision('applied_weight_grams').notNull(),
    carrierId: text('carrier_id'),
    awb: text('awb'),
    freightPaise: bigint('freight_paise', { mode: 'number' }),
    qcPaise: bigint('qc_paise', { mode: 'number' }),
    platformFeePaise: bigint('platform_fee_paise', { mode: 'number' }),
    assignedAt: timestamptz('assigned_at'),
    cancelledAt: timestamptz('cancelled_at'),
    /** Derived from the return's events (return-status-machine.ts), as the forward columns are. */
    subStatus: text('sub_status'),
    /** The courier's QC result at pickup (passed | failed), null until reported. */
    qcStatus: text('qc_status'),
    qcReason: text('qc_reason'),
    pickedUpAt: timestamptz('picked_up_at'),
    deliveredAt: timestamptz('delivered_at'),
    lostAt: timestamptz('lost_at'),
    expectedPickupDate: date('expected_pickup_date', { mode: 'string' }),
    expectedDeliveryDate: date('expected_delivery_date', { mode: 'string' }),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('returns_account_merchant_order_key').on(t.accountId, t.merchantOrderId),
    uniqueIndex('returns_shipment_key').on(t.shipmentId),
    uniqueIndex('returns_awb_key').on(t.awb),
    // One live return per forward shipment: a second is refused until the first is cancelled.
    uniqueIndex('returns_forward_shipment_key')
      .on(t.accountId, t.forwardShipmentId)
      .where(sql`${t.status} <> 'return_cancelled'`),
    index('returns_account_created_idx').on(t.accountId, t.createdAt, t.id),
  ],
);

export interface ReturnAddress {
  name: string;
  last_name: string | null;
  company_name?: string | null;
  address: string;
  address_2: string | null;
  city: string;
  state: string;
  country: string;
  pincode: string;
  email: string | null;
  phone: string;
}

export const returnItems = pgTable(
  'return_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    sku: text('sku').notNull(),
    units: integer('units').notNull(),
    sellingPricePaise: bigint('selling_price_paise', { mode: 'number' }).notNull(),
    discountPaise: bigint('discount_paise', { mode: 'number' }).notNull(),
    /** Velocity's QC fields, as sent; qc_enable true means the courier checks this item at pickup. */
    qc: jsonb('qc').$type<Record<string, string | boolean>>(),
  },
  (t) => [index('return_items_return_idx').on(t.accountId, t.returnId, t.position)],
);

/** A courier's scans of a return: the forward tracking_events' twin, keyed to the return. */
export const returnEvents = pgTable(
  'return_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    returnId: uuid('return_id')
      .notNull()
      .references(() => returns.id),
    status: text('status').notNull(),
    subStatus: text('sub_status'),
    eventTime: timestamptz('event_time').notNull(),
    location: text('location'),
    description: text('description'),
    qcStatus: text('qc_status'),
    qcReason: text('qc_reason'),
    eventId: text('event_id'),
    receivedAt: timestamptz('received_at').notNull(),
  },
  (t) => [
    uniqueIndex('return_events_event_id_key').on(t.returnId, t.eventId).where(sql`${t.eventId} is not null`),
    uniqueIndex('return_events_status_time_key').on(t.returnId, t.status, t.eventTime),
    index('return_events_account_return_idx').on(t.accountId, t.returnId, t.eventTime),
  ],
);

// PostgreSQL's 64-bit transaction id. Kept on each event so that readers can tell which events
// can no longer be joined by an earlier one still committing (see events.repository.ts).
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/** The transactional outbox: one row per state change, written in the change's own transaction. */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    type: text('type').notNull(),
    /** What the event is about: a shipment, a return, a store or (webhook.test) a webhook endpoint. */
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** 1, 2, 3… per subject, in the order its changes committed. */
    sequence: integer('sequence').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    txid: xid8('txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    position: bigint('position', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [
    uniqueIndex('events_subject_sequence_key').on(t.accountId, t.subjectId, t.sequence),
    index('events_account_order_idx').on(t.accountId, t.txid, t.position),
    index('events_order_idx').on(t.txid, t.position),
  ],
);

/** Where each outbox consumer (webhook fan-out, e-mail notifications…) has read up to. */
export const eventConsumers = pgTable('event_consumers', {
  name: text('name').primaryKey(),
  afterTxid: xid8('after_txid').notNull(),
  afterPosition: bigint('after_position', { mode: 'number' }).notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * Shipments whose courier is asked for their scans (a pull connector), and when to ask next. A row
 * is written with the booking and deleted once the shipment reaches a terminal status. API processes
 * share the work by leasing due rows with FOR UPDATE SKIP LOCKED; the queue spans accounts (a
 * courier serves them all), so it alone is keyed by courier and time.
 */
export const courierPolls = pgTable(
  'courier_polls',
  {
    shipmentId: uuid('shipment_id')
      .primaryKey()
      .references(() => shipments.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    carrierId: text('carrier_id').notNull(),
    awb: text('awb').notNull(),
    bookedAt: timestamptz('booked_at').notNull(),
    nextPollAt: timestamptz('next_poll_at').notNull(),
    /** Set while a process is asking the courier; a lease that runs out (a crashed process) frees the row. */
    leaseUntil: timestamptz('lease_until'),
    /** Failed polls in a row, for the backoff; 0 after a good answer. */
    failures: integer('failures').notNull().default(0),
  },
  (t) => [index('courier_polls_carrier_due_idx').on(t.carrierId, t.nextPollAt)],
);

/**
 * The sandbox courier's own books: what it was asked to carry, which scenario it plays, and the
 * instructions it received. It is a simulated courier, so it keeps its state apart from ours.
 */
export const sandboxParcels = pgTable('sandbox_parcels', {
  awb: text('awb').primaryKey(),
  carrierId: text('carrier_id').notNull(),
  /** Our shipment id, the reference the booking was made with: a repeated booking finds this row. */
  reference: text('reference').notNull().unique(),
  scenario: text('scenario').notNull(),
  bookedAt: timestamptz('booked_at').notNull(),
  cancelledAt: timestamptz('cancelled_at'),
  /** Reattempt and RTO instructions in the order received: [{action, at}]. */
  instructions: jsonb('instructions').$type<{ action: string; at: string }[]>().notNull(),
});

/** A merchant's webhook endpoint: where its subscribed events are POSTed, signed with `secret`. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    url: text('url').notNull(),
    /** Subscribed event types, or ['*'] for all. */
    events: text('events').array().notNull(),
    description: text('description'),
    /** enabled | disabled */
    status: text('status').notNull(),
    /** Why it was disabled: null when enabled, or disabled by the merchant. */
    disabledReason: text('disabled_reason'),
    /** whsec_ + base64 of 24 random bytes. Kept as is: signing needs the secret itself, not a hash. */
    secret: text('secret').notNull(),
    /** The first failure since the last success; null while deliveries succeed. */
    failingSince: timestamptz('failing_since'),
    /** Events in a row whose first delivery attempt failed, since the last success. */
    failedEvents: integer('failed_events').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    deletedAt: timestamptz('deleted_at'),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId, t.createdAt)],
);

/** One event to one endpoint: a durable job, retried until it succeeds or its attempts are spent. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    /** pending | succeeded | failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    /** A worker holds the job until then; past it, another may take it (the holder died). */
    lockedUntil: timestamptz('locked_until'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.accountId, t.endpointId, t.createdAt),
  ],
);

/** Each HTTP attempt of a delivery, as the deliveries listing shows them. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    attemptedAt: timestamptz('attempted_at').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.accountId, t.deliveryId, t.attemptedAt)],
);

/**
 * One customer message per event, channel and recipient (notifications/), written by the
 * notifications outbox consumer and sent by the worker. The unique key is what makes a replayed
 * batch or a second process write nothing twice; a skipped one (no address) has no recipient.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    eventType: text('event_type').notNull(),
    /** shipped | out_for_delivery | delivered | ndr_raised | rto_delivered */
    notifyEvent: text('notify_event').notNull(),
    /** email */
    channel: text('channel').notNull(),
    recipient: text('recipient'),
    /** pending | sent | skipped | failed */
    status: text('status').notNull(),
    skipReason: text('skip_reason'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamptz('next_attempt_at'),
    /** A worker holds the job until then; past it, another may take it (the holder died). */
    lockedUntil: timestamptz('locked_until'),
    createdAt: timestamptz('created_at').notNull(),
    sentAt: timestamptz('sent_at'),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('notifications_event_channel_recipient_key').on(t.eventId, t.channel, sql`coalesce(${t.recipient}, '')`),
    index('notifications_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('notifications_shipment_idx').on(t.accountId, t.shipmentId, t.createdAt),
  ],
);
