import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../base/db/client.js';

/** The tables of outbox consumers' jobs: each has status, next_attempt_at and locked_until. */
export type JobTable = 'webhook_deliveries' | 'notifications' | 'buyer_messages' | 'channel_writebacks';

/**
 * Leases up to `limit` due jobs of any account until `leaseUntil` and answers their ids: FOR UPDATE
 * SKIP LOCKED, so workers in several processes each take different ones. A lease that runs out
 * (its worker died between sending and recording) makes the job due again: it is sent again, at
 * least once.
 */
export async function leaseDueJobs(
  ex: Executor,
  table: JobTable,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<string[]> {
  const at = now.toISOString();
  const name = sql.identifier(table);
  const rows = await queryPreparedRows<{ id: string }>(
    ex,
    sql`
    update ${name} set locked_until = ${leaseUntil.toISOString()}::timestamptz
    where id in (
      select id from ${name}
      where status = 'pending' and next_attempt_at <= ${at}::timestamptz and (locked_until is null or locked_until <= ${at}::timestamptz)
      order by next_attempt_at
      limit ${limit}
      for update skip locked)
    returning id`,
  );
  return rows.map((row) => row.id);
}

/**
 * Leases those of `ids` that are still due and unleased, as leaseDueJobs does, for a worker that
 * chose which due jobs to send itself (webhooks share their slots fairly between accounts); answers
 * the `returning` columns (the id alone by default) of those it leased, in the same statement. One
 * another worker leased meanwhile, or holds locked, is left out.
 */
export async function leaseJobs<Row = { id: string }>(
  ex: Executor,
  table: JobTable,
  ids: readonly string[],
  now: Date,
  leaseUntil: Date,
  returning: SQL = sql`id`,
): Promise<Row[]> {
  if (ids.length === 0) return [];
  const at = now.toISOString();
  const name = sql.identifier(table);
  return queryPreparedRows<Row>(
    ex,
    sql`
    update ${name} set locked_until = ${leaseUntil.toISOString()}::timestamptz
    where id in (
      select id from ${name}
      where id = any(${sql.param(ids)}::uuid[])
        and status = 'pending' and next_attempt_at <= ${at}::timestamptz and (locked_until is null or locked_until <= ${at}::timestamptz)
      for update skip locked)
    returning ${returning}`,
  );
}
