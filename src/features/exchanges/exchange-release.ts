import { and, eq, or, sql } from 'drizzle-orm';
import { exchanges, returns } from '../../base/db/schema.js';
import type { EventLog } from '../../events/event-log.js';
import type { ReturnChangeListener } from '../contracts.js';
import { eventData } from './exchanges.repository.js';

// What an exchange does when its pickup moves (decision 149): the tracking intake tells it, in the
// scan's transaction, so the replacement is released (its label and pickup no longer refused) with
// the very scan that picked the old item up, and a failed QC is flagged with the scan that failed it.

const PICKED_UP = ['return_picked_up', 'return_in_transit', 'return_delivered'];
const withoutQc = sql`not coalesce((select ${returns.qcApplied} from ${returns} where ${returns.id} = ${exchanges.returnId}), false)`;

export const exchangeReleases =
  (events: Pick<EventLog, 'record'>): ReturnChangeListener =>
  async (tx, accountId, returnId, state, now) => {
    const pickedUp = PICKED_UP.includes(state.status);
    const told = async (type: 'exchange.replacement_released' | 'exchange.qc_failed', ids: { id: string }[]) => {
      for (const { id } of ids)
        await events.record(
          tx,
          accountId,
          { type, subjectType: 'exchange', subjectId: id, data: { exchange: await eventData(tx, accountId, id) } },
          now,
        );
    };
    if (state.qcStatus === 'failed') {
      const flagged = await tx
        .update(exchanges)
        .set({ qcFailedAt: now, updatedAt: now })
        .where(
          and(
            eq(exchanges.accountId, accountId),
            eq(exchanges.returnId, returnId),
            sql`${exchanges.qcFailedAt} is null`,
          ),
        )
        .returning({ id: exchanges.id });
      await told('exchange.qc_failed', flagged);
      return;
    }
    const releasable = [];
    if (pickedUp) releasable.push(eq(exchanges.releaseOn, 'return_picked_up'));
    if (state.qcStatus === 'passed') releasable.push(eq(exchanges.releaseOn, 'qc_passed'));
    // A pickup booked without QC has no pass to wait on: qc_passed then waits on the pickup alone.
    else if (pickedUp) releasable.push(and(eq(exchanges.releaseOn, 'qc_passed'), withoutQc));
    if (releasable.length === 0) return;
    const released = await tx
      .update(exchanges)
      .set({ replacementHeld: false, updatedAt: now })
      .where(
        and(
          eq(exchanges.accountId, accountId),
          eq(exchanges.returnId, returnId),
          eq(exchanges.replacementHeld, true),
          or(...releasable),
        ),
      )
      .returning({ id: exchanges.id });
    await told('exchange.replacement_released', released);
  };
