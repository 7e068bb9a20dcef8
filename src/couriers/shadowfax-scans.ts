import {
  type CarrierEvent,
  type Journey,
  type ParcelScans,
  readParcelScans,
  type ScanReading,
} from './carrier-event.js';
import { text } from './courier-answers.js';

/**
 * Shadowfax's forward tracking statuses (`status_id` of each `tracking_details` entry) in SPEC's
 * statuses. Shadowfax publishes no machine-readable list: the ids are those its client
 * documentation and public integrations use (docs/couriers.md). An undelivered attempt is told by
 * its own id (nc, na, cid), which decides the NDR reason. Bump the version when a row changes:
 * stored events keep what was mapped.
 */
export const SHADOWFAX_SCAN_TABLE_VERSION = '2026-11-23';

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

export const BY_STATUS_ID: Readonly<Record<string, Mapped>> = {
  new: scheduled,
  assigned_for_seller_pickup: scheduled,
  ofp: scheduled,
  pickup_on_hold: { status: 'pending', sub_status: 'pickup_failed' },
  seller_initiated_delay: { status: 'pending', sub_status: 'pickup_failed' },
  picked: { status: 'in_transit', sub_status: 'picked_up' },
  recd_at_rev_hub: { status: 'in_transit', sub_status: 'reached_origin_hub' },
  sent_to_fwd: { status: 'in_transit', sub_status: 'departed_origin_hub' },
  in_transit: { status: 'in_transit', sub_status: 'in_transit' },
  recd_at_fwd_hub: { status: 'in_transit', sub_status: 'reached_destination_hub' },
  recd_at_fwd_dc: { status: 'in_transit', sub_status: 'reached_destination_hub' },
  assigned_for_delivery: { status: 'in_transit', sub_status: 'reached_destination_hub' },
  ofd: { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  delivered: { status: 'delivered', sub_status: 'delivered' },
  // Undelivered attempts.
  nc: ndr('contact_unreachable'),
  na: ndr('customer_unavailable'),
  reopen_ndr: ndr('customer_unavailable'),
  cid: ndr('future_delivery_requested'),
  cancelled_by_customer: ndr('refused'),
  // Shadowfax calls the way back "return to seller" (RTS).
  rts: { status: 'rto_initiated', sub_status: 'rto_initiated' },
  rts_in_transit: { status: 'rto_in_transit', sub_status: 'rto_in_transit' },
  rts_ofd: { status: 'rto_in_transit', sub_status: 'rto_out_for_delivery' },
  rts_d: { status: 'rto_delivered', sub_status: 'rto_delivered' },
  cancelled_by_client: { status: 'cancelled', sub_status: 'cancelled_by_merchant' },
  cancelled: { status: 'cancelled', sub_status: 'cancelled_by_courier' },
  on_hold: { status: 'others', sub_status: 'on_hold' },
  lost: { status: 'others', sub_status: 'lost' },
  damaged: { status: 'others', sub_status: 'damaged' },
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
  const mapped = mapScan(detail);
  if (!mapped) return { unread: `no status for status_id '${text(detail.status_id) ?? String(detail.status_id)}'` };
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
 * One parcel's scans as intake events, oldest first, and those no status could be read from, kept
 * unread. An RTS reported only by its movement gets its start a millisecond before.
 */
export function mapTrackingDetails(
  awb: string,
  details: ShadowfaxTrackDetail[],
  journey: Journey = 'forward',
): ParcelScans {
  return readParcelScans(awb, journey, details, readScan, 'shadowfax');
}
