import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { returns } from './returns.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

// Tracking polls of pulled couriers and the sandbox courier's parcels.

/**
 * Shipments and returns whose courier is asked for their scans (a pull connector), and when to ask
 * next. A row is written with the booking and deleted once the parcel reaches a terminal status.
 * API processes share the work by leasing due rows with FOR UPDATE SKIP LOCKED; the queue spans
 * accounts (a courier serves them all), so it alone is keyed by courier and time.
 */
export const courierPolls = pgTable(
  'courier_polls',
  {
    /** The shipment's or the return's id (`journey` says which). */
    subjectId: uuid('subject_id').primaryKey(),
    /** `forward` (a shipment) or `return`. */
    journey: text('journey').notNull().default('forward'),
    shipmentId: uuid('shipment_id').references(() => shipments.id),
    returnId: uuid('return_id').references(() => returns.id),
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
  (t) => [
    // The lease takes the earliest due across every courier a process pulls: one walk of this
    // index in due order, stopping at the lease's limit, where a (carrier_id, next_poll_at) index
    // made it read and sort every due row (at a year, 14,710 to take 500).
    index('courier_polls_due_idx').on(t.nextPollAt),
    // Led by the foreign keys (the primary key is subject_id): each shipment or return deleted (an
    // account's deletion, issue 52) looks its poll up by them.
    index('courier_polls_shipment_fk_idx').on(t.shipmentId).where(sql`${t.shipmentId} is not null`),
    index('courier_polls_return_fk_idx').on(t.returnId).where(sql`${t.returnId} is not null`),
    check(
      'courier_polls_subject_check',
      sql`(${t.journey} = 'forward' and ${t.shipmentId} = ${t.subjectId} and ${t.returnId} is null) or (${t.journey} = 'return' and ${t.returnId} = ${t.subjectId} and ${t.shipmentId} is null)`,
    ),
  ],
);

/**
 * What couriers sent that Dakiya could not apply, kept raw with the reason (nothing a partner sends
 * is dropped in silence): a scan whose code no table reads, one the status machine does not apply,
 * one stamped too long before its booking, one for an AWB no parcel has, one a push courier sent
 * that the intake refused. Listed for the operator and the account, counted on the connections
 * screen, and read again through the current tables by a replay. `raw` is the courier's own record
 * of the scan (a push courier's: the event it posted), one row per distinct record.
 */
export const keptScans = pgTable(
  'kept_scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account whose parcel the AWB is; null for an AWB no parcel of the courier's has. */
    accountId: uuid('account_id').references(() => accounts.id),
    /** The connector it came through (delhivery, ekart, xpressbees, shadowfax, push). */
    connector: text('connector').notNull(),
    /** The courier service, when the intake knew it (every pull and push; not an Ekart push for no known AWB). */
    carrierId: text('carrier_id'),
    awb: text('awb').notNull(),
    /** `forward` or `return`, when the AWB is a parcel's. */
    journey: text('journey'),
    raw: jsonb('raw').notNull(),
    /** unread (no table reads it), not_applied (the status machine does not), before_booking, unknown_awb, refused. */
    reasonCode: text('reason_code').notNull(),
    reason: text('reason').notNull(),
    /** connector, AWB and the record's canonical JSON, hashed: the same scan sent again is one row. */
    fingerprint: text('fingerprint').notNull(),
    firstSeenAt: timestamptz('first_seen_at').notNull(),
    /** The last replay that read it, and what it said then (reason_code and reason). */
    replayedAt: timestamptz('replayed_at'),
    /** When a replay applied it: it leaves the open list. */
    appliedAt: timestamptz('applied_at'),
  },
  (t) => [
    uniqueIndex('kept_scans_fingerprint_key').on(t.fingerprint),
    index('kept_scans_account_open_idx').on(t.accountId, t.firstSeenAt).where(sql`${t.appliedAt} is null`),
    // The operator's list and the replay span accounts (unknown AWBs have none): keyed by connector.
    index('kept_scans_connector_open_idx').on(t.connector, t.firstSeenAt).where(sql`${t.appliedAt} is null`),
    // The retention job's pick, applied or not, by age (consumers/retention).
    index('kept_scans_first_seen_idx').on(t.firstSeenAt),
  ],
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

/**
 * How each connector's calls to its courier went lately, for the merchant's courier connections
 * screen. Keyed by connector (the credential is the connector's, shared by its services), so a new
 * connector (Ekart, Shadowfax, Xpressbees) needs no schema change. Written by every process that
 * calls out, merged so an older report never hides a newer one.
 */
export const courierHealth = pgTable('courier_health', {
  connector: text('connector').primaryKey(),
  lastSuccessAt: timestamptz('last_success_at'),
  lastErrorAt: timestamptz('last_error_at'),
  /** The failure in our words (HTTP 503, no answer within 10000 ms); never the request or its credentials. */
  lastError: text('last_error'),
  /** When the connector's access token runs out, for couriers that trade credentials for one; null otherwise. */
  tokenExpiresAt: timestamptz('token_expires_at'),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * An account's own credentials for a courier's API (its contract with the courier), sealed with the
 * secret box (AES-256-GCM under SECRETS_KEY or the key kept in the database). Without a row the
 * account books on the server's credentials. `fields` names what is set, for answers that never
 * show the values.
 */
export const courierCredentials = pgTable(
  'courier_credentials',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    connector: text('connector').notNull(),
    sealed: text('sealed').notNull(),
    fields: text('fields').array().notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [primaryKey({ name: 'courier_credentials_pkey', columns: [t.accountId, t.connector] })],
);
