import type { Executor } from '../../base/db/client.js';
import type { EventLog } from '../../events/event-log.js';
import {
  journeyEvents,
  type Machine,
  prunedHistoryOutcomes,
  replacedByReread,
  type ScanOutcome,
  scanOutcomes,
} from '../../domain/shipment/status-change.js';
import type { ReturnChangeListener } from '../contracts.js';
import * as repo from './return-events.repository.js';
import { ParcelGone } from './tracking.errors.js';
import { foldReturnEvents, type ReturnState, type ReturnStatus } from '../../domain/shipment/return-status-machine.js';

const RETURN_MACHINE: Machine<repo.ReturnHistoryRow, ReturnState> = {
  kind: 'return',
  fold: (events) => foldReturnEvents(events),
  extra: (state) => ({ qc_status: state.qcStatus, qc_reason: state.qcReason }),
  // The courier's QC result is news of its own (Velocity's qc_update), beside the move it came with.
  also: (previous, state, cause) =>
    state.qcStatus !== null && (state.qcStatus !== previous.qcStatus || state.qcReason !== previous.qcReason)
      ? [
          {
            type: 'return.qc_updated',
            change: { qc_status: state.qcStatus, qc_reason: state.qcReason, event_time: cause.eventTime.toISOString() },
          },
        ]
      : [],
};

/**
 * Records events on one booked return and recomputes its state from its whole history, under the
 * return's row lock (taken here), so two batches for one parcel queue rather than interleave.
 * Returns, per event, whether it was new (false for a replay) and, for courier scans, what it did;
 * and the resulting status when anything new was recorded.
 */
export async function applyReturnEvents(
  tx: Executor,
  accountId: string,
  returnId: string,
  events: repo.NewReturnEvent[],
  now: Date,
  log: EventLog,
  {
    scans = false,
    reread = false,
    onChange,
  }: {
    /** The courier's scans (not the merchant's cancel-order): each is announced as tracking_added. */
    scans?: boolean;
    /** Scans read again by a replay: each replaces its unapplied recording when it reads differently now. */
    reread?: boolean;
    onChange?: ReturnChangeListener | undefined;
  } = {},
): Promise<{ fresh: boolean[]; status: ReturnStatus | null; outcomes: ScanOutcome[] }> {
  const before = await repo.lockReturn(tx, accountId, returnId);
  if (!before) throw new ParcelGone('return', returnId);
  if (before.historyPrunedAt !== null)
    return {
      fresh: events.map(() => true),
      status: null,
      outcomes: scans ? prunedHistoryOutcomes(events.length, before.status) : [],
    };
  if (reread) {
    const replaced = replacedByReread(RETURN_MACHINE, await repo.loadReturnEvents(tx, accountId, returnId), events);
    await repo.deleteReturnEvents(tx, accountId, returnId, replaced);
  }
  const inserted = await repo.insertReturnEvents(tx, accountId, returnId, events);
  let status: ReturnStatus | null = null;
  const fresh = new Set(inserted.filter((id) => id !== null));
  // A courier is told what each scan did, replays included, so their history is read too.
  const history = fresh.size > 0 || scans ? await repo.loadReturnEvents(tx, accountId, returnId) : [];
  if (fresh.size > 0) {
    const state = foldReturnEvents(history);
    await repo.saveReturnState(tx, accountId, returnId, state, now);
    status = state.status;
    if (state.status !== before.status || state.qcStatus !== before.qcStatus)
      await onChange?.(tx, accountId, returnId, { status: state.status, qcStatus: state.qcStatus }, now);
    await log.return(tx, accountId, returnId, journeyEvents(RETURN_MACHINE, before, history, fresh, state, scans), now);
  }
  const outcomes = scans ? scanOutcomes(RETURN_MACHINE, history, events, inserted) : [];
  return { fresh: inserted.map((id) => id !== null), status, outcomes };
}
