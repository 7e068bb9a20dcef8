import type { Executor } from '../../base/db/client.js';
import { type BoxStatus, foldBoxEvents, type RolledState, sameExceptions } from '../../domain/shipment/box-rollup.js';
import type { EventType } from '../../domain/shipment/event-types.js';
import type { Machine } from '../../domain/shipment/status-change.js';
import * as repo from './tracking.repository.js';

// A multi-piece shipment's tracking (decision 179, docs/tracking.md "Multi-piece shipments"): each
// box's scans fold into its own status, the shipment shows their roll-up through the same machine
// steps as a one-box shipment, and a box that goes its own way is the merchant's to hear of.

/** The status machine of a shipment in `boxCount` boxes: the boxes' roll-up (box-rollup.ts). */
export function boxMachine(boxCount: number): Machine<repo.HistoryRow, RolledState> {
  return {
    kind: 'shipment',
    fold: (events) => foldBoxEvents(events, boxCount),
    extra: (state) => ({ attempt_count: state.attemptCount, ndr_reason: state.ndrReason, rto_reason: state.rtoReason }),
    derived: true,
    // A scan that moves its box has changed the parcel the courier named, even when the shipment's roll-up stays.
    detail: (state) => state.boxes.map((box) => [box.status, box.subStatus]),
  };
}

const boxJson = (box: BoxStatus, awb: string | undefined) => ({
  box_no: box.boxNo,
  awb: awb ?? null,
  status: box.status,
  sub_status: box.subStatus,
});

/**
 * After new scans on a multi-piece shipment: each box whose status moved is written to its row,
 * and when the boxes that went their own way changed (a box lost, returned or held while the
 * others go on, or another state of one), `shipment.box_exception` names them. Its time is the
 * latest new scan's that a box took.
 */
export async function boxesMoved(
  tx: Executor,
  accountId: string,
  shipmentId: string,
  history: readonly repo.HistoryRow[],
  fresh: ReadonlySet<string | null>,
  boxCount: number,
): Promise<{ type: EventType; change: Record<string, unknown> }[]> {
  const state = foldBoxEvents(history, boxCount);
  const rows = await repo.loadBoxes(tx, accountId, shipmentId);
  for (const box of state.boxes) {
    const row = rows.find((r) => r.boxNo === box.boxNo);
    if (!row || box.at === null || (row.status === box.status && row.subStatus === box.subStatus)) continue;
    await repo.saveBox(tx, accountId, shipmentId, { ...box, at: box.at });
  }
  const before = foldBoxEvents(
    history.filter((e) => !fresh.has(e.id)),
    boxCount,
  );
  if (state.exceptions.length === 0 || sameExceptions(before.exceptions, state.exceptions)) return [];
  const awbOf = (boxNo: number) => rows.find((r) => r.boxNo === boxNo)?.awb;
  let cause: repo.HistoryRow | undefined;
  for (const e of history)
    if (fresh.has(e.id) && state.appliedEventIds.has(e.id) && (!cause || e.eventTime >= cause.eventTime)) cause = e;
  return [
    {
      type: 'shipment.box_exception',
      change: {
        status: state.status,
        sub_status: state.subStatus,
        exceptions: state.exceptions.map((box) => boxJson(box, awbOf(box.boxNo))),
        boxes: state.boxes.map((box) => boxJson(box, awbOf(box.boxNo))),
        event_time: cause?.eventTime.toISOString() ?? null,
      },
    },
  ];
}
