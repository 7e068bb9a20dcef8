import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { events } from './events.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

// Webhook endpoints, deliveries and attempts, and customer e-mails.

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
    /** standard (Standard Webhooks, signed) | velocity (Velocity's body, the merchant's static key in a header). */
    format: text('format').notNull().default('standard'),
    /** Velocity format: the merchant's static key, sent as is on every delivery (it must be, so not hashed). */
    apiKey: text('api_key'),
    /** Velocity format: the header that carries api_key; x-api-key unless the merchant names another. */
    apiKeyHeader: text('api_key_header'),
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
    // The pruning job's: finished deliveries, oldest first (consumers/retention).
    index('webhook_deliveries_finished_idx').on(t.updatedAt).where(sql`${t.status} <> 'pending'`),
    // The events' pruning asks whether a delivery still holds an event; an account's deletion too.
    index('webhook_deliveries_event_idx').on(t.eventId),
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
  (t) => [
    // The delivery first: deleting a delivery makes its foreign key look up its attempts by
    // delivery_id alone, which an index led by account_id left a scan of the whole table for each
    // (9.4 s per batch of 500 at 400,000 attempts: bench:retention); the listing's
    // `account_id = … and delivery_id in (…)` is served as well.
    index('webhook_attempts_delivery_idx').on(t.deliveryId, t.accountId, t.attemptedAt),
  ],
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
    /** pending | sent | outbox (kept, not sent: no SMTP_URL) | skipped | failed */
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
    /** The message as composed, once it is (sent, or kept in the outbox); null before. */
    subject: text('subject'),
    bodyText: text('body_text'),
    bodyHtml: text('body_html'),
  },
  (t) => [
    uniqueIndex('notifications_event_channel_recipient_key').on(
      t.eventId,
      t.channel,
      sql`coalesce(${t.recipient}, '')`,
    ),
    index('notifications_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // The retention job's pick: finished e-mails by age (consumers/retention).
    index('notifications_finished_idx').on(t.updatedAt).where(sql`${t.status} <> 'pending'`),
    index('notifications_shipment_idx').on(t.accountId, t.shipmentId, t.createdAt),
    // Led by the foreign key: each shipment deleted (an account's deletion, issue 52) looks its rows up by it.
    index('notifications_shipment_fk_idx').on(t.shipmentId),
  ],
);
