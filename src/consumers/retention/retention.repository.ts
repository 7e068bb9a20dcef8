import { sql } from 'drizzle-orm';
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
 * Ids of the webhooks stores sent (Shopify's X-Shopify-Webhook-Id, WooCommerce's delivery id)
 * received before `cutoff`: kept only so that a store's retry of one is taken once; a store
 * retries for hours, not days, and an order imported twice is one order all the same.
 */
export async function pruneChannelWebhookReceipts(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from channel_webhook_receipts r
        where (r.sales_channel_id, r.delivery_id) in (
          select sales_channel_id, delivery_id from channel_webhook_receipts
          where received_at < ${cutoff.toISOString()}::timestamptz
          order by received_at
          limit ${limit}
          for update skip locked
        )
        returning 1 as one`,
  );
  return rows.length;
}

/**
 * Finished jobs of a log kept for a period (customer e-mails, buyer messages: sent, kept, skipped
 * or given up) last changed before `cutoff`. A pending one is live work, whatever its age.
 */
export async function pruneFinishedJobs(
  db: Executor,
  table: 'notifications' | 'buyer_messages',
  cutoff: Date,
  limit: number,
): Promise<number> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from ${sql.identifier(table)}
        where id in (
          select id from ${sql.identifier(table)}
          where status <> 'pending' and updated_at < ${cutoff.toISOString()}::timestamptz
          order by updated_at
          limit ${limit}
          for update skip locked
        )
        returning 1 as one`,
  );
  return rows.length;
}

/**
 * Kept scans last touched (first seen, replayed or applied) before `cutoff`: the courier's records
 * Dakiya could not apply, kept for a replay through newer tables (decision 137), of parcels long
 * finished by then.
 */
export async function pruneKeptScans(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from kept_scans
        where id in (
          select id from kept_scans
          where first_seen_at < ${cutoff.toISOString()}::timestamptz
            and greatest(first_seen_at, replayed_at, applied_at) < ${cutoff.toISOString()}::timestamptz
          order by first_seen_at
          limit ${limit}
          for update skip locked
        )
        returning 1 as one`,
  );
  return rows.length;
}

/** Audit log entries written before `cutoff`, over every account. */
export async function pruneAuditLog(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from audit_log
        where id in (
          select id from audit_log where at < ${cutoff.toISOString()}::timestamptz
          order by at
          limit ${limit}
          for update skip locked
        )
        returning 1 as one`,
  );
  return rows.length;
}

/**
 * Idempotency keys older than `cutoff`: a key's answer is replayed for 24 hours, and a lookup
 * already takes an older key as absent; this only keeps the table to a day of keys.
 */
export async function pruneIdempotencyKeys(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from idempotency_keys k
        where (k.account_id, k.key) in (
          select account_id, key from idempotency_keys
          where created_at < ${cutoff.toISOString()}::timestamptz
          order by created_at
          limit ${limit}
          for update skip locked
        )
        returning 1 as one`,
  );
  return rows.length;
}
