import type { CarrierEvent, Journey, ParcelScans } from '../../couriers/carrier-event.js';
import type { PolledParcel } from '../../couriers/connector.js';
import { findKeptScans, keepScans } from '../../couriers/kept-scans.repository.js';
import { namedService } from '../../domain/rates/courier-choice.js';
import { hashCredential, newCarrierToken } from '../../tenancy/accounts/credentials.js';
import type { ApplyReturnEvents, ApplyShipmentEvents } from '../contracts.js';
import { applyReturnEvents } from './return-events.js';
import {
  AWB_NOT_FOUND,
  createScanIntake,
  type IntakeResult,
  type IntakeScan,
  type ScanFate,
  type ScanIntakeDeps,
} from './scan-intake.js';
import { applyEvents } from './shipment-events.js';
import * as repo from './tracking.repository.js';

/** Open refused posts a connector's webhook keeps at most: enough to learn a format, bounded against a flood. */
const REFUSED_POSTS_KEPT = 100;

export type TrackingService = ReturnType<typeof createTrackingService>;
export type { IntakeResult, ScanFate };

export function createTrackingService(deps: ScanIntakeDeps) {
  const { db, clock, catalogue, directory, events: log, onStatusChange, onReturnChange } = deps;
  const { intake, findParcels, connectorName } = createScanIntake(deps);

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
          { by: 'push' },
        )
      ).results;
    },

    /**
     * Scans a connector pulled (the tracking poller), per AWB: those it read are applied as pushed
     * ones; those it could not read are kept, with its reason.
     */
    async ingestPulled(carrierId: string, pulled: ReadonlyMap<string, ParcelScans>): Promise<{ gone: number }> {
      const parcels = await findParcels(carrierId, [...pulled.keys()]);
      const scans = [...pulled.values()].flatMap(({ events }) =>
        events.map(({ raw, ...event }) => ({ event, raw: raw ?? event })),
      );
      const { gone } = await intake(carrierId, scans, { parcels, by: 'poll' });
      // What a parcel that went meanwhile could not be read as goes with it too, counted with the rest.
      let unreadGone = 0;
      const unread = [...pulled].flatMap(([awb, { unread }]) => {
        const parcel = parcels.get(awb);
        if (parcel === undefined) {
          unreadGone += unread.length;
          return [];
        }
        return unread.map(({ raw, reason }) => ({
          accountId: parcel.accountId,
          connector: connectorName(carrierId),
          carrierId,
          awb,
          journey: parcel.journey,
          raw,
          reasonCode: 'unread' as const,
          reason,
        }));
      });
      await keepScans(db, unread, clock.now());
      return { gone: gone + unreadGone };
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
          { parcels, by: 'push' },
        );
        // The intake forgets a parcel that went before its lock (its account deleted): no account's then.
        const held = parcels.get(awb);
        const unread = scans.unread.map((scan) => ({
          ...scan,
          accountId: held?.accountId ?? null,
          connector,
          carrierId,
          awb,
          journey: held?.journey ?? null,
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
