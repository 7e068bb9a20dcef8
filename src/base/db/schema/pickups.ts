import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts, warehouses } from './tenancy.js';

/**
 * A courier's collection of parcels at a warehouse on a day, with its manifest: the shipments it
 * covers name it (shipments.pickup_id), so a shipment is on one pickup at most. Once its day has
 * ended (India time) it is checked: `missed_at` then says some of its parcels were not picked up.
 */
export const pickups = pgTable(
  'pickups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    warehouseId: uuid('warehouse_id')
      .notNull()
      .references(() => warehouses.id),
    carrierId: text('carrier_id').notNull(),
    pickupDate: date('pickup_date', { mode: 'string' }).notNull(),
    /** The courier's own id for the request, when its API gives one (Delhivery's pickup_id). */
    courierReference: text('courier_reference'),
    parcels: integer('parcels').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    checkedAt: timestamptz('checked_at'),
    missedAt: timestamptz('missed_at'),
  },
  (t) => [
    index('pickups_account_created_idx').on(t.accountId, t.createdAt, t.id),
    // The missed-pickup check reads the days that have ended and were not checked yet.
    index('pickups_unchecked_idx').on(t.pickupDate).where(sql`${t.checkedAt} is null`),
  ],
);
