import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';

// The pruning statements: each deletes at most `limit` rows past their period, over every account
// (an operator's housekeeping, like the kept scans' replay), in one statement of its own.

/**
 * Finished webhook deliveries (succeeded or given up) last changed before `cutoff`, with their
 * attempts: one statement, so a delivery never loses its attempts without going itself. Rows
 * another process is deleting are skipped, not waited for.
 */
export async function pruneWebhookDeliveries(
  db: Executor,
  cutoff: Date,
  limit: number,
): Promise<{ deliveries: number; attempts: number }> {
  const [row] = await queryRows<{ deliveries: number; attempts: number }>(
    db,
    sql`with gone as (
          select d.id, d.account_id from webhook_deliveries d
          where d.status <> 'pending' and d.updated_at < ${cutoff.toISOString()}::timestamptz
          order by d.updated_at
          limit ${limit}
          for update skip locked
        ),
        attempts as (
          delete from webhook_attempts a using gone g
          where a.account_id = g.account_id and a.delivery_id = g.id
          returning 1
        ),
        deliveries as (
          delete from webhook_deliveries d using gone g where d.id = g.id
          returning 1
        )
        select (select count(*) from deliveries)::int as deliveries, (select count(*) from attempts)::int as attempts`,
  );
  return row ?? { deliveries: 0, attempts: 0 };
}

/**
 * One table's rows matching `where`, at most `limit` of them, the oldest by `by` first, deleted in
 * one statement (`key`: the columns that name a row); rows another process holds are skipped, not
 * waited for. `table`, `key` and `by` are this file's own names, never input.
 */
async function deleteOldest(
  db: Executor,
  { table, key, where, by }: { table: string; key: readonly string[]; where: SQL; by: string },
  limit: number,
): Promise<number> {
  const columns = sql.raw(key.join(', '));
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from ${sql.raw(table)}
        where (${columns}) in (
          select ${columns} from ${sql.raw(table)} where ${where}
          order by ${sql.raw(by)}
          limit ${limit}
          for update skip locked
        )
        returning 1 as one`,
  );
  return rows.length;
}

const before = (column: string, cutoff: Date) => sql`${sql.raw(column)} < ${cutoff.toISOString()}::timestamptz`;

/**
 * Ids of the webhooks stores sent (Shopify's X-Shopify-Webhook-Id, WooCommerce's delivery id)
 * received before `cutoff`: kept only so that a store's retry of one is taken once; a store
 * retries for hours, not days, and an order imported twice is one order all the same.
 */
export const pruneChannelWebhookReceipts = (db: Executor, cutoff: Date, limit: number) =>
  deleteOldest(
    db,
    {
      table: 'channel_webhook_receipts',
      key: ['sales_channel_id', 'delivery_id'],
      where: before('received_at', cutoff),
      by: 'received_at',
    },
    limit,
  );

/**
 * Finished jobs of a log kept for a period (customer e-mails, buyer messages: sent, kept, skipped
 * or given up) last changed before `cutoff`. A pending one is live work, whatever its age.
 */
export const pruneFinishedJobs = (
  db: Executor,
  table: 'notifications' | 'buyer_messages',
  cutoff: Date,
  limit: number,
) =>
  deleteOldest(
    db,
    { table, key: ['id'], where: sql`status <> 'pending' and ${before('updated_at', cutoff)}`, by: 'updated_at' },
    limit,
  );

/**
 * Kept scans last touched (first seen, replayed or applied) before `cutoff`: the courier's records
 * Dakiya could not apply, kept for a replay through newer tables (decision 137), of parcels long
 * finished by then. The first condition is the index's range; the second, the rest of the rule.
 */
export const pruneKeptScans = (db: Executor, cutoff: Date, limit: number) =>
  deleteOldest(
    db,
    {
      table: 'kept_scans',
      key: ['id'],
      where: sql`${before('first_seen_at', cutoff)} and ${before('greatest(first_seen_at, replayed_at, applied_at)', cutoff)}`,
      by: 'first_seen_at',
    },
    limit,
  );

/** Audit log entries written before `cutoff`, over every account. */
export const pruneAuditLog = (db: Executor, cutoff: Date, limit: number) =>
  deleteOldest(db, { table: 'audit_log', key: ['id'], where: before('at', cutoff), by: 'at' }, limit);

/**
 * Idempotency keys older than `cutoff`: a key's answer is replayed for 24 hours, and a lookup
 * already takes an older key as absent; this only keeps the table to a day of keys.
 */
export const pruneIdempotencyKeys = (db: Executor, cutoff: Date, limit: number) =>
  deleteOldest(
    db,
    { table: 'idempotency_keys', key: ['account_id', 'key'], where: before('created_at', cutoff), by: 'created_at' },
    limit,
  );

/**
 * Finished write-backs to stores (done, failed or skipped) last changed before `cutoff`: the store
 * has the fulfilment or gave up on it; a pending one is live work, whatever its age.
 */
export const pruneFinishedWritebacks = (db: Executor, cutoff: Date, limit: number) =>
  deleteOldest(
    db,
    {
      table: 'channel_writebacks',
      key: ['id'],
      where: sql`status <> 'pending' and ${before('updated_at', cutoff)}`,
      by: 'updated_at',
    },
    limit,
  );

/** The reports' two levels of totals: each one's table and the column naming a row's day or month. */
export const TOTALS = {
  day: { table: 'shipment_daily_totals', period: 'day' },
  month: { table: 'shipment_monthly_totals', period: 'month' },
} as const;
export type TotalsLevel = keyof typeof TOTALS;

/**
 * Folds the totals of one level (days, or months by their first day) before `before` (an India
 * day, YYYY-MM-DD: today, or this month's first day) written to other shards than 0 into shard 0,
 * at most `limit` rows a statement: each booking's trigger adds to its connection's shard so that
 * concurrent bookings never wait on one row (migrations 0076, 0084), which leaves up to 16 rows per
 * day or month, store, status and COD for a report to sum. Closed days and months change only when
 * an old parcel's status moves, so after a fold they keep about one row each. The sums never
 * change: the rows leave and their totals land on shard 0 in one statement; a trigger that adds to
 * a row being folded waits for it and then writes a shard row anew, folded on a later run.
 * `level` picks one of TOTALS' fixed names, never input.
 */
export async function foldTotalShards(
  db: Executor,
  level: TotalsLevel,
  before: string,
  limit: number,
): Promise<number> {
  const table = sql.raw(TOTALS[level].table);
  const period = sql.raw(TOTALS[level].period);
  const [row] = await queryRows<{ folded: number }>(
    db,
    sql`with picked as (
          select account_id, ${period}, store_id, status, is_cod, shard from ${table}
          where shard <> 0 and ${period} < ${before}::date
          order by account_id, ${period}
          limit ${limit}
          for update skip locked
        ),
        moved as (
          delete from ${table} t using picked p
          where t.account_id = p.account_id and t.${period} = p.${period} and t.store_id = p.store_id
            and t.status = p.status and t.is_cod = p.is_cod and t.shard = p.shard
          returning t.account_id, t.${period}, t.store_id, t.status, t.is_cod, t.shipments, t.value_paise
        ),
        landed as (
          insert into ${table} as c (account_id, ${period}, store_id, status, is_cod, shard, shipments, value_paise)
          select account_id, ${period}, store_id, status, is_cod, 0, sum(shipments), sum(value_paise) from moved
          group by account_id, ${period}, store_id, status, is_cod
          having sum(shipments) <> 0 or sum(value_paise) <> 0
          -- In key order, as the triggers write: a fold and a booking on shard 0 never wait on each other crosswise.
          order by account_id, ${period}, store_id, status, is_cod
          on conflict (account_id, ${period}, store_id, status, is_cod, shard)
          do update set shipments = c.shipments + excluded.shipments, value_paise = c.value_paise + excluded.value_paise
          returning 1
        )
        select (select count(*) from moved)::int as folded, (select count(*) from landed)::int as landed`,
  );
  return row?.folded ?? 0;
}
