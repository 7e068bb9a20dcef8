import type { Static } from 'typebox';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import {
  findKeptScan,
  findKeptScans,
  type KeptReason,
  type KeptScanRow,
  REPLAYED_REASONS,
  recordReplay,
  summariseOpenKeptScans,
} from '../../couriers/kept-scans.repository.js';
import type { CourierCatalogue, CourierService } from '../../domain/rates/catalogue.js';
import { invalid } from '../../domain/errors.js';
import type { AdminKeptScansQuery, ListKeptScansQuery } from './kept-scans.schemas.js';
import type { ScanFate, TrackingService } from './tracking.service.js';

const DEFAULT_LIMIT = 50;
/** Kept scans read in one statement of a replay. */
const REPLAY_PAGE = 200;
/** Kept scans one replay call reads at most; the answer's next_after goes on from there. */
const REPLAY_LIMIT = 5000;

const view = (row: KeptScanRow) => ({
  id: row.id,
  awb: row.awb,
  carrier_id: row.carrierId,
  connector: row.connector,
  journey: row.journey as 'forward' | 'return' | null,
  reason_code: row.reasonCode as KeptReason,
  reason: row.reason,
  raw: row.raw,
  first_seen_at: row.firstSeenAt.toISOString(),
  replayed_at: row.replayedAt?.toISOString() ?? null,
  applied_at: row.appliedAt?.toISOString() ?? null,
});

/** One kept scan after a replay: applied now, or kept with what the replay found. */
type Found = { applied: true } | { applied: false; reasonCode: KeptReason; reason: string };

const fromFate = (fate: ScanFate): Found =>
  fate.fate === 'applied' || (fate.fate === 'duplicate' && fate.applied)
    ? { applied: true }
    : fate.fate === 'duplicate'
      ? {
          applied: false,
          reasonCode: 'not_applied',
          reason: 'it reads as it did when kept, and the status machine still does not apply it where the parcel is',
        }
      : { applied: false, reasonCode: fate.reasonCode, reason: fate.reason };

/**
 * What couriers sent that could not be applied (couriers/kept-scans.repository.ts): listed for the
 * account and the operator, and replayed through the tables as they are now, so a fixed mapping
 * reaches the scans it once misread. Without `accountId` a call spans every account (the operator's).
 */
export function createKeptScans({
  db,
  clock,
  catalogue,
  tracking,
  couriers,
}: {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  tracking: TrackingService;
  couriers: Pick<Couriers, 'connectorOf'>;
}) {
  const record = auditRecorder(clock);
  async function position(id: string, accountId: string | undefined) {
    const row = await findKeptScan(db, id, accountId);
    if (!row) throw invalid('after must be the id of one of the kept scans', 'after');
    return { firstSeenAt: row.firstSeenAt, id: row.id };
  }

  async function page(
    accountId: string | undefined,
    query: Static<typeof ListKeptScansQuery> & { account_id?: string; connector?: string },
  ) {
    const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
    const rows = await findKeptScans(db, {
      ...((accountId ?? query.account_id) !== undefined && { accountId: accountId ?? query.account_id }),
      ...(query.carrier_id !== undefined && { carrierId: query.carrier_id }),
      ...(query.connector !== undefined && { connector: query.connector }),
      ...(query.reason_code !== undefined && { reasonCode: query.reason_code }),
      open: query.status !== 'all',
      ...(query.after !== undefined && { after: await position(query.after, accountId) }),
      limit: limit + 1,
    });
    const shown = rows.slice(0, limit);
    return {
      rows: shown,
      meta: { next_after: shown.at(-1)?.id ?? query.after ?? null, has_more: rows.length > limit },
    };
  }

  /** The parcel a kept scan's AWB names now, and the service that holds it. */
  async function parcelOf(group: KeptScanRow) {
    const services: CourierService[] = group.carrierId
      ? [catalogue.byId.get(group.carrierId)].filter((s): s is CourierService => s !== undefined)
      : catalogue.services.filter((s) => s.connector === group.connector);
    for (const service of services) {
      const parcel = await tracking.journeyOf(service.id, group.awb);
      if (parcel) return { ...parcel, service };
    }
    return undefined;
  }

  /** One AWB's kept scans read again and applied where they can be: each one's outcome. */
  async function replayParcel(rows: KeptScanRow[]): Promise<Map<KeptScanRow, Found & { accountId: string | null }>> {
    const found = new Map<KeptScanRow, Found & { accountId: string | null }>();
    const parcel = await parcelOf(rows[0]!);
    if (!parcel) {
      for (const row of rows)
        found.set(row, {
          applied: false,
          reasonCode: 'unknown_awb',
          reason: 'AWB not found for this courier',
          accountId: null,
        });
      return found;
    }
    const connector = couriers.connectorOf(parcel.service);
    const byRaw = new Map(rows.map((row) => [row.raw, row]));
    const unreadAs = (reason: string) => ({
      applied: false as const,
      reasonCode: 'unread' as const,
      reason,
      accountId: parcel.accountId,
    });
    let scans: { event: CarrierEvent; raw: unknown }[];
    if (rows[0]!.connector === 'push' || !connector.readScans) {
      // A push courier's kept record is the event it posted, which the schema had checked.
      scans = rows.map((row) => ({ event: row.raw as CarrierEvent, raw: row.raw }));
    } else {
      const read = connector.readScans(
        { awb: rows[0]!.awb, journey: parcel.journey },
        rows.map((row) => row.raw),
      );
      for (const { raw, reason } of read.unread) {
        const row = byRaw.get(raw);
        if (row) found.set(row, unreadAs(reason));
      }
      scans = read.events.map(({ raw, ...event }) => ({ event, raw: raw ?? event }));
    }
    const fates = await tracking.reapply(parcel.service.id, scans);
    scans.forEach(({ raw }, i) => {
      const row = byRaw.get(raw);
      if (row) found.set(row, { ...fromFate(fates[i]!), accountId: parcel.accountId });
    });
    for (const row of rows) if (!found.has(row)) found.set(row, unreadAs('not a scan record its connector reads'));
    return found;
  }

  return {
    /** The account's kept scans, oldest first. */
    async list(accountId: string, query: Static<typeof ListKeptScansQuery>) {
      const { rows, meta } = await page(accountId, query);
      return { data: rows.map(view), meta };
    },

    /** Every account's, and those of AWBs no parcel has, with the open ones counted by connector and reason. */
    async listAll(query: Static<typeof AdminKeptScansQuery>) {
      const { rows, meta } = await page(undefined, query);
      const open = (await summariseOpenKeptScans(db)).map((row) => ({
        connector: row.connector,
        reason_code: row.reasonCode as KeptReason,
        count: row.n,
      }));
      return { data: rows.map((row) => ({ ...view(row), account_id: row.accountId })), meta: { ...meta, open } };
    },

    /**
     * Reads the open kept scans again through the current tables, oldest first, each AWB's
     * together, and applies what can be applied now; the others stay kept with what the replay
     * found. Stops after REPLAY_LIMIT scans with the id to go on from.
     */
    /** Scans kept for a reason since resolved, applied again: the account's (its actor's), or every account's for the operator. */
    async replay(actor: Actor | undefined, after?: string) {
      const accountId = actor?.accountId;
      const summary = {
        read: 0,
        applied: 0,
        kept: 0,
        by_reason: {} as Record<string, number>,
        next_after: null as string | null,
      };
      let cursor = after === undefined ? undefined : await position(after, accountId);
      while (summary.read < REPLAY_LIMIT) {
        const rows = await findKeptScans(db, {
          ...(accountId !== undefined && { accountId }),
          reasonCode: REPLAYED_REASONS,
          open: true,
          ...(cursor && { after: cursor }),
          limit: Math.min(REPLAY_PAGE, REPLAY_LIMIT - summary.read),
        });
        if (rows.length === 0) break;
        const groups = new Map<string, KeptScanRow[]>();
        for (const row of rows) {
          const key = `${row.connector}|${row.carrierId ?? ''}|${row.awb}`;
          groups.set(key, [...(groups.get(key) ?? []), row]);
        }
        const at = clock.now();
        for (const group of groups.values()) {
          for (const [row, outcome] of await replayParcel(group)) {
            await recordReplay(db, row.id, { ...outcome, at });
            if (outcome.applied) summary.applied += 1;
            else {
              summary.kept += 1;
              summary.by_reason[outcome.reasonCode] = (summary.by_reason[outcome.reasonCode] ?? 0) + 1;
            }
          }
        }
        summary.read += rows.length;
        const last = rows.at(-1)!;
        cursor = { firstSeenAt: last.firstSeenAt, id: last.id };
        if (summary.read >= REPLAY_LIMIT) summary.next_after = last.id;
      }
      // Each scan's replay commits on its own; the entry says what the whole request did.
      if (actor)
        await record(db, actor, {
          action: 'kept_scans.replayed',
          objectType: 'kept_scans',
          objectId: null,
          changes: { read: summary.read, applied: summary.applied, kept: summary.kept },
        });
      return summary;
    },
  };
}

export type KeptScans = ReturnType<typeof createKeptScans>;
