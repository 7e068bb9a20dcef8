import { type CarrierEvent, type ParcelScans, readParcelScans, type ScanReading } from './carrier-event.js';
import { text } from './courier-answers.js';

/**
 * Shadowfax's tracking statuses (`status_id` of each `tracking_details` entry) in SPEC's statuses.
 * Its Unified API documents two lifecycles, one per order type (SHADOWFAX_ORDER_TYPE): the
 * marketplace one, whose way back is a return to seller (`rts…`), and the warehouse one, whose way
 * back is a return to origin (`rto…`) and whose pickup is `received_from_client_warehouse`. The ids
 * never clash, so one table reads both. Sources: the transcription of that documentation (index id
 * 54543910210, fixtures/shadowfax/status-ids.json), clients on each model (index ids 61973864118,
 * 60807931389, 35027346123) and captured v4 answers (index id 5990078441,
 * fixtures/shadowfax/tracking-captures.json). An undelivered attempt is told by its own id (nc, na,
 * cid), which decides the NDR reason. Bump the version when a row changes: stored events keep what
 * was mapped.
 */
export const SHADOWFAX_SCAN_TABLE_VERSION = '2026-11-26';

export interface ShadowfaxTrackDetail {
  status_id?: unknown;
  status?: unknown;
  remarks?: unknown;
  location?: unknown;
  created?: unknown;
}

type Mapped = Pick<CarrierEvent, 'status' | 'sub_status' | 'ndr_reason' | 'rto_reason'>;

const ndr = (reason: NonNullable<CarrierEvent['ndr_reason']>): Mapped => ({
  status: 'ndr_raised',
  sub_status: reason,
  ndr_reason: reason,
});
const scheduled: Mapped = { status: 'pending', sub_status: 'pickup_scheduled' };
const pickupFailed: Mapped = { status: 'pending', sub_status: 'pickup_failed' };
const moving: Mapped = { status: 'in_transit', sub_status: 'in_transit' };
const atDestination: Mapped = { status: 'in_transit', sub_status: 'reached_destination_hub' };
const returning: Mapped = { status: 'rto_in_transit', sub_status: 'rto_in_transit' };

export const BY_STATUS_ID: Readonly<Record<string, Mapped>> = {
  new: scheduled,
  assigned_for_seller_pickup: scheduled,
  // A marketplace client reads it from v4 answers (index id 60807931389), as WareIQ does.
  assigned_for_pickup: scheduled,
  ofp: scheduled,
  pickup_on_hold: pickupFailed,
  seller_initiated_delay: pickupFailed,
  seller_not_contactable: pickupFailed,
  pickup_not_attempted: pickupFailed,
  picked: { status: 'in_transit', sub_status: 'picked_up' },
  // The warehouse lifecycle's pickup: handed over at the client's warehouse.
  received_from_client_warehouse: { status: 'in_transit', sub_status: 'picked_up' },
  recd_at_rev_hub: { status: 'in_transit', sub_status: 'reached_origin_hub' },
  // WareIQ's production map and a captured v4 answer's status ("Sent To Forward").
  sent_to_fwd: { status: 'in_transit', sub_status: 'departed_origin_hub' },
  in_transit: moving,
  item_manifested: moving,
  bag_in_transit: moving,
  bag_received_at_via: moving,
  bag_received: atDestination,
  recd_at_fwd_dc: atDestination,
  recd_at_fwd_hub: atDestination,
  assigned_for_delivery: atDestination,
  item_misrouted: { status: 'in_transit', sub_status: 'misrouted' },
  ofd: { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  delivered: { status: 'delivered', sub_status: 'delivered' },
  // Undelivered attempts.
  nc: ndr('contact_unreachable'),
  na: ndr('customer_unavailable'),
  cid: ndr('future_delivery_requested'),
  cancelled_by_customer: ndr('refused'),
  // "Require Delivery As Per NDR Instructions": the re-attempt a reopen_ndr asked for is scheduled,
  // the parcel waits at its hub for the next run; not another failed attempt.
  reopen_ndr: atDestination,
  // The marketplace way back: return to seller.
  rts: { status: 'rto_initiated', sub_status: 'rto_initiated' },
  rts_in_process: returning,
  rts_ofd: { status: 'rto_in_transit', sub_status: 'rto_out_for_delivery' },
  // A failed hand-back to the seller; Shadowfax tries again, the parcel is still on its way back.
  rts_nd: returning,
  rts_d: { status: 'rto_delivered', sub_status: 'rto_delivered' },
  // Seen only in v4 answers, on the way back (index ids 5990078441, 60807931389).
  in_transit_return: returning,
  recd_at_dc_rts: returning,
  received_at_rts_hub: { status: 'rto_in_transit', sub_status: 'rto_reached_origin_hub' },
  // The warehouse way back: return to origin.
  rto: { status: 'rto_initiated', sub_status: 'rto_initiated' },
  rto_in_process: returning,
  rto_nd: returning,
  rto_d: { status: 'rto_delivered', sub_status: 'rto_delivered' },
  cancelled_by_seller: { status: 'cancelled', sub_status: 'cancelled_by_merchant' },
  cancelled: { status: 'cancelled', sub_status: 'cancelled_by_courier' },
  on_hold: { status: 'others', sub_status: 'on_hold' },
  lost: { status: 'others', sub_status: 'lost' },
  // No source shows it; kept from the first table, harmless if it never comes.
  damaged: { status: 'others', sub_status: 'damaged' },
};

/**
 * Scans Shadowfax documents that say nothing of where the parcel stands: read, and kept unread
 * with this reason (docs/couriers.md) rather than moving the parcel.
 */
export const INFORMATIONAL: Readonly<Record<string, string>> = {
  // Before pickup or at the last hub alike: a changed destination, not a step of the journey.
  pincode_updated: "informational: the destination pincode was updated; the parcel's status is unchanged",
};

/** Shadowfax stamps scans in ISO 8601; one without a zone is India time. */
export function scanTime(raw: unknown): string | undefined {
  const value = text(raw);
  if (!value || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}+05:30`;
  const ms = Date.parse(zoned.replace(' ', 'T'));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

export function mapScan(scan: ShadowfaxTrackDetail): Mapped | undefined {
  const id = text(scan.status_id)?.toLowerCase();
  return id === undefined ? undefined : BY_STATUS_ID[id];
}

/** One scan through the tables, or why it cannot be read. */
export function readScan(detail: ShadowfaxTrackDetail): ScanReading {
  const id = text(detail.status_id)?.toLowerCase();
  const mapped = mapScan(detail);
  if (!mapped) {
    if (id !== undefined && INFORMATIONAL[id]) return { unread: INFORMATIONAL[id] };
    return { unread: `no status for status_id '${text(detail.status_id) ?? String(detail.status_id)}'` };
  }
  const eventTime = scanTime(detail.created);
  if (!eventTime) return { unread: `created '${String(detail.created)}' is not a time` };
  const location = text(detail.location)?.slice(0, 200);
  const description = (text(detail.remarks) ?? text(detail.status))?.slice(0, 500);
  return {
    ...mapped,
    event_time: eventTime,
    ...(location && { location }),
    ...(description && { description }),
    event_id: `shadowfax:${text(detail.status_id)}:${eventTime}`.slice(0, 100),
  };
}

/**
 * A forward parcel's scans as intake events, oldest first, and those no status could be read from,
 * kept unread. A return to origin reported only by its movement gets its start a millisecond
 * before. A return's scans are read by shadowfax-return-scans.ts.
 */
export function mapTrackingDetails(awb: string, details: readonly unknown[]): ParcelScans {
  return readParcelScans(awb, 'forward', details as ShadowfaxTrackDetail[], readScan, 'shadowfax');
}
