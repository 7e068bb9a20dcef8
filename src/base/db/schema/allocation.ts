import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts, warehouses } from './tenancy.js';

// How a courier is chosen (allocation rules) and how parcels leave the warehouse (pickups).

/** An account's courier allocation rules, tried lowest priority first (allocation.ts in the domain). */
export const allocationRules = pgTable(
  'allocation_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    priority: integer('priority').notNull(),
    active: boolean('active').notNull(),
    /** The domain's RuleConditions: internal units (grams, paise), states and store names lower case. */
    conditions: jsonb('conditions').$type<Record<string, unknown>>().notNull(),
    strategy: text('strategy').notNull(),
    carrierIds: text('carrier_ids').array().notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [index('allocation_rules_account_idx').on(t.accountId, t.priority)],
);

/**
 * A request for a courier to collect booked parcels at a warehouse on a day; its manifest lists the
 * shipments that point at it (shipments.pickup_id).
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
    /** The courier's own id for the request; null for a courier with no pickup call (recorded only). */
    courierPickupId: text('courier_pickup_id'),
    parcels: integer('parcels').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    /** When the missed-pickup sweep looked at it, after its day ended; null until then. */
    checkedAt: timestamptz('checked_at'),
  },
  (t) => [
    index('pickups_account_created_idx').on(t.accountId, t.createdAt),
    index('pickups_unchecked_idx').on(t.pickupDate).where(sql`${t.checkedAt} is null`),
  ],
);
