import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { events } from './events.js';
import { orders, shipments } from './shipments.js';
import { accounts, stores, warehouses } from './tenancy.js';

// Sales channels (issue 49): a store of the account connected to its Shopify shop or WooCommerce
// site, the store orders it has seen (the import ledger, which is also intake's queue), the webhook
// deliveries already taken, and the write-back jobs that tell the store what happened to its parcels.

export const salesChannels = pgTable(
  'sales_channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    storeId: uuid('store_id')
      .notNull()
      .references(() => stores.id),
    /** shopify | woocommerce */
    channel: text('channel').notNull(),
    /** The shop's domain (acme.myshopify.com) or the site's URL, as checked. */
    address: text('address').notNull(),
    /** What the store answered its name was when the credentials were checked. */
    shopName: text('shop_name').notNull(),
    warehouseId: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    /** The credentials (ChannelCredentials as JSON), sealed with the secret box; never answered. */
    sealed: text('sealed').notNull(),
    /** queue: orders wait for the merchant to book; book: booked at once through the allocation rules. */
    onImport: text('on_import').notNull(),
    /** Whether the store e-mails the buyer when Dakiya writes the fulfilment back. */
    notifyCustomer: boolean('notify_customer').notNull(),
    /** The package an order whose items carry no weight ships as; null: such an order is refused. */
    defaultWeightGrams: doublePrecision('default_weight_grams'),
    lengthCm: doublePrecision('length_cm').notNull(),
    breadthCm: doublePrecision('breadth_cm').notNull(),
    heightCm: doublePrecision('height_cm').notNull(),
    /** connected | disconnected */
    status: text('status').notNull(),
    /** A pull is owed (just connected, or asked for): the next intake round runs it. */
    pullDue: boolean('pull_due').notNull().default(true),
    /** Until when one process is pulling this channel; another leaves it alone. */
    pullLockedUntil: timestamptz('pull_locked_until'),
    /** The store's ids of the webhook subscriptions Dakiya made for it; null when it made none (the merchant adds them). */
    webhookIds: text('webhook_ids').array(),
    /** Why the store would not take Dakiya's webhook subscriptions (Shopify takes https only). */
    webhookError: text('webhook_error'),
    lastSyncedAt: timestamptz('last_synced_at'),
    lastError: text('last_error'),
    lastErrorAt: timestamptz('last_error_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    disconnectedAt: timestamptz('disconnected_at'),
  },
  (t) => [
    // One live connection per store, and one per shop in an account; a disconnected one stays as history.
    uniqueIndex('sales_channels_store_key').on(t.accountId, t.storeId).where(sql`${t.status} = 'connected'`),
    uniqueIndex('sales_channels_address_key')
      .on(t.accountId, t.channel, t.address)
      .where(sql`${t.status} = 'connected'`),
    index('sales_channels_account_idx').on(t.accountId, t.createdAt, t.id),
  ],
);

/**
 * Every store order a channel has shown Dakiya, once (the unique key is what makes the import
 * exactly-once whatever arrives): its latest mapped form, and what became of it. `state`
 * pending rows are intake's queue.
 */
export const channelOrders = pgTable(
  'channel_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    salesChannelId: uuid('sales_channel_id')
      .notNull()
      .references(() => salesChannels.id),
    channelOrderId: text('channel_order_id').notNull(),
    channelOrderName: text('channel_order_name').notNull(),
    /** The ChannelOrder as last received (dates as ISO text). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** The store cancelled it; kept once seen, since a late older delivery must not undo it. */
    cancelled: boolean('cancelled').notNull(),
    /**
     * pending (to import) | imported | refused (the reason says why; imported again once changed) |
     * skipped (not waiting to ship when first seen) | cancelled (cancelled before it was imported,
     * or its Dakiya order cancelled with it) | cancel_flagged (cancelled in the store after pickup:
     * an RTO is the merchant's call)
     */
    state: text('state').notNull(),
    reason: text('reason'),
    /** The order fields the refusal named. */
    fields: text('fields').array(),
    orderId: uuid('order_id').references(() => orders.id),
    shipmentId: uuid('shipment_id').references(() => shipments.id),
    attempts: integer('attempts').notNull().default(0),
    /** A pending row whose import failed for a passing reason (a courier down) waits until then. */
    nextAttemptAt: timestamptz('next_attempt_at'),
    /** The store's reference for the fulfilment written back (Shopify fulfillment, WooCommerce tracking item), and its AWB. */
    fulfilmentReference: text('fulfilment_reference'),
    fulfilledAwb: text('fulfilled_awb'),
    firstSeenAt: timestamptz('first_seen_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('channel_orders_channel_order_key').on(t.salesChannelId, t.channelOrderId),
    index('channel_orders_pending_idx').on(t.updatedAt).where(sql`${t.state} = 'pending'`),
    index('channel_orders_account_state_idx').on(t.accountId, t.salesChannelId, t.state, t.updatedAt),
    // Led by the foreign keys, for the check of each shipment or order deleted (an account's
    // deletion, issue 52); the write-back's reads give the account and the shipment both.
    index('channel_orders_shipment_account_idx').on(t.shipmentId, t.accountId).where(sql`${t.shipmentId} is not null`),
    index('channel_orders_order_fk_idx').on(t.orderId).where(sql`${t.orderId} is not null`),
  ],
);

/** The webhook deliveries a channel has taken (X-Shopify-Webhook-Id, X-WC-Webhook-Delivery-ID): a retry is answered, not taken again. */
export const channelWebhookReceipts = pgTable(
  'channel_webhook_receipts',
  {
    salesChannelId: uuid('sales_channel_id')
      .notNull()
      .references(() => salesChannels.id),
    deliveryId: text('delivery_id').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    receivedAt: timestamptz('received_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.salesChannelId, t.deliveryId] }),
    // The pruning job's: the oldest first (consumers/retention).
    index('channel_webhook_receipts_received_idx').on(t.receivedAt),
  ],
);

/**
 * What the store is told about one shipment event: a durable job (the write-back consumer plans
 * one per event that matters; `event_id` makes the plan idempotent), sent in order per shipment,
 * retried with back-off.
 */
export const channelWritebacks = pgTable(
  'channel_writebacks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    salesChannelId: uuid('sales_channel_id')
      .notNull()
      .references(() => salesChannels.id),
    channelOrderRowId: uuid('channel_order_row_id')
      .notNull()
      .references(() => channelOrders.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id),
    /** fulfil | update | track | cancel */
    kind: text('kind').notNull(),
    /** What to send: the fulfilment (AWB, courier, link) or the tracking update. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** pending | done | failed | skipped */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    lockedUntil: timestamptz('locked_until'),
    lastError: text('last_error'),
    doneAt: timestamptz('done_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('channel_writebacks_event_key').on(t.eventId, t.kind),
    index('channel_writebacks_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('channel_writebacks_shipment_idx').on(t.accountId, t.shipmentId, t.createdAt),
    // Led by the foreign keys: each shipment or store order deleted (an account's deletion, issue
    // 52) looks its write-backs up by them; the account's own reads keep the index above.
    index('channel_writebacks_shipment_fk_idx').on(t.shipmentId),
    index('channel_writebacks_channel_order_fk_idx').on(t.channelOrderRowId),
    // The pruning job's: finished write-backs, oldest first (consumers/retention).
    index('channel_writebacks_finished_idx').on(t.updatedAt).where(sql`${t.status} <> 'pending'`),
  ],
);
