import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../base/db/client.js';
import { courierPolls, sandboxParcels } from '../base/db/schema.js';

export type SandboxParcelRow = typeof sandboxParcels.$inferSelect;
export type PollRow = typeof courierPolls.$inferSelect;

export async function insertPoll(db: Executor, accountId: string, values: Omit<typeof courierPolls.$inferInsert, 'accountId'>) {
  await db.insert(courierPolls).values({ ...values, accountId }).onConflictDoNothing();
}

/**
 * Leases up to `limit` due rows of one courier for `leaseMs`. SKIP LOCKED lets processes that ask
 * at the same moment take different rows; the lease keeps a row from being taken again while its
 * courier call runs, outside any transaction. A process that dies mid-call frees its rows when
 * the lease runs out. The courier's queue spans accounts, so this query alone is not scoped by one.
 */
export async function leaseDue(db: Executor, carrierIds: string[], now: Date, limit: number, leaseMs: number): Promise<PollRow[]> {
  if (carrierIds.length === 0) return [];
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`with due as (
      select shipment_id from courier_polls
      where carrier_id in (${sql.join(carrierIds.map((id) => sql`${id}`), sql`, `)})
        and next_poll_at <= ${now.toISOString()}::timestamptz
        and (lease_until is null or lease_until <= ${now.toISOString()}::timestamptz)
      order by next_poll_at
      limit ${limit}
      for update skip locked
    )
    update courier_polls p set lease_until = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
    from due where p.shipment_id = due.shipment_id
    returning p.shipment_id, p.account_id, p.carrier_id, p.awb, p.booked_at, p.next_poll_at, p.failures`,
  );
  return rows.map((row) => ({
    shipmentId: row.shipment_id as string,
    accountId: row.account_id as string,
    carrierId: row.carrier_id as string,
    awb: row.awb as string,
    bookedAt: new Date(row.booked_at as string),
    nextPollAt: new Date(row.next_poll_at as string),
    leaseUntil: null,
    failures: Number(row.failures),
  }));
}

export async function reschedule(db: Executor, accountId: string, shipmentId: string, nextPollAt: Date, failures: number) {
  await db
    .update(courierPolls)
    .set({ nextPollAt, failures, leaseUntil: null })
    .where(and(eq(courierPolls.accountId, accountId), eq(courierPolls.shipmentId, shipmentId)));
}

export async function deletePoll(db: Executor, accountId: string, shipmentId: string) {
  await db.delete(courierPolls).where(and(eq(courierPolls.accountId, accountId), eq(courierPolls.shipmentId, shipmentId)));
}

// The sandbox courier's own books. It is a courier, not a tenant of ours: like a real courier's
// database, its rows are keyed by waybill and reference, not by our accounts.

export async function findSandboxParcel(db: Executor, reference: string) {
  const [row] = await db.select().from(sandboxParcels).where(eq(sandboxParcels.reference, reference));
  return row;
}

export async function insertSandboxParcel(db: Executor, values: typeof sandboxParcels.$inferInsert) {
  const [row] = await db.insert(sandboxParcels).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findSandboxParcels(db: Executor, carrierId: string, awbs: string[]) {
  if (awbs.length === 0) return [];
  return db.select().from(sandboxParcels).where(and(eq(sandboxParcels.carrierId, carrierId), inArray(sandboxParcels.awb, awbs)));
}

export async function updateSandboxParcel(db: Executor, awb: string, values: Partial<typeof sandboxParcels.$inferInsert>) {
  await db.update(sandboxParcels).set(values).where(eq(sandboxParcels.awb, awb));
}
