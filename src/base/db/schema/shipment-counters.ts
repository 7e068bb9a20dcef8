import { bigint, boolean, date, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './tenancy.js';

// Counters the database keeps of the shipments table by trigger (migrations 0005, 0016, 0023, 0076
// and 0084), so a listing's total or a report reads a few rows where counting would read the account's
// shipments. Each key has up to 16 rows (shards, migration 0023); a count is the sum over them.

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
    /** Which of the key's rows: see COUNT_SHARDS in migration 0023. A count is the sum over them. */
    shard: smallint('shard').notNull().default(0),
    shipments: bigint('shipments', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'shipment_counts_pkey',
      columns: [
        t.accountId,
        t.status,
        t.subStatus,
        t.channel,
        t.zone,
        t.isCod,
        t.carrierId,
        t.attemptCount,
        t.ndrReason,
        t.rtoReason,
        t.shard,
      ],
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
    shard: smallint('shard').notNull().default(0),
    shipments: bigint('shipments', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'shipment_facet_counts_pkey', columns: [t.accountId, t.facet, t.value, t.shard] })],
);

/**
 * Shipments per account and India calendar day of their creation, by store, status and payment
 * type, with their order value: the reports' totals and the listing's created_at range total sum
 * the whole days of a range outside its whole months here (the months from the monthly totals
 * below) and count only its two partial days on shipments (readers/reports, readers/shipments).
 * Kept by the same deferred triggers as the counts above. Its key's index also holds `shipments`
 * and `value_paise` (INCLUDE, migration 0082, which drizzle cannot declare), so a range's sum is an
 * index-only scan.
 */
export const shipmentDailyTotals = pgTable(
  'shipment_daily_totals',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** The India calendar day (UTC+05:30) of the shipment's created_at. */
    day: date('day').notNull(),
    /** The store's id, '' for none. */
    storeId: text('store_id').notNull(),
    status: text('status').notNull(),
    isCod: boolean('is_cod').notNull(),
    shard: smallint('shard').notNull().default(0),
    shipments: bigint('shipments', { mode: 'number' }).notNull(),
    valuePaise: bigint('value_paise', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'shipment_daily_totals_pkey',
      columns: [t.accountId, t.day, t.storeId, t.status, t.isCod, t.shard],
    }),
  ],
);

/**
 * The daily totals above summed by India calendar month (`month` is the month's first day), kept
 * by the same trigger, its month row first (migration 0084): a range's whole months are summed
 * here, its other whole days from the daily totals, so a year reads a dozen months' rows where it
 * read 365 days'. Its key's index holds the sums too (INCLUDE in migration 0084, which drizzle
 * cannot declare). Retention folds the shards of months before the current one into shard 0, as
 * it folds the days'.
 */
export const shipmentMonthlyTotals = pgTable(
  'shipment_monthly_totals',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** The first India calendar day of the month of the shipment's created_at (UTC+05:30). */
    month: date('month').notNull(),
    /** The store's id, '' for none. */
    storeId: text('store_id').notNull(),
    status: text('status').notNull(),
    isCod: boolean('is_cod').notNull(),
    shard: smallint('shard').notNull().default(0),
    shipments: bigint('shipments', { mode: 'number' }).notNull(),
    valuePaise: bigint('value_paise', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'shipment_monthly_totals_pkey',
      columns: [t.accountId, t.month, t.storeId, t.status, t.isCod, t.shard],
    }),
  ],
);
