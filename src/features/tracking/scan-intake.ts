import type { Clock } from '../../base/clock.js';
import type { Db, Tx } from '../../base/db/client.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';
import { keepScans, type KeptReason, type NewKeptScan } from '../../couriers/kept-scans.repository.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { CARRIER_RETURN_STATUSES } from '../../domain/shipment/return-status-machine.js';
import type { ScanOutcome } from '../../domain/shipment/status-change.js';
import type { EventLog } from '../../events/event-log.js';
import type { ReturnChangeListener, ShipmentStatusListener } from '../contracts.js';
import { scanAudit } from './scan-audit.js';
import { findCarrierReturns } from './return-events.repository.js';
import { applyReturnEvents } from './return-events.js';
import { eventProblem, isReturnStatus, placeScan } from './scan-checks.js';
import { applyEvents } from './shipment-events.js';
import { ParcelGone } from './tracking.errors.js';
import * as repo from './tracking.repository.js';

// The scan intake every courier's scans go through, pushed, pulled or replayed: each judged
// (sound, of a parcel of the service, not before its booking), applied per AWB in a transaction
// of its own, and kept with its reason when it cannot be.

export const AWB_NOT_FOUND = 'AWB not found for this courier';

/** What the intake answers a courier for one event, in the order sent. */
export interface IntakeResult {
  awb: string;
  accepted: boolean;
  duplicate?: boolean;
  changed?: false;
  reason?: string;
  error?: string;
}

/** A scan into the intake: the event, and the courier's own record of it (kept when it cannot be applied). */
export interface IntakeScan {
  event: CarrierEvent;
  raw: unknown;
}

/**
 * What became of one scan, for a replay: applied (it moved the parcel or stands in its history as
 * the machine took it), a duplicate of a recorded scan (applied or not), or kept with why.
 */
export type ScanFate =
  | { fate: 'applied'; accountId: string }
  | { fate: 'duplicate'; accountId: string; applied: boolean }
  | { fate: 'kept'; accountId: string | null; reasonCode: KeptReason; reason: string };

/**
 * A parcel a courier names by AWB, as the intake finds it among the service's shipments and returns.
 * `boxNo`: the box of a multi-piece shipment the AWB is (1: its master AWB), 0 for a shipment in one box.
 */
export type Parcel =
  | { journey: 'forward'; id: string; accountId: string; booked: Date; boxNo: number }
  | { journey: 'return'; id: string; accountId: string; qcApplied: boolean };

/** Where a scan stands in its parcel's history, and the courier's own time when that differs (scan-checks.ts placeScan). */
type Placed = { eventTime: Date; statedTime: Date | null };

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

/** What the intake needs, and so the tracking service that holds it. */
export interface ScanIntakeDeps {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  /** The destination's district, for the RTO history (keepHistory). */
  directory: PincodeDirectory;
  events: EventLog;
  /** Followers of shipments' statuses in the same transaction (the COD ledger), handed in by app.ts. */
  onStatusChange?: ShipmentStatusListener | undefined;
  /** Followers of returns' statuses and QC results in the same transaction (exchanges), handed in by app.ts. */
  onReturnChange?: ReturnChangeListener | undefined;
  /** SCAN_EARLY_TOLERANCE_SECONDS: how long before its booking a scan may be stamped (scan-checks.ts placeScan). */
  earlyScanSeconds: number;
}

export function createScanIntake({
  db,
  clock,
  catalogue,
  directory,
  events: log,
  onStatusChange,
  onReturnChange,
  earlyScanSeconds,
}: ScanIntakeDeps) {
  const audit = scanAudit(clock);
  const connectorName = (carrierId: string) => catalogue.byId.get(carrierId)?.connector ?? 'push';

  /** The service's parcels among `awbs`: its shipments and its returns. */
  async function findParcels(carrierId: string, awbs: string[]): Promise<Map<string, Parcel>> {
    const found = new Map<string, Parcel>();
    const forward = (s: { id: string; accountId: string; assignedAt: Date | null; createdAt: Date; boxNo: number }) =>
      ({
        journey: 'forward',
        id: s.id,
        accountId: s.accountId,
        booked: s.assignedAt ?? s.createdAt,
        boxNo: s.boxNo,
      }) as const;
    for (const s of await repo.findCarrierShipments(db, carrierId, awbs)) found.set(s.awb!, forward(s));
    // A multi-piece shipment's other boxes have AWBs of their own: asked for only by the AWBs no shipment has.
    for (const s of await repo.findCarrierBoxes(
      db,
      carrierId,
      awbs.filter((awb) => !found.has(awb)),
    ))
      found.set(s.awb, forward(s));
    for (const r of await findCarrierReturns(db, carrierId, awbs))
      found.set(r.awb!, { journey: 'return', id: r.id, accountId: r.accountId, qcApplied: r.qcApplied === true });
    return found;
  }

  /**
   * Applies scans to the service's parcels, each AWB's in a transaction of its own. Every scan
   * that is not applied (refused, unknown AWB, stamped too early, not taken by the status machine)
   * is kept with its courier's record and the reason: the ones the machine did not take in the
   * transaction that recorded them, the others after. Per scan: the courier's answer and its fate.
   * `by`: how the courier's scans came, written down where they moved a parcel (a replay is the
   * kept-scans replay's, audited there).
   */
  async function intake(
    carrierId: string,
    scans: readonly IntakeScan[],
    { reread = false, parcels, by }: { reread?: boolean; parcels?: Map<string, Parcel>; by?: 'push' | 'poll' } = {},
  ): Promise<{ results: IntakeResult[]; fates: ScanFate[]; gone: number }> {
    const now = clock.now();
    const connector = connectorName(carrierId);
    const found = parcels ?? (await findParcels(carrierId, [...new Set(scans.map((s) => s.event.awb))]));
    const results: IntakeResult[] = [];
    const fates: ScanFate[] = [];
    const kept: NewKeptScan[] = [];
    const keep = (i: number, reasonCode: KeptReason, reason: string, tx?: NewKeptScan[]) => {
      const { event, raw } = scans[i]!;
      const parcel = found.get(event.awb);
      const scan = {
        accountId: parcel?.accountId ?? null,
        connector,
        carrierId,
        awb: event.awb,
        journey: parcel?.journey ?? null,
        raw,
        reasonCode,
        reason,
      };
      (tx ?? kept).push(scan);
      fates[i] = { fate: 'kept', accountId: scan.accountId, reasonCode, reason };
    };
    const refuse = (i: number, reasonCode: KeptReason, error: string) => {
      results[i] = { awb: scans[i]!.event.awb, accepted: false, error };
      keep(i, reasonCode, error);
    };
    // An AWB the service does not hold. Posted, it is kept for the operator (a parcel booked
    // elsewhere, a typing error). Pulled, it is a parcel the poller asked about that went since
    // (its account deleted): its scans are that account's and go with it, counted, never kept.
    let gone = 0;
    const notHeld = (i: number) => {
      if (by !== 'poll') return refuse(i, 'unknown_awb', AWB_NOT_FOUND);
      results[i] = { awb: scans[i]!.event.awb, accepted: false, error: AWB_NOT_FOUND };
      gone++;
    };

    /** Where a sound scan goes in its parcel's history, or why it is refused. */
    const judge = (event: CarrierEvent): Placed | { refused: KeptReason; error: string } => {
      const problem = eventProblem(event, now);
      if (problem) return { refused: 'refused', error: problem };
      const parcel = found.get(event.awb);
      if (!parcel) return { refused: 'unknown_awb', error: AWB_NOT_FOUND };
      if (parcel.journey === 'return') {
        if (!isReturnStatus(event.status))
          return {
            refused: 'refused',
            error: `AWB is a return: status must be one of ${CARRIER_RETURN_STATUSES.join(', ')}`,
          };
        if (event.qc_status !== undefined && !parcel.qcApplied)
          return { refused: 'refused', error: 'qc_status belongs to quality-checked returns; this one is not' };
        return { eventTime: new Date(event.event_time), statedTime: null };
      }
      if (isReturnStatus(event.status))
        return { refused: 'refused', error: 'AWB is a forward shipment: return statuses belong to return AWBs' };
      const placement = placeScan(event.event_time, parcel.booked, earlyScanSeconds * 1000);
      return 'problem' in placement ? { refused: 'before_booking', error: placement.problem } : placement;
    };

    const groups = new Map<string, { i: number; placed: Placed }[]>();
    for (const [i, { event }] of scans.entries()) {
      results[i] = { awb: event.awb, accepted: true };
      // A pulled parcel not held is gone whatever its scans say: none of them is kept.
      if (by === 'poll' && !found.has(event.awb)) {
        notHeld(i);
        continue;
      }
      const placed = judge(event);
      if ('refused' in placed) {
        if (placed.refused === 'unknown_awb') notHeld(i);
        else refuse(i, placed.refused, placed.error);
        continue;
      }
      const group = groups.get(event.awb);
      if (group) group.push({ i, placed });
      else groups.set(event.awb, [{ i, placed }]);
    }

    // Each AWB's events commit together, apart from the others'; replays among them answer as
    // duplicates, and any event that changed nothing says so and why.
    for (const [awb, entries] of groups) {
      const parcel = found.get(awb)!;
      const history = { log, directory, scans: true, reread, onStatusChange };
      try {
        await db.transaction(async (tx: Tx) => {
          const stored = entries.map(({ i, placed }) => ({ ...commonFields(scans[i]!.event, now), ...placed }));
          const inTx: NewKeptScan[] = [];
          const { fresh, outcomes } =
            parcel.journey === 'forward'
              ? await applyEvents(
                  tx,
                  parcel.accountId,
                  parcel.id,
                  entries.map(({ i }, k) => ({
                    ...stored[k]!,
                    ndrReason: scans[i]!.event.ndr_reason ?? null,
                    rtoReason: scans[i]!.event.rto_reason ?? null,
                    boxNo: parcel.boxNo,
                  })),
                  now,
                  history,
                )
              : await applyReturnEvents(
                  tx,
                  parcel.accountId,
                  parcel.id,
                  entries.map(({ i }, k) => {
                    const { statedTime: _stated, ...rest } = stored[k]!;
                    return {
                      ...rest,
                      qcStatus: scans[i]!.event.qc_status ?? null,
                      qcReason: scans[i]!.event.qc_reason ?? null,
                    };
                  }),
                  now,
                  log,
                  { scans: true, reread, onChange: onReturnChange },
                );
          entries.forEach(({ i }, k) => {
            const outcome: ScanOutcome = outcomes[k]!;
            fates[i] = { fate: 'applied', accountId: parcel.accountId };
            if (outcome.changed) return;
            results[i] = {
              awb,
              accepted: true,
              ...(!fresh[k] && { duplicate: true }),
              changed: false,
              reason: outcome.reason,
            };
            if (outcome.kind === 'not_applied') keep(i, 'not_applied', outcome.reason, inTx);
            else if (outcome.kind === 'duplicate')
              fates[i] = { fate: 'duplicate', accountId: parcel.accountId, applied: outcome.applied };
          });
          await keepScans(tx, inTx, now);
          if (by) {
            const applied = outcomes.filter((outcome) => outcome.changed).length;
            await audit(tx, carrierId, by, parcel, awb, { scans: entries.length, applied });
          }
        });
      } catch (error) {
        if (!(error instanceof ParcelGone)) throw error;
        // Gone between the lookup and the lock: as if the lookup had not found it; nothing of it was
        // written, and what was set aside of it to keep no longer names the account going.
        found.delete(awb);
        for (const { i } of entries) notHeld(i);
        for (let k = kept.length - 1; k >= 0; k--) {
          if (kept[k]!.awb !== awb) continue;
          if (by === 'poll') {
            kept.splice(k, 1);
            gone++;
          } else kept[k] = { ...kept[k]!, accountId: null, journey: null };
        }
      }
    }
    await keepScans(db, kept, now);
    return { results, fates, gone };
  }

  return { intake, findParcels, connectorName };
}
