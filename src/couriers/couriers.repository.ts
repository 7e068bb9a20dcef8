import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, isTransaction, queryPreparedRows, queryRows } from '../base/db/client.js';
import type { Journey } from './carrier-event.js';
import { awbCounters, courierPolls, sandboxParcels } from '../base/db/schema.js';

export type SandboxParcelRow = typeof sandboxParcels.$inferSelect;
/** A leased row of the poller's queue. */
export interface PollRow {
  subjectId: string;
  journey: Journey;
  accountId: string;
  carrierId: string;
  awb: string;
  bookedAt: Date;
  failures: number;
}

/** A parcel joining the poller's queue: a shipment's or a return's id, with which it is. */
export interface NewPoll {
  subjectId: string;
  journey: Journey;
  carrierId: string;
  awb: string;
  bookedAt: Date;
  nextPollAt: Date;
}

const subjectColumns = (values: NewPoll) =>
  values.journey === 'forward'
    ? { shipmentId: values.subjectId, returnId: null }
    : { shipmentId: null, returnId: values.subjectId };

/** insertPoll as a statement of its caller's (a CTE of the booking's insert). */
export function pollInsert(accountId: string, values: NewPoll): SQL {
  const { shipmentId, returnId } = subjectColumns(values);
  return sql`insert into courier_polls (subject_id, journey, shipment_id, return_id, account_id, carrier_id, awb, booked_at, next_poll_at)
    values (${values.subjectId}::uuid, ${values.journey}, ${shipmentId}::uuid, ${returnId}::uuid, ${accountId}::uuid, ${values.carrierId}, ${values.awb},
            ${values.bookedAt.toISOString()}::timestamptz, ${values.nextPollAt.toISOString()}::timestamptz)
    on conflict do nothing`;
}

export async function insertPoll(db: Executor, accountId: string, values: NewPoll) {
  await db
    .insert(courierPolls)
    .values({ ...values, ...subjectColumns(values), accountId })
    .onConflictDoNothing();
}

/**
 * Leases up to `limit` due rows of one courier for `leaseMs`. SKIP LOCKED lets processes that ask
 * at the same moment take different rows; the lease keeps a row from being taken again while its
 * courier call runs, outside any transaction. A process that dies mid-call frees its rows when
 * the lease runs out. The courier's queue spans accounts, so this query alone is not scoped by one.
 * The leased rows are updated through `= any(array(...))`, one primary-key probe each: joined to
 * the CTE instead, the planner hashed the whole queue (14,347 rows at a year) to update 500.
 */
export async function leaseDue(
  db: Executor,
  carrierIds: string[],
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<PollRow[]> {
  if (carrierIds.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`with due as (
      select subject_id from courier_polls
      where carrier_id in (${sql.join(
        carrierIds.map((id) => sql`${id}`),
        sql`, `,
      )})
        and next_poll_at <= ${now.toISOString()}::timestamptz
        and (lease_until is null or lease_until <= ${now.toISOString()}::timestamptz)
      order by next_poll_at
      limit ${limit}
      for update skip locked
    )
    update courier_polls p set lease_until = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
    where p.subject_id = any(array(select subject_id from due))
    returning p.subject_id, p.journey, p.account_id, p.carrier_id, p.awb, p.booked_at, p.next_poll_at, p.failures`,
  );
  return rows.map((row) => ({
    subjectId: row.subject_id as string,
    journey: row.journey as Journey,
    accountId: row.account_id as string,
    carrierId: row.carrier_id as string,
    awb: row.awb as string,
    bookedAt: new Date(row.booked_at as string),
    failures: Number(row.failures),
  }));
}

export async function reschedule(
  db: Executor,
  accountId: string,
  subjectId: string,
  nextPollAt: Date,
  failures: number,
) {
  await db
    .update(courierPolls)
    .set({ nextPollAt, failures, leaseUntil: null })
    .where(and(eq(courierPolls.accountId, accountId), eq(courierPolls.subjectId, subjectId)));
}

export async function deletePoll(db: Executor, accountId: string, subjectId: string) {
  await db
    .delete(courierPolls)
    .where(and(eq(courierPolls.accountId, accountId), eq(courierPolls.subjectId, subjectId)));
}

// The sandbox courier's own books. It is a courier, not a tenant of ours: like a real courier's
// database, its rows are keyed by waybill and reference, not by our accounts.

/**
 * Books a parcel under its reference, or finds the one already booked under it (a repeated
 * booking), in one statement: its waybill.
 */
/**
 * The sandbox's parcel for a booking, or the one already booked for its reference. Outside a
 * transaction the statement commits without waiting for its WAL flush, as an AWB draw does: the
 * booking that carries the parcel commits after it, and its flush makes the parcel durable too;
 * a parcel lost in a crash belonged to no booking. Inside one (an idempotent booking) the
 * booking's own commit decides.
 */
export async function bookSandboxParcel(db: Executor, values: typeof sandboxParcels.$inferInsert): Promise<string> {
  // Set in the row's values, which a data-modifying CTE always computes, whatever the query reads.
  const noInstructions = isTransaction(db)
    ? sql`'[]'::jsonb`
    : sql`(case when set_config('synchronous_commit', 'off', true) = 'off' then '[]'::jsonb end)`;
  const [row] = await queryPreparedRows<{ awb: string }>(
    db,
    sql`with added as (
      insert into sandbox_parcels (awb, carrier_id, reference, scenario, booked_at, instructions)
      values (${values.awb}, ${values.carrierId}, ${values.reference}, ${values.scenario}, ${values.bookedAt.toISOString()}::timestamptz, ${noInstructions})
      on conflict do nothing
      returning awb)
    select awb from added union all select awb from sandbox_parcels where reference = ${values.reference} limit 1`,
  );
  if (row) return row.awb;
  // A booking of the same reference committed while this one waited on it: the conflict is seen,
  // that parcel is not (the statement's snapshot is older). A new statement sees it.
  const [first] = await queryPreparedRows<{ awb: string }>(
    db,
    sql`select awb from sandbox_parcels where reference = ${values.reference}`,
  );
  return first!.awb;
}

export async function findSandboxParcels(db: Executor, carrierId: string, awbs: string[]) {
  if (awbs.length === 0) return [];
  return db
    .select()
    .from(sandboxParcels)
    .where(and(eq(sandboxParcels.carrierId, carrierId), inArray(sandboxParcels.awb, awbs)));
}

export async function updateSandboxParcel(
  db: Executor,
  awb: string,
  values: Partial<typeof sandboxParcels.$inferInsert>,
) {
  await db.update(sandboxParcels).set(values).where(eq(sandboxParcels.awb, awb));
}

/**
 * The next number of a courier's AWB series. Without an Idempotency-Key it is drawn by its own
 * statement, outside the booking, committed without waiting for its flush (dakiya_draw_awb,
 * migration 0023): the counter row every booking on the series shares is locked for microseconds,
 * not for a booking nor an fsync. A booking that then fails leaves a gap, and numbers are never
 * handed out twice. An idempotent booking takes it inside its transaction, as the last step before
 * the insert: reaching for a second connection while the transaction holds one could starve the
 * pool (and PGlite has only one), so the counter row stays locked until that transaction commits.
 */
export async function nextAwbNumber(ex: Executor, carrierId: string): Promise<number> {
  if (!isTransaction(ex)) {
    const [drawn] = await queryPreparedRows<{ drawn: number | string }>(
      ex,
      sql`call dakiya_draw_awb(${carrierId}, null)`,
    );
    return Number(drawn!.drawn);
  }
  const [row] = await ex
    .insert(awbCounters)
    .values({ carrierId, lastValue: 1 })
    .onConflictDoUpdate({ target: awbCounters.carrierId, set: { lastValue: sql`${awbCounters.lastValue} + 1` } })
    .returning({ value: awbCounters.lastValue });
  return row!.value;
}

/** Whether any shipment or return has a waybill yet (a fresh database has none). */
export async function anyAwbIssued(db: Executor): Promise<boolean> {
  const rows = await queryRows<{ issued: boolean }>(
    db,
    sql`select exists (select 1 from shipments where awb is not null) or exists (select 1 from returns where awb is not null) as issued`,
  );
  return rows[0]!.issued;
}

/** How many numbers a counter has handed out (0 for one never used). */
export async function awbCounterValue(db: Executor, carrierId: string): Promise<number> {
  const rows = await queryRows<{ last_value: string }>(
    db,
    sql`select last_value from awb_counters where carrier_id = ${carrierId}`,
  );
  return rows[0] ? Number(rows[0].last_value) : 0;
}

/**
 * The first waybill in [from, to] (same prefix and length: text order is number order) that a
 * shipment or return already has. AWBs are unique across accounts (shipments_awb_key,
 * returns_awb_key), so this looks across them too, by the AWB indexes.
 */
export async function firstIssuedAwb(
  db: Executor,
  range: { prefix: string; from: string; to: string },
): Promise<string | undefined> {
  const length = range.from.length;
  const pattern = `^${range.prefix}[0-9]+$`;
  const rows = await queryRows<{ awb: string }>(
    db,
    sql`select awb from (
          select awb from shipments where awb between ${range.from} and ${range.to}
          union all
          select awb from returns where awb between ${range.from} and ${range.to}
        ) issued
        where length(awb) = ${length} and awb ~ ${pattern}
        order by awb limit 1`,
  );
  return rows[0]?.awb;
}
