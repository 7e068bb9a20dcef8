import type { Executor } from '../../base/db/client.js';
import { districtKey, recordOutcomes } from '../../shipment-records/rto-history.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import {
  journeyEvents,
  type Machine,
  prunedHistoryOutcomes,
  replacedByReread,
  type ScanOutcome,
  scanOutcomes,
} from '../../domain/shipment/status-change.js';
import { foldEvents, type ShipmentState, type ShipmentStatus } from '../../domain/shipment/status-machine.js';
import { boxMachine, boxesMoved } from './box-tracking.js';
import type { EventLog } from '../../events/event-log.js';
import type { ShipmentStatusListener } from '../contracts.js';
import { ParcelGone } from './tracking.errors.js';
import * as repo from './tracking.repository.js';

const SHIPMENT_MACHINE: Machine<repo.HistoryRow, ShipmentState> = {
  kind: 'shipment',
  fold: foldEvents,
  extra: (state) => ({ attempt_count: state.attemptCount, ndr_reason: state.ndrReason, rto_reason: state.rtoReason }),
};

/**
 * Records events on one shipment and recomputes its state from its whole history. Callers hold
 * the shipment's row lock (taken here) for the transaction, so two batches for one parcel queue
 * rather than interleave. Returns, per event, whether it was new (false for a replay) and, for
 * courier scans, what it did; and the resulting status when anything new was recorded.
 */
export async function applyEvents(
  tx: Executor,
  accountId: string,
  shipmentId: string,
  events: repo.NewTrackingEvent[],
  now: Date,
  {
    log,
    directory,
    scans = false,
    reread = false,
    onStatusChange,
  }: {
    log: EventLog;
    directory: PincodeDirectory;
    /** The courier's scans (not a merchant's cancellation or RTO): each is announced as tracking_added. */
    scans?: boolean;
    /** Scans read again by a replay: each replaces its unapplied recording when it reads differently now. */
    reread?: boolean;
    onStatusChange?: ShipmentStatusListener | undefined;
  },
): Promise<{ fresh: boolean[]; status: ShipmentStatus | null; outcomes: ScanOutcome[] }> {
  const before = await repo.lockShipment(tx, accountId, shipmentId);
  if (!before) throw new ParcelGone('forward', shipmentId);
  if (before.historyPrunedAt !== null)
    return {
      fresh: events.map(() => true),
      status: null,
      outcomes: scans ? prunedHistoryOutcomes(events.length, before.status) : [],
    };
  // A multi-piece shipment's state is its boxes' roll-up (box-tracking.ts); a one-box shipment's, its scans'.
  const boxed = before.boxCount >= 2;
  const machine: Machine<repo.HistoryRow, ShipmentState> = boxed ? boxMachine(before.boxCount) : SHIPMENT_MACHINE;
  if (reread) {
    const replaced = replacedByReread(machine, await repo.loadEvents(tx, accountId, shipmentId), events);
    await repo.deleteEvents(tx, accountId, shipmentId, replaced);
  }
  const inserted = await repo.insertEvents(tx, accountId, shipmentId, events);
  let status: ShipmentStatus | null = null;
  const fresh = new Set(inserted.filter((id) => id !== null));
  // A courier is told what each scan did, replays included, so their history is read too.
  const history = fresh.size > 0 || scans ? await repo.loadEvents(tx, accountId, shipmentId) : [];
  if (fresh.size > 0) {
    const state = machine.fold(history);
    await repo.saveState(tx, accountId, shipmentId, state, now);
    await keepHistory(tx, accountId, shipmentId, before, state, history, fresh, directory);
    status = state.status;
    if (state.status !== before.status) await onStatusChange?.(tx, accountId, shipmentId, state.status, now);
    const raised = journeyEvents(machine, before, history, fresh, state, scans);
    if (boxed) raised.push(...(await boxesMoved(tx, accountId, shipmentId, history, fresh, before.boxCount)));
    await log.shipment(tx, accountId, shipmentId, raised, now);
  }
  const outcomes = scans ? scanOutcomes(machine, history, events, inserted) : [];
  return { fresh: inserted.map((id) => id !== null), status, outcomes };
}

/**
 * The delivered history RTO risk is scored on (shipment-records/rto-history.ts): a delivery and the start of
 * an RTO count once per shipment, a refusal once per failed attempt the courier reports as refused,
 * for the buyer's phone, the pincode and its district, in the transaction that records the scans.
 */
async function keepHistory(
  tx: Executor,
  accountId: string,
  shipmentId: string,
  before: { status: string },
  state: ShipmentState,
  history: repo.HistoryRow[],
  fresh: Set<string | null>,
  directory: PincodeDirectory,
) {
  const added = {
    delivered: state.status === 'delivered' && before.status !== 'delivered' ? 1 : 0,
    rto: state.status.startsWith('rto_') && !before.status.startsWith('rto_') ? 1 : 0,
    refused: history.filter(
      (e) =>
        fresh.has(e.id) && state.appliedEventIds.has(e.id) && e.status === 'ndr_raised' && e.ndrReason === 'refused',
    ).length,
  };
  if (added.delivered + added.rto + added.refused === 0) return;
  const { phone, pincode } = await repo.historyKeysOf(tx, accountId, shipmentId);
  const entry = directory.lookup(pincode);
  await recordOutcomes(tx, accountId, { phone, pincode, district: entry ? districtKey(entry) : '' }, added);
}
