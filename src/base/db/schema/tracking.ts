import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

// Couriers' scans of shipments and merchants' NDR instructions.

/**
 * Every scan a courier reported, kept whether or not it moved the shipment. The two unique keys
 * make a replay (same event_id, or same status and time, of the same box) a no-op.
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
    /**
     * Where the scan stands in the parcel's history. The courier's own time, but for a scan it
     * stamped before the booking (clocks drift, times are cut to the second): that one is placed
     * just after the booking, and its own time kept in `stated_time`.
     */
    eventTime: timestamptz('event_time').notNull(),
    statedTime: timestamptz('stated_time'),
    location: text('location'),
    description: text('description'),
    ndrReason: text('ndr_reason'),
    rtoReason: text('rto_reason'),
    eventId: text('event_id'),
    receivedAt: timestamptz('received_at').notNull(),
    /**
     * A multi-piece shipment's box the scan is of (1, the master AWB, to its count: shipment_boxes);
     * 0 for a shipment in one box, and for a merchant's event on a whole multi-piece shipment
     * (cancelled, RTO), which every box takes (domain/shipment/box-rollup.ts).
     */
    boxNo: integer('box_no').notNull().default(0),
  },
  (t) => [
    uniqueIndex('tracking_events_event_id_key')
      .on(t.shipmentId, t.boxNo, t.eventId)
      .where(sql`${t.eventId} is not null`),
    uniqueIndex('tracking_events_status_time_key').on(t.shipmentId, t.boxNo, t.status, t.eventTime),
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
    /** When the courier took it (a push courier's acknowledgement, an API courier's answer). */
    acknowledgedAt: timestamptz('acknowledged_at'),
    /**
     * The courier's reference for an instruction it queued and confirms later (Delhivery's UPL id):
     * asked about until it says done or refused.
     */
    courierReference: text('courier_reference'),
    /** When the courier said it carried the instruction out (at once, or on a later confirmation). */
    confirmedAt: timestamptz('confirmed_at'),
    /** When the courier refused it, and its words: never sent again; the merchant is told (shipment.ndr_action_refused). */
    refusedAt: timestamptz('refused_at'),
    refusal: text('refusal'),
    /** Until when a process handing the instruction to its courier (or asking about it) holds it; another may take it after. */
    lockedUntil: timestamptz('locked_until'),
  },
  (t) => [
    index('shipment_actions_account_shipment_idx').on(t.accountId, t.shipmentId, t.createdAt),
    // Led by the foreign key: each shipment deleted (an account's deletion, issue 52) looks its rows up by it.
    index('shipment_actions_shipment_fk_idx').on(t.shipmentId),
    // The courier's queue spans accounts (a courier serves them all), so it alone is keyed by courier.
    index('shipment_actions_carrier_open_idx')
      .on(t.carrierId, t.createdAt, t.id)
      .where(sql`${t.acknowledgedAt} is null and ${t.refusedAt} is null`),
    index('shipment_actions_carrier_unconfirmed_idx')
      .on(t.carrierId, t.acknowledgedAt, t.id)
      .where(sql`${t.courierReference} is not null and ${t.confirmedAt} is null and ${t.refusedAt} is null`),
  ],
);
