import { createHash } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { keptScans } from '../base/db/schema.js';
import type { Journey } from './carrier-event.js';

/**
 * Why a scan was kept rather than applied: `unread` (no table reads its code or time),
 * `not_applied` (the status machine does not take it where the parcel is), `before_booking`
 * (stamped further before the booking than SCAN_EARLY_TOLERANCE_SECONDS), `unknown_awb` (no parcel
 * of the courier's has it), `refused` (a pushed event the intake refused: a status, time or field),
 * `unverified` (a webhook post whose signature nothing verifies, kept with its headers for the
 * operator: never read as a scan, never replayed, no account's).
 */
export const KEPT_REASONS = [
  'unread',
  'not_applied',
  'before_booking',
  'unknown_awb',
  'refused',
  'unverified',
] as const;
/** What a replay reads again: a post no signature verified is not the courier's word. */
export const REPLAYED_REASONS = KEPT_REASONS.filter((reason) => reason !== 'unverified');
export type KeptReason = (typeof KEPT_REASONS)[number];

export interface NewKeptScan {
  accountId: string | null;
  connector: string;
  carrierId: string | null;
  awb: string;
  journey: Journey | null;
  raw: unknown;
  reasonCode: KeptReason;
  reason: string;
}

export type KeptScanRow = typeof keptScans.$inferSelect;

/** A courier's record past this size is kept as the start of its text: enough to read, bounded whatever is sent. */
const RAW_LIMIT = 8192;

/** JSON with every object's keys in order: the same record sent again hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprintOf(connector: string, awb: string, raw: unknown): string {
  return createHash('sha256')
    .update(`${connector}\n${awb}\n${canonical(raw)}`)
    .digest('hex');
}

const bounded = (raw: unknown): unknown => {
  const text = canonical(raw);
  return text.length <= RAW_LIMIT ? raw : { truncated: true, text: text.slice(0, RAW_LIMIT) };
};

/**
 * Keeps scans; one already kept (the same connector, AWB and record: a courier answers a parcel's
 * whole history on every poll) stays as it was first kept. One statement, in the caller's executor
 * (the transaction that found a scan not applied keeps it with the history it was recorded in).
 */
export async function keepScans(ex: Executor, scans: readonly NewKeptScan[], at: Date): Promise<void> {
  if (scans.length === 0) return;
  await ex
    .insert(keptScans)
    .values(
      scans.map((scan) => ({
        ...scan,
        awb: scan.awb.slice(0, 100),
        raw: bounded(scan.raw),
        reason: scan.reason.slice(0, 500),
        fingerprint: fingerprintOf(scan.connector, scan.awb, scan.raw),
        firstSeenAt: at,
      })),
    )
    .onConflictDoNothing({ target: keptScans.fingerprint });
}

/**
 * Kept scans, oldest first, after `afterId`'s row. With `accountId`, the account's own; without,
 * every account's and those of AWBs no parcel has: the operator's list and the replay, which span
 * accounts as a courier does.
 */
export async function findKeptScans(
  ex: Executor,
  filter: {
    accountId?: string;
    carrierId?: string;
    connector?: string;
    reasonCode?: KeptReason | readonly KeptReason[];
    /** Open ones only (not applied by a replay); the default. */
    open?: boolean;
    after?: { firstSeenAt: Date; id: string };
    limit: number;
  },
): Promise<KeptScanRow[]> {
  const where: (SQL | undefined)[] = [
    filter.accountId === undefined ? undefined : eq(keptScans.accountId, filter.accountId),
    filter.carrierId === undefined ? undefined : eq(keptScans.carrierId, filter.carrierId),
    filter.connector === undefined ? undefined : eq(keptScans.connector, filter.connector),
    filter.reasonCode === undefined
      ? undefined
      : typeof filter.reasonCode === 'string'
        ? eq(keptScans.reasonCode, filter.reasonCode)
        : inArray(keptScans.reasonCode, [...filter.reasonCode]),
    filter.open === false ? undefined : isNull(keptScans.appliedAt),
  ];
  if (filter.after)
    where.push(
      sql`(${keptScans.firstSeenAt}, ${keptScans.id}) > (${filter.after.firstSeenAt.toISOString()}::timestamptz, ${filter.after.id}::uuid)`,
    );
  return ex
    .select()
    .from(keptScans)
    .where(and(...where))
    .orderBy(asc(keptScans.firstSeenAt), asc(keptScans.id))
    .limit(filter.limit);
}

/** One kept scan by id; the account's own when `accountId` is given (undefined for another's). */
export async function findKeptScan(ex: Executor, id: string, accountId?: string): Promise<KeptScanRow | undefined> {
  const [row] = await ex
    .select()
    .from(keptScans)
    .where(and(eq(keptScans.id, id), accountId === undefined ? undefined : eq(keptScans.accountId, accountId)));
  return row;
}

/** The account's open kept scans per courier service: the connections screen's count. */
export async function countOpenKeptScans(ex: Executor, accountId: string): Promise<Map<string, number>> {
  const rows = await ex
    .select({ carrierId: keptScans.carrierId, n: count() })
    .from(keptScans)
    .where(and(eq(keptScans.accountId, accountId), isNull(keptScans.appliedAt)))
    .groupBy(keptScans.carrierId);
  return new Map(rows.filter((row) => row.carrierId !== null).map((row) => [row.carrierId!, Number(row.n)]));
}

/** Every open kept scan per connector and reason, over every account: the operator's summary. */
export async function summariseOpenKeptScans(ex: Executor) {
  const rows = await ex
    .select({ connector: keptScans.connector, reasonCode: keptScans.reasonCode, n: count() })
    .from(keptScans)
    .where(isNull(keptScans.appliedAt))
    .groupBy(keptScans.connector, keptScans.reasonCode)
    .orderBy(asc(keptScans.connector), asc(keptScans.reasonCode));
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

/**
 * What a replay found: applied (the scan leaves the open list), or kept with what it says now.
 * `accountId` as found by the replay (an AWB unknown when kept may be a parcel's now).
 */
export async function recordReplay(
  ex: Executor,
  id: string,
  outcome:
    | { applied: true; at: Date; accountId: string | null }
    | { applied: false; at: Date; accountId: string | null; reasonCode: KeptReason; reason: string },
): Promise<void> {
  await ex
    .update(keptScans)
    .set(
      outcome.applied
        ? { appliedAt: outcome.at, replayedAt: outcome.at, accountId: outcome.accountId }
        : {
            replayedAt: outcome.at,
            accountId: outcome.accountId,
            reasonCode: outcome.reasonCode,
            reason: outcome.reason.slice(0, 500),
          },
    )
    .where(eq(keptScans.id, id));
}
