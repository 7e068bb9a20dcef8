import type { Clock } from '../../base/clock.js';
import { pushAudit } from './push-audit.js';
import type { Db, Tx } from '../../base/db/client.js';
import type { CarrierEvent, Journey, ParcelScans } from '../../couriers/carrier-event.js';
import type { PolledParcel } from '../../couriers/connector.js';
import { findKeptScans, keepScans, type KeptReason, type NewKeptScan } from '../../couriers/kept-scans.repository.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { CARRIER_RETURN_STATUSES } from '../../domain/shipment/return-status-machine.js';
import type { ScanOutcome } from '../../domain/shipment/status-change.js';
import type { EventLog } from '../../events/event-log.js';
import { namedService } from '../../domain/rates/courier-choice.js';
import { hashCredential, newCarrierToken } from '../../tenancy/accounts/credentials.js';
import type {
  ApplyReturnEvents,
  ReturnChangeListener,
  ApplyShipmentEvents,
  ShipmentStatusListener,
} from '../contracts.js';
import { findCarrierReturns } from './return-events.repository.js';
import { applyReturnEvents } from './return-events.js';
import { eventProblem, isReturnStatus, placeScan } from './scan-checks.js';
import { applyEvents } from './shipment-events.js';
import * as repo from './tracking.repository.js';

const AWB_NOT_FOUND = 'AWB not found for this courier';
/** Open refused posts a connector's webhook keeps at most: enough to learn a format, bounded against a flood. */
const REFUSED_POSTS_KEPT = 100;

export type TrackingService = ReturnType<typeof createTrackingService>;

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
interface IntakeScan {
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

/** A parcel a courier names by AWB, as the intake finds it among the service's shipments and returns. */
type Parcel =
  | { journey: 'forward'; id: string; accountId: string; booked: Date }
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

export function createTrackingService({
  db,
  clock,
  catalogue,
  directory,
  events: log,
  onStatusChange,
  onReturnChange,
  earlyScanSeconds,
}: {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  /** The destination's district, for the RTO history (keepHistory). */
  directory: PincodeDirectory;
  events: EventLog;
  /** Followers of shipments' statuses in the same transaction (the COD ledger), handed in by app.ts. */
  onStatusChange?: ShipmentStatusListener;
  /** Followers of returns' statuses and QC results in the same transaction (exchanges), handed in by app.ts. */
  onReturnChange?: ReturnChangeListener;
  /** SCAN_EARLY_TOLERANCE_SECONDS: how long before its booking a scan may be stamped (scan-checks.ts placeScan). */
  earlyScanSeconds: number;
}) {
  const audit = pushAudit(clock);
  const connectorName = (carrierId: string) => catalogue.byId.get(carrierId)?.connector ?? 'push';

  /** The service's parcels among `awbs`: its shipments and its returns. */
  async function findParcels(carrierId: string, awbs: string[]): Promise<Map<string, Parcel>> {
    const found = new Map<string, Parcel>();
    for (const s of await repo.findCarrierShipments(db, carrierId, awbs))
      found.set(s.awb!, { journey: 'forward', id: s.id, accountId: s.accountId, booked: s.assignedAt ?? s.createdAt });
    for (const r of await findCarrierReturns(db, carrierId, awbs))
      found.set(r.awb!, { journey: 'return', id: r.id, accountId: r.accountId, qcApplied: r.qcApplied === true });
    return found;
  }

  /**
   * Applies scans to the service's parcels, each AWB's in a transaction of its own. Every scan
   * that is not applied (refused, unknown AWB, stamped too early, not taken by the status machine)
   * is kept with its courier's record and the reason: the ones the machine did not take in the
   * transaction that recorded them, the others after. Per scan: the courier's answer and its fate.
   */
  async function intake(
    carrierId: string,
    scans: readonly IntakeScan[],
    {
      reread = false,
      parcels,
      pushed = false,
    }: { reread?: boolean; parcels?: Map<string, Parcel>; pushed?: boolean } = {},
  ): Promise<{ results: IntakeResult[]; fates: ScanFate[] }> {
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
      const placed = judge(event);
      if ('refused' in placed) {
        refuse(i, placed.refused, placed.error);
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
        if (pushed) {
          const applied = outcomes.filter((outcome) => outcome.changed).length;
          await audit(tx, carrierId, parcel, awb, { scans: entries.length, applied });
        }
      });
    }
    await keepScans(db, kept, now);
    return { results, fates };
  }

  const service = {
    /** For the features that record merchant events (cancel-order, initiate-rto), handed in by app.ts. */
    applyShipmentEvents: ((tx, accountId, shipmentId, events, now) =>
      applyEvents(tx, accountId, shipmentId, events, now, {
        log,
        directory,
        onStatusChange,
      })) satisfies ApplyShipmentEvents,
    applyReturnEvents: ((tx, accountId, returnId, events, now) =>
      applyReturnEvents(tx, accountId, returnId, events, now, log, {
        onChange: onReturnChange,
      })) satisfies ApplyReturnEvents,

    async createCarrierToken(carrierId: string) {
      namedService(catalogue, carrierId);
      const token = newCarrierToken();
      await repo.insertCarrierToken(db, { carrierId, tokenHash: hashCredential(token), createdAt: clock.now() });
      return { token, carrierId };
    },

    authenticateCarrier: async (token: string) => (await repo.findCarrierByToken(db, hashCredential(token))) ?? null,

    /**
     * Events a push courier posted (POST /carrier/v1/tracking-events): one answer per event, in
     * order; each shipment's events commit together, apart from the others'. What is refused is
     * also kept for the operator, the event as posted.
     */
    async ingest(carrierId: string, events: CarrierEvent[]): Promise<IntakeResult[]> {
      return (
        await intake(
          carrierId,
          events.map((event) => ({ event, raw: event })),
          { pushed: true },
        )
      ).results;
    },

    /**
     * Scans a connector pulled (the tracking poller), per AWB: those it read are applied as pushed
     * ones; those it could not read are kept, with its reason.
     */
    async ingestPulled(carrierId: string, pulled: ReadonlyMap<string, ParcelScans>): Promise<void> {
      const parcels = await findParcels(carrierId, [...pulled.keys()]);
      const scans = [...pulled.values()].flatMap(({ events }) =>
        events.map(({ raw, ...event }) => ({ event, raw: raw ?? event })),
      );
      await intake(carrierId, scans, { parcels });
      const unread = [...pulled].flatMap(([awb, { unread }]) =>
        unread.map(({ raw, reason }) => ({
          accountId: parcels.get(awb)?.accountId ?? null,
          connector: connectorName(carrierId),
          carrierId,
          awb,
          journey: parcels.get(awb)?.journey ?? null,
          raw,
          reasonCode: 'unread' as const,
          reason,
        })),
      );
      await keepScans(db, unread, clock.now());
    },

    /**
     * A scan a courier's API pushed (Ekart's webhook), which names the parcel but not the service:
     * read, once the AWB is found among the connector's services, as that parcel's journey has it,
     * and applied under the service that holds it. A post for an AWB none holds, or one that cannot
     * be read, is kept. One answer per event read, in order, and the reason when none could be.
     */
    async ingestPushed(
      connector: string,
      carrierIds: readonly string[],
      awb: string,
      raw: readonly unknown[],
      read: (parcel: PolledParcel, raw: readonly unknown[]) => ParcelScans,
    ): Promise<{ results: IntakeResult[]; unread?: string }> {
      for (const carrierId of carrierIds) {
        const parcels = await findParcels(carrierId, [awb]);
        const parcel = parcels.get(awb);
        if (!parcel) continue;
        const scans = read({ awb, journey: parcel.journey }, raw);
        const { results } = await intake(
          carrierId,
          scans.events.map(({ raw: own, ...event }) => ({ event, raw: own ?? event })),
          { parcels, pushed: true },
        );
        const unread = scans.unread.map((scan) => ({
          ...scan,
          accountId: parcel.accountId,
          connector,
          carrierId,
          awb,
          journey: parcel.journey,
          reasonCode: 'unread' as const,
        }));
        await keepScans(db, unread, clock.now());
        return { results, ...(unread.length > 0 && { unread: unread.map((scan) => scan.reason).join('; ') }) };
      }
      const kept = raw.map((scan) => ({
        accountId: null,
        connector,
        carrierId: null,
        awb,
        journey: null,
        raw: scan,
        reasonCode: 'unknown_awb' as const,
        reason: AWB_NOT_FOUND,
      }));
      await keepScans(db, kept, clock.now());
      return { results: [{ awb, accepted: false, error: AWB_NOT_FOUND }] };
    },

    /**
     * A post a courier's webhook sent that no secret verifies (Ekart's, whose signature header no
     * source names), kept raw as the route hands it (its headers inside `raw`) with reason_code
     * 'refused' for the operator, and applied to nothing: an unverified post proves nothing about a
     * parcel, so it is no account's. At most REFUSED_POSTS_KEPT open ones per connector; false when
     * that many are kept already.
     */
    async keepRefusedPost(connector: string, awb: string, raw: unknown, reason: string): Promise<boolean> {
      const open = await findKeptScans(db, { connector, reasonCode: 'unverified', limit: REFUSED_POSTS_KEPT });
      if (open.length >= REFUSED_POSTS_KEPT) return false;
      const post = { accountId: null, connector, carrierId: null, awb, journey: null, raw, reason };
      await keepScans(db, [{ ...post, reasonCode: 'unverified' }], clock.now());
      return true;
    },

    /**
     * Kept scans read again, through the current tables, by the kept-scans replay: applied where
     * they can be now, an unapplied recording replaced by its new reading. Per scan, its fate.
     */
    async reapply(carrierId: string, scans: readonly IntakeScan[]): Promise<ScanFate[]> {
      return (await intake(carrierId, scans, { reread: true })).fates;
    },

    /** Which way the service's parcel of this AWB travels, if it has one (a kept scan's AWB, before it is read again). */
    async journeyOf(carrierId: string, awb: string): Promise<{ journey: Journey; accountId: string } | undefined> {
      return (await findParcels(carrierId, [awb])).get(awb);
    },
  };
  return service;
}
