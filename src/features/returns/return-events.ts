import type { Executor } from '../../base/db/client.js';
import type { EventLog } from '../../events/event-log.js';
import { statusChangeEvents } from '../../domain/shipment/status-change.js';
import * as repo from './return-events.repository.js';
import { foldReturnEvents, type ReturnStatus } from '../../domain/shipment/return-status-machine.js';

/**
 * Records events on one booked return and recomputes its state from its whole history, under the
 * return's row lock (taken here), so two batches for one parcel queue rather than interleave.
 * Returns, per event, whether it was new (false for a replay), and the resulting status when
 * anything new was recorded.
 */
export async function applyReturnEvents(
  tx: Executor,
  accountId: string,
  returnId: string,
  events: repo.NewReturnEvent[],
  now: Date,
  log: EventLog,
): Promise<{ fresh: boolean[]; status: ReturnStatus | null }> {
  const before = await repo.lockReturn(tx, accountId, returnId);
  const inserted = await repo.insertReturnEvents(tx, accountId, returnId, events);
  let status: ReturnStatus | null = null;
  if (inserted.some((id) => id !== null)) {
    const history = await repo.loadReturnEvents(tx, accountId, returnId);
    const state = foldReturnEvents(history);
    await repo.saveReturnState(tx, accountId, returnId, state, now);
    status = state.status;
    const qc = { qc_status: state.qcStatus, qc_reason: state.qcReason };
    await log.return(tx, accountId, returnId, statusChangeEvents('return', before, state, history, qc), now);
  }
  return { fresh: inserted.map((id) => id !== null), status };
}

/** A merchant's cancel-order on a booked return, at the server's time, through the same machine. */
export const merchantReturnCancellation = (now: Date): repo.NewReturnEvent => ({
  status: 'return_cancelled',
  subStatus: 'return_cancelled_by_merchant',
  eventTime: now,
  location: null,
  description: 'Cancelled by the merchant',
  qcStatus: null,
  qcReason: null,
  eventId: null,
  receivedAt: now,
});
