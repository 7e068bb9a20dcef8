import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

// Tracking polls of pulled couriers and the sandbox courier's parcels.

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
