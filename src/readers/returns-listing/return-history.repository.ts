import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { returnEvents } from '../../base/db/schema.js';

export type ReturnEventRow = typeof returnEvents.$inferSelect;

/** Events of many returns, oldest first, grouped by return. */
export async function findReturnEventsOf(ex: Executor, accountId: string, returnIds: string[]) {
  const grouped = new Map<string, ReturnEventRow[]>();
  if (returnIds.length === 0) return grouped;
  const rows = await ex
    .select()
    .from(returnEvents)
    .where(and(eq(returnEvents.accountId, accountId), inArray(returnEvents.returnId, returnIds)))
    .orderBy(asc(returnEvents.eventTime), asc(returnEvents.receivedAt));
  for (const row of rows) {
    const list = grouped.get(row.returnId);
    if (list) list.push(row);
    else grouped.set(row.returnId, [row]);
  }
  return grouped;
}
