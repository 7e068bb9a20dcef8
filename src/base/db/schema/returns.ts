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
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts, warehouses } from './tenancy.js';

// Returns, their items and scans.

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
    /** When its buyer's data was anonymised (consumers/privacy), a while after it finished; null before. */
    buyerAnonymisedAt: timestamptz('buyer_anonymised_at'),
    /** When its scans but the last were pruned (consumers/retention), a while after it finished; null before. */
    historyPrunedAt: timestamptz('history_pruned_at'),
  },
  (t) => [
    // The pruning job's pick: finished returns whose scans are all still kept, oldest first.
    index('returns_history_kept_idx')
      .on(t.updatedAt)
      .where(sql`${t.historyPrunedAt} is null and ${returnFinished(t.status)}`),
    // The anonymisation job's pick of returns of no forward shipment of Dakiya's (those go with it).
    index('returns_buyer_in_clear_idx')
      .on(t.updatedAt)
      .where(sql`${t.buyerAnonymisedAt} is null and ${t.forwardShipmentId} is null and ${returnFinished(t.status)}`),
    uniqueIndex('returns_account_merchant_order_key').on(t.accountId, t.merchantOrderId),
    uniqueIndex('returns_shipment_key').on(t.shipmentId),
    uniqueIndex('returns_awb_key').on(t.awb),
    // One live return per forward shipment: a second is refused until the first is cancelled.
    uniqueIndex('returns_forward_shipment_key')
      .on(t.accountId, t.forwardShipmentId)
      .where(sql`${t.status} <> 'return_cancelled'`),
    index('returns_account_created_idx').on(t.accountId, t.createdAt, t.id),
    // Led by the foreign key: each shipment deleted (an account's deletion, issue 52) looks its
    // returns up by it, cancelled ones too (the key above leaves those out).
    index('returns_forward_shipment_fk_idx').on(t.forwardShipmentId).where(sql`${t.forwardShipmentId} is not null`),
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
  (t) => [
    index('return_items_return_idx').on(t.accountId, t.returnId, t.position),
    // Led by the foreign key: each return deleted (an account's deletion, issue 52) looks its rows up by it.
    index('return_items_return_fk_idx').on(t.returnId),
  ],
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

/**
 * A finished return (domain/shipment's `RETURN_TERMINAL_STATUSES`: delivered back, cancelled, lost),
 * as the partial indexes above hold it; queries that pick finished returns write this very predicate.
 */
export function returnFinished(status: SQLWrapper): SQL {
  return sql`${status} in ('return_delivered', 'return_cancelled', 'return_lost')`;
}
