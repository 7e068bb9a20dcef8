import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { returnEvents, returns } from '../../base/db/schema.js';
import type {
  QcStatus,
  ReturnState,
  ReturnStatus,
  StoredReturnEvent,
} from '../../domain/shipment/return-status-machine.js';

export type ReturnEventRow = typeof returnEvents.$inferSelect;
export type { NewReturnEvent } from '../contracts.js';
import type { NewReturnEvent } from '../contracts.js';

/** A courier names returns by AWB only, and sees those booked on its own service, whichever account's. */
export async function findCarrierReturns(ex: Executor, carrierId: string, awbs: string[]) {
  if (awbs.length === 0) return [];
  return ex
    .select({ id: returns.id, accountId: returns.accountId, awb: returns.awb, qcApplied: returns.qcApplied })
    .from(returns)
    .where(and(eq(returns.carrierId, carrierId), inArray(returns.awb, awbs)));
}

/** Locks the return's row for the transaction; answers its state before the change, or none when it is gone. */
export async function lockReturn(ex: Executor, accountId: string, returnId: string) {
  const [row] = await ex
    .select({
      status: returns.status,
      subStatus: returns.subStatus,
      qcStatus: returns.qcStatus,
      historyPrunedAt: returns.historyPrunedAt,
    })
    .from(returns)
    .where(and(eq(returns.accountId, accountId), eq(returns.id, returnId)))
    .for('update');
  return row;
}

/** Inserts the events that are not replays; one at a time, so each replay is told apart. */
export async function insertReturnEvents(ex: Executor, accountId: string, returnId: string, events: NewReturnEvent[]) {
  const ids: (string | null)[] = [];
  for (const event of events) {
    const [row] = await ex
      .insert(returnEvents)
      .values({ ...event, accountId, returnId })
      .onConflictDoNothing()
      .returning({ id: returnEvents.id });
    ids.push(row?.id ?? null);
  }
  return ids;
}

/** Drops recorded scans by id: unapplied ones a replay's new reading replaces (status-change.ts replacedByReread). */
export async function deleteReturnEvents(ex: Executor, accountId: string, returnId: string, ids: string[]) {
  if (ids.length === 0) return;
  await ex
    .delete(returnEvents)
    .where(
      and(eq(returnEvents.accountId, accountId), eq(returnEvents.returnId, returnId), inArray(returnEvents.id, ids)),
    );
}

export type ReturnHistoryRow = StoredReturnEvent & {
  location: string | null;
  description: string | null;
  eventId: string | null;
};

export async function loadReturnEvents(ex: Executor, accountId: string, returnId: string): Promise<ReturnHistoryRow[]> {
  const rows = await ex
    .select({
      id: returnEvents.id,
      status: returnEvents.status,
      subStatus: returnEvents.subStatus,
      eventTime: returnEvents.eventTime,
      qcStatus: returnEvents.qcStatus,
      qcReason: returnEvents.qcReason,
      receivedAt: returnEvents.receivedAt,
      location: returnEvents.location,
      description: returnEvents.description,
      eventId: returnEvents.eventId,
    })
    .from(returnEvents)
    .where(and(eq(returnEvents.accountId, accountId), eq(returnEvents.returnId, returnId)));
  return rows.map((row) => ({ ...row, status: row.status as ReturnStatus, qcStatus: row.qcStatus as QcStatus | null }));
}

export async function saveReturnState(
  ex: Executor,
  accountId: string,
  returnId: string,
  state: ReturnState,
  now: Date,
) {
  await ex
    .update(returns)
    .set({
      status: state.status,
      subStatus: state.subStatus,
      qcStatus: state.qcStatus,
      qcReason: state.qcReason,
      pickedUpAt: state.pickedUpAt,
      deliveredAt: state.deliveredAt,
      cancelledAt: state.cancelledAt,
      lostAt: state.lostAt,
      updatedAt: now,
    })
    .where(and(eq(returns.accountId, accountId), eq(returns.id, returnId)));
}
