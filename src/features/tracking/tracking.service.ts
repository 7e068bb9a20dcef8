import { type Clock, isCalendarDay, isStorableInstant } from '../../base/clock.js';
import type { Db, Executor, Tx } from '../../base/db/client.js';
import { unprocessable } from '../../http/errors.js';
import { hashCredential, newCarrierToken } from '../../tenancy/accounts/credentials.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import {
  foldEvents,
  type ShipmentState,
  NDR_REASONS,
  RTO_REASONS,
  SHIPMENT_STATUSES,
  type ShipmentStatus,
  SUB_STATUSES,
} from '../../domain/shipment/status-machine.js';
import { findCarrierReturns } from './return-events.repository.js';
import { applyReturnEvents } from './return-events.js';
import {
  CARRIER_RETURN_STATUSES,
  qcProblem,
  RETURN_SUB_STATUSES,
  type ReturnStatus,
} from '../../domain/shipment/return-status-machine.js';
import type { EventLog } from '../../events/event-log.js';
import { journeyEvents, type Machine, type ScanOutcome, scanOutcomes } from '../../domain/shipment/status-change.js';
import type { ApplyReturnEvents, ApplyShipmentEvents, ShipmentStatusListener } from '../contracts.js';
import * as repo from './tracking.repository.js';
import { districtKey, recordOutcomes } from '../../base/db/rto-history.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';

const AWB_NOT_FOUND = 'AWB not found for this courier';

/** A courier's clock may run a little ahead of ours; further ahead is a mistake in the event. */
const MAX_CLOCK_SKEW_MS = 10 * 60 * 1000;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export type TrackingService = ReturnType<typeof createTrackingService>;

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
  log: EventLog,
  directory: PincodeDirectory,
  /** The courier's scans (not a merchant's cancellation or RTO): each is announced as tracking_added. */
  scans = false,
  onStatusChange?: ShipmentStatusListener,
): Promise<{ fresh: boolean[]; status: ShipmentStatus | null; outcomes: ScanOutcome[] }> {
  const before = await repo.lockShipment(tx, accountId, shipmentId);
  const inserted = await repo.insertEvents(tx, accountId, shipmentId, events);
  let status: ShipmentStatus | null = null;
  const fresh = new Set(inserted.filter((id) => id !== null));
  // A courier is told what each scan did, replays included, so their history is read too.
  const history = fresh.size > 0 || scans ? await repo.loadEvents(tx, accountId, shipmentId) : [];
  if (fresh.size > 0) {
    const state = foldEvents(history);
    await repo.saveState(tx, accountId, shipmentId, state, now);
    await keepHistory(tx, accountId, shipmentId, before, state, history, fresh, directory);
    status = state.status;
    if (state.status !== before.status) await onStatusChange?.(tx, accountId, shipmentId, state.status, now);
    await log.shipment(
      tx,
      accountId,
      shipmentId,
      journeyEvents(SHIPMENT_MACHINE, before, history, fresh, state, scans),
      now,
    );
  }
  const outcomes = scans ? scanOutcomes(SHIPMENT_MACHINE, history, events, inserted) : [];
  return { fresh: inserted.map((id) => id !== null), status, outcomes };
}

/**
 * The delivered history RTO risk is scored on (base/db/rto-history.ts): a delivery and the start of
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

/** ISO 8601 with an offset, on a real calendar day: Date.parse would roll 2026-02-30 over to 2 March. */
function isIsoTimestamp(text: string): boolean {
  if (!ISO_WITH_OFFSET.test(text) || Number.isNaN(Date.parse(text))) return false;
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return isCalendarDay(year, month, day) && isStorableInstant(new Date(text));
}

const UNKNOWN_STATUS = `status must be one of ${SHIPMENT_STATUSES.join(', ')}; on a return AWB one of ${CARRIER_RETURN_STATUSES.join(', ')}`;

export const isReturnStatus = (status: string): status is ReturnStatus =>
  (CARRIER_RETURN_STATUSES as readonly string[]).includes(status);

/** The checks the schema cannot make; a message for the courier, or null when the event is sound. */
export function eventProblem(event: CarrierEvent, now: Date): string | null {
  const forward = SHIPMENT_STATUSES.includes(event.status as ShipmentStatus);
  if (!forward && !isReturnStatus(event.status)) return UNKNOWN_STATUS;
  if (!isIsoTimestamp(event.event_time)) {
    return 'event_time must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-20T14:30:00+05:30';
  }
  if (Date.parse(event.event_time) > now.getTime() + MAX_CLOCK_SKEW_MS) return 'event_time is in the future';
  const subStatuses = forward
    ? SUB_STATUSES[event.status as ShipmentStatus]
    : RETURN_SUB_STATUSES[event.status as ReturnStatus];
  if (event.sub_status !== undefined && !subStatuses.includes(event.sub_status)) {
    return `sub_status for ${event.status} must be one of ${subStatuses.join(', ') || '(none)'}`;
  }
  if (!forward) {
    if (event.ndr_reason !== undefined || event.rto_reason !== undefined)
      return 'ndr_reason and rto_reason belong to forward events only';
    return qcProblem(event.status as ReturnStatus, event.qc_status, event.qc_reason);
  }
  if (event.qc_status !== undefined || event.qc_reason !== undefined)
    return 'qc_status and qc_reason belong to return events only';
  const status = event.status as ShipmentStatus;
  if (event.ndr_reason !== undefined) {
    if (status !== 'ndr_raised') return 'ndr_reason belongs to ndr_raised events only';
    if (!(NDR_REASONS as readonly string[]).includes(event.ndr_reason))
      return `ndr_reason must be one of ${NDR_REASONS.join(', ')}`;
  }
  if (event.rto_reason !== undefined) {
    if (!status.startsWith('rto_')) return 'rto_reason belongs to rto_* events only';
    if (!(RTO_REASONS as readonly string[]).includes(event.rto_reason))
      return `rto_reason must be one of ${RTO_REASONS.join(', ')}`;
  }
  return null;
}

/**
 * A scan dated before the courier was booked cannot be: the parcel had no AWB to scan. It is most
 * often a time zone mistake (India time sent as UTC), and kept it would be listed before "Order
 * placed" on the customer's page, so it is refused, naming both instants.
 */
function beforeBooking(event: CarrierEvent, shipment: { createdAt: Date; assignedAt: Date | null }): string | false {
  const booked = shipment.assignedAt ?? shipment.createdAt;
  if (Date.parse(event.event_time) >= booked.getTime()) return false;
  return `event_time ${event.event_time} is before the shipment was booked (${booked.toISOString()}): check its time zone`;
}

/** A sound event and its place in the request, so that its answer lands at the same index. */
type Entry = { event: CarrierEvent; i: number };

/** What a forward and a return event store alike. */
const commonFields = (event: CarrierEvent, receivedAt: Date) => ({
  status: event.status,
  subStatus: event.sub_status ?? null,
  eventTime: new Date(event.event_time),
  location: event.location ?? null,
  description: event.description ?? null,
  eventId: event.event_id ?? null,
  receivedAt,
});

export function createTrackingService({
  db,
  clock,
  catalogue,
  directory,
  events: log,
  onStatusChange,
}: {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  /** The destination's district, for the RTO history (keepHistory). */
  directory: PincodeDirectory;
  events: EventLog;
  /** Followers of shipments' statuses in the same transaction (the COD ledger), handed in by app.ts. */
  onStatusChange?: ShipmentStatusListener;
}) {
  const service = {
    /** For the features that record merchant events (cancel-order, initiate-rto), handed in by app.ts. */
    applyShipmentEvents: ((tx, accountId, shipmentId, events, now) =>
      applyEvents(
        tx,
        accountId,
        shipmentId,
        events,
        now,
        log,
        directory,
        false,
        onStatusChange,
      )) satisfies ApplyShipmentEvents,
    applyReturnEvents: ((tx, accountId, returnId, events, now) =>
      applyReturnEvents(tx, accountId, returnId, events, now, log)) satisfies ApplyReturnEvents,

    async createCarrierToken(carrierId: string) {
      if (!catalogue.byId.has(carrierId))
        throw unprocessable(`carrier_id '${carrierId}' is not a known courier service`, 'carrier_id');
      const token = newCarrierToken();
      await repo.insertCarrierToken(db, { carrierId, tokenHash: hashCredential(token), createdAt: clock.now() });
      return { token, carrierId };
    },

    authenticateCarrier: async (token: string) => (await repo.findCarrierByToken(db, hashCredential(token))) ?? null,

    /** One answer per event, in order. Each shipment's events commit together, apart from the others'. */
    async ingest(carrierId: string, events: CarrierEvent[]) {
      const now = clock.now();
      const results: {
        awb: string;
        accepted: boolean;
        duplicate?: boolean;
        changed?: false;
        reason?: string;
        error?: string;
      }[] = events.map((event) => {
        const problem = eventProblem(event, now);
        return problem ? { awb: event.awb, accepted: false, error: problem } : { awb: event.awb, accepted: true };
      });
      const sound = events.map((event, i) => ({ event, i })).filter(({ i }) => results[i]!.accepted);
      const awbs = [...new Set(sound.map(({ event }) => event.awb))];
      const shipments = await repo.findCarrierShipments(db, carrierId, awbs);
      const returns = await findCarrierReturns(db, carrierId, awbs);
      const byAwb = new Map(shipments.map((s) => [s.awb!, s]));
      const returnByAwb = new Map(returns.map((r) => [r.awb!, r]));

      const perShipment = new Map<string, Entry[]>();
      const perReturn = new Map<string, Entry[]>();
      for (const entry of sound) {
        const { awb, status } = entry.event;
        const problem = byAwb.has(awb)
          ? (isReturnStatus(status) && 'AWB is a forward shipment: return statuses belong to return AWBs') ||
            beforeBooking(entry.event, byAwb.get(awb)!)
          : returnByAwb.has(awb)
            ? !isReturnStatus(status)
              ? `AWB is a return: status must be one of ${CARRIER_RETURN_STATUSES.join(', ')}`
              : entry.event.qc_status !== undefined &&
                !returnByAwb.get(awb)!.qcApplied &&
                'qc_status belongs to quality-checked returns; this one is not'
            : AWB_NOT_FOUND;
        if (problem) {
          results[entry.i] = { awb, accepted: false, error: problem };
          continue;
        }
        const groups = byAwb.has(awb) ? perShipment : perReturn;
        const list = groups.get(awb);
        if (list) list.push(entry);
        else groups.set(awb, [entry]);
      }

      // Each AWB's events commit together, apart from the others'; replays among them answer as
      // duplicates, and any event that changed nothing says so and why.
      const applyEach = async (
        groups: Map<string, Entry[]>,
        apply: (tx: Tx, awb: string, entries: Entry[]) => Promise<{ fresh: boolean[]; outcomes: ScanOutcome[] }>,
      ) => {
        for (const [awb, entries] of groups) {
          const { fresh, outcomes } = await db.transaction((tx) => apply(tx, awb, entries));
          entries.forEach(({ i }, k) => {
            const outcome = outcomes[k]!;
            if (outcome.changed) return;
            results[i] = {
              awb,
              accepted: true,
              ...(!fresh[k] && { duplicate: true }),
              changed: false,
              reason: outcome.reason,
            };
          });
        }
      };
      await applyEach(perShipment, (tx, awb, entries) => {
        const shipment = byAwb.get(awb)!;
        const stored = entries.map(({ event }) => ({
          ...commonFields(event, now),
          ndrReason: event.ndr_reason ?? null,
          rtoReason: event.rto_reason ?? null,
        }));
        return applyEvents(tx, shipment.accountId, shipment.id, stored, now, log, directory, true, onStatusChange);
      });
      await applyEach(perReturn, (tx, awb, entries) => {
        const found = returnByAwb.get(awb)!;
        const stored = entries.map(({ event }) => ({
          ...commonFields(event, now),
          qcStatus: event.qc_status ?? null,
          qcReason: event.qc_reason ?? null,
        }));
        return applyReturnEvents(tx, found.accountId, found.id, stored, now, log, true);
      });
      return results;
    },

    /**
     * Scans a courier's API pushed (Ekart's webhook), which names the parcel but not the service:
     * each is applied, as `ingest` applies them, under whichever of the connector's services holds
     * its AWB. One answer per event, in order.
     */
    async ingestPushed(carrierIds: readonly string[], events: CarrierEvent[]) {
      const results: Awaited<ReturnType<typeof service.ingest>> = events.map((event) => ({
        awb: event.awb,
        accepted: false,
        error: AWB_NOT_FOUND,
      }));
      let unplaced = events.map((event, i) => ({ event, i }));
      for (const carrierId of carrierIds) {
        if (unplaced.length === 0) break;
        const answers = await service.ingest(
          carrierId,
          unplaced.map(({ event }) => event),
        );
        const placed = answers.map((answer) => answer.error !== AWB_NOT_FOUND);
        unplaced.forEach(({ i }, k) => {
          if (placed[k]) results[i] = answers[k]!;
        });
        unplaced = unplaced.filter((_, k) => !placed[k]);
      }
      return results;
    },
  };
  return service;
}
