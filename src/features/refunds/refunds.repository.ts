import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { refunds } from '../../base/db/schema.js';

export type RefundRow = typeof refunds.$inferSelect;

export async function insertRefund(ex: Executor, row: RefundRow) {
  await ex.insert(refunds).values(row);
}

export async function findRefund(ex: Executor, accountId: string, refundId: string) {
  const [row] = await ex
    .select()
    .from(refunds)
    .where(and(eq(refunds.accountId, accountId), eq(refunds.id, refundId)));
  return row;
}

/** The refund, locked until the transaction ends: one step at a time. */
export async function lockRefund(ex: Executor, accountId: string, refundId: string) {
  const [row] = await ex
    .select()
    .from(refunds)
    .where(and(eq(refunds.accountId, accountId), eq(refunds.id, refundId)))
    .for('update');
  return row;
}

export async function updateRefund(
  ex: Executor,
  accountId: string,
  refundId: string,
  values: Partial<Omit<RefundRow, 'id' | 'accountId'>>,
) {
  const [row] = await ex
    .update(refunds)
    .set(values)
    .where(and(eq(refunds.accountId, accountId), eq(refunds.id, refundId)))
    .returning();
  return row!;
}

/** Marks due, now, the return's refunds not yet due that wait on one of these rules; answers them. */
export function releaseForReturn(ex: Executor, accountId: string, returnId: string, releaseOn: string[], now: Date) {
  return ex
    .update(refunds)
    .set({ releasedAt: now, updatedAt: now })
    .where(
      and(
        eq(refunds.accountId, accountId),
        eq(refunds.returnId, returnId),
        isNull(refunds.releasedAt),
        inArray(refunds.releaseOn, releaseOn),
      ),
    )
    .returning();
}

/** The return's refund, when still pending and not due: cancelled with its return. */
export function cancelForReturn(ex: Executor, accountId: string, returnId: string, now: Date) {
  return ex
    .update(refunds)
    .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
    .where(
      and(
        eq(refunds.accountId, accountId),
        eq(refunds.returnId, returnId),
        eq(refunds.status, 'pending'),
        isNull(refunds.releasedAt),
      ),
    )
    .returning();
}

/** The account's refunds matching the filter, oldest first, after a cursor. */
export function listRefunds(
  ex: Executor,
  accountId: string,
  filter: {
    status?: string | undefined;
    storeId?: string | undefined;
    /** A store-limited credential's stores: the others' refunds are left out. */
    storeIds?: readonly string[] | undefined;
    due?: boolean | undefined;
    after?: Pick<RefundRow, 'createdAt' | 'id'> | undefined;
    limit: number;
  },
) {
  const where: (SQL | undefined)[] = [
    eq(refunds.accountId, accountId),
    filter.status === undefined ? undefined : eq(refunds.status, filter.status),
    filter.storeId === undefined ? undefined : eq(refunds.storeId, filter.storeId),
    filter.storeIds === undefined ? undefined : inArray(refunds.storeId, [...filter.storeIds]),
    filter.due === undefined
      ? undefined
      : filter.due
        ? sql`${refunds.releasedAt} is not null`
        : isNull(refunds.releasedAt),
    filter.after === undefined
      ? undefined
      : sql`(${refunds.createdAt}, ${refunds.id}) > (${filter.after.createdAt}, ${filter.after.id})`,
  ];
  return ex
    .select()
    .from(refunds)
    .where(and(...where))
    .orderBy(asc(refunds.createdAt), asc(refunds.id))
    .limit(filter.limit);
}
