import {
  type CarrierEvent,
  type Journey,
  type ParcelScans,
  readParcelScans,
  type ScanReading,
} from './carrier-event.js';
import { text } from './courier-answers.js';

/**
 * Ekart's tracking statuses in SPEC's statuses. Ekart publishes a closed list of statuses
 * (`swift_status` in its OpenAPI description) and, on an undelivered attempt, an `ndrStatus` from
 * another closed list (`swift_ndr_status`), which decides the NDR reason. A return is read through
 * a table of its own (RETURN_BY_STATUS). Bump the version when a row changes: stored events keep
 * what was mapped.
 */
export const EKART_SCAN_TABLE_VERSION = '2026-11-25';

export interface EkartTrackDetail {
  status?: unknown;
  ctime?: unknown;
  desc?: unknown;
  location?: unknown;
  ndrStatus?: unknown;
}

type Mapped = Pick<CarrierEvent, 'status' | 'sub_status' | 'ndr_reason' | 'rto_reason'>;

const ndr = (reason: NonNullable<CarrierEvent['ndr_reason']>): Mapped => ({
  status: 'ndr_raised',
  sub_status: reason,
  ndr_reason: reason,
});

/** By status. "Undelivered" is read with its ndrStatus (below); "Not Serviceable" is a booking answer, not a scan. */
export const BY_STATUS: Readonly<Record<string, Mapped>> = {
  'Order Placed': { status: 'pending', sub_status: 'pickup_scheduled' },
  'Pickup Scheduled': { status: 'pending', sub_status: 'pickup_scheduled' },
  'Pickup Pending': { status: 'pending', sub_status: 'pickup_scheduled' },
  'Out for Pickup': { status: 'pending', sub_status: 'pickup_scheduled' },
  'Not Picked': { status: 'pending', sub_status: 'pickup_failed' },
  'Picked Up': { status: 'in_transit', sub_status: 'picked_up' },
  'In Transit': { status: 'in_transit', sub_status: 'in_transit' },
  'Shipment Delayed': { status: 'in_transit', sub_status: 'in_transit' },
  'Out for Delivery': { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  Delivered: { status: 'delivered', sub_status: 'delivered' },
  Cancelled: { status: 'cancelled', sub_status: 'cancelled_by_courier' },
  'Pickup Cancelled': { status: 'cancelled', sub_status: 'cancelled_by_courier' },
  'Seller Cancelled': { status: 'cancelled', sub_status: 'cancelled_by_merchant' },
  'RTO Requested': { status: 'rto_initiated', sub_status: 'rto_initiated' },
  'Seller RTO Requested': { status: 'rto_initiated', sub_status: 'rto_initiated', rto_reason: 'merchant_requested' },
  'RTO In Transit': { status: 'rto_in_transit', sub_status: 'rto_in_transit' },
  'RTO Shipment Delayed': { status: 'rto_in_transit', sub_status: 'rto_in_transit' },
  'RTO Out for Delivery': { status: 'rto_in_transit', sub_status: 'rto_out_for_delivery' },
  'RTO Failed': { status: 'others', sub_status: 'on_hold' },
  'RTO Delivered': { status: 'rto_delivered', sub_status: 'rto_delivered' },
  Lost: { status: 'others', sub_status: 'lost' },
  Damaged: { status: 'others', sub_status: 'damaged' },
};

/** An "Undelivered" scan by its ndrStatus; one this table does not name is the customer's absence. */
export const BY_NDR_STATUS: Readonly<Record<string, Mapped>> = {
  'Customer Unavailable': ndr('customer_unavailable'),
  'Not Attempted': ndr('customer_unavailable'),
  'Unknown Exception': ndr('customer_unavailable'),
  'Rejected by Customer': ndr('refused'),
  'OTP Verified Cancellation': ndr('refused'),
  'Delivery Rescheduled': ndr('future_delivery_requested'),
  'Customer Unreachable': ndr('contact_unreachable'),
  'OTP Not Received/OTP Mismatch': ndr('contact_unreachable'),
  'Address Issue': ndr('address_incomplete'),
  'Out Of Delivery Area': ndr('address_incomplete'),
  'Payment Issue': ndr('cod_not_ready'),
  'Maximum Attempt Reached': {
    status: 'rto_initiated',
    sub_status: 'rto_initiated',
    rto_reason: 'max_attempts_exceeded',
  },
};

/** Ekart stamps scans in milliseconds since the epoch. */
export function scanTime(raw: unknown): string | undefined {
  const ms =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{10,16}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined;
}

export function mapScan(scan: EkartTrackDetail): Mapped | undefined {
  const status = text(scan.status);
  if (status === 'Undelivered') return BY_NDR_STATUS[text(scan.ndrStatus) ?? ''] ?? ndr('customer_unavailable');
  return status === undefined ? undefined : BY_STATUS[status];
}

/**
 * A reverse pickup's scans. Ekart books a return as a shipment with payment_mode Pickup, "the
 * _drop_location_ is the customer address and the _pickup_location_ is the seller address", which
 * it calls "semantically opposite to what is happening on the ground" (Ekart_API.yaml, PUT
 * /api/v1/package/create), and tracks it with the same `swift_status` list: its pickup statuses
 * (Pickup Scheduled, Out for Pickup, Pickup Pending, Not Picked, Picked Up, Pickup Cancelled, and
 * the NDR status Pickup Rescheduled) are the collection at the customer's door, Out for Delivery
 * and Delivered the delivery to the seller. Its RTO statuses have no meaning on a return.
 */
type ReturnMapped = Pick<CarrierEvent, 'status' | 'sub_status'>;
const back = (status: ReturnMapped['status'], sub_status?: string): ReturnMapped => ({
  status,
  ...(sub_status && { sub_status }),
});

export const RETURN_BY_STATUS: Readonly<Record<string, ReturnMapped>> = {
  'Order Placed': back('return_pickup_scheduled'),
  'Pickup Scheduled': back('return_pickup_scheduled'),
  'Pickup Pending': back('return_pickup_scheduled'),
  'Out for Pickup': back('return_pickup_scheduled'),
  'Not Picked': back('return_pickup_scheduled', 'return_pickup_failed'),
  'Picked Up': back('return_picked_up', 'return_picked_up'),
  'In Transit': back('return_in_transit', 'return_in_transit'),
  'Shipment Delayed': back('return_in_transit', 'return_in_transit'),
  'Out for Delivery': back('return_in_transit', 'return_out_for_delivery'),
  Delivered: back('return_delivered', 'return_delivered'),
  Cancelled: back('return_cancelled', 'return_cancelled_by_courier'),
  'Pickup Cancelled': back('return_cancelled', 'return_cancelled_by_courier'),
  'Seller Cancelled': back('return_cancelled', 'return_cancelled_by_merchant'),
  Lost: back('return_lost', 'return_lost'),
  Damaged: back('return_lost', 'return_damaged'),
};

/**
 * An "Undelivered" scan on a return is an attempt at the customer's door that failed: the courier
 * comes again (a refusal or the last attempt included; Ekart's Pickup Cancelled ends the return).
 * A rescheduled pickup says so.
 */
export const RETURN_BY_NDR_STATUS: Readonly<Record<string, ReturnMapped>> = {
  'Pickup Rescheduled': back('return_pickup_scheduled', 'return_pickup_rescheduled'),
  'Delivery Rescheduled': back('return_pickup_scheduled', 'return_pickup_rescheduled'),
};
const PICKUP_FAILED = back('return_pickup_scheduled', 'return_pickup_failed');

/** A mapped scan with its time, place and id, or why its time cannot be read. */
function reading(detail: EkartTrackDetail, mapped: Mapped | ReturnMapped): ScanReading {
  const eventTime = scanTime(detail.ctime);
  if (!eventTime) return { unread: `ctime '${String(detail.ctime)}' is not a time in milliseconds since the epoch` };
  const location = text(detail.location)?.slice(0, 200);
  const description = text(detail.desc)?.slice(0, 500);
  return {
    ...mapped,
    event_time: eventTime,
    ...(location && { location }),
    ...(description && { description }),
    event_id: `ekart:${text(detail.status)}:${text(detail.ndrStatus) ?? ''}:${String(detail.ctime)}`.slice(0, 100),
  };
}

/**
 * The key under which the webhook route keeps a post no signature verified, with its headers and
 * exact body (features/tracking/ekart-webhook.routes.ts). Such a post is never read as a scan, here
 * or in a replay: it proves nothing until it is posted again and verified.
 */
export const UNVERIFIED_POST = 'unverified_post';
const UNVERIFIED_REASON =
  'a webhook post no signature verified: never applied unverified; post it again as kept once Dakiya verifies how Ekart signs (docs/couriers.md)';
const unverified = (detail: EkartTrackDetail) => UNVERIFIED_POST in detail;

/** One scan through the tables, or why it cannot be read. */
export function readScan(detail: EkartTrackDetail): ScanReading {
  if (unverified(detail)) return { unread: UNVERIFIED_REASON };
  const mapped = mapScan(detail);
  if (!mapped) return { unread: `no status for Ekart's '${text(detail.status) ?? String(detail.status)}'` };
  return reading(detail, mapped);
}

/** One scan of a return through the return tables, or why it cannot be read. */
export function readReturnScan(detail: EkartTrackDetail): ScanReading {
  if (unverified(detail)) return { unread: UNVERIFIED_REASON };
  const status = text(detail.status);
  const mapped =
    status === 'Undelivered'
      ? (RETURN_BY_NDR_STATUS[text(detail.ndrStatus) ?? ''] ?? PICKUP_FAILED)
      : status === undefined
        ? undefined
        : RETURN_BY_STATUS[status];
  if (mapped) return reading(detail, mapped);
  if (status?.startsWith('RTO') || status === 'Seller RTO Requested')
    return { unread: `Ekart's '${status}' is a forward parcel's return to origin: it has no meaning on a return` };
  return { unread: `no return status for Ekart's '${status ?? String(detail.status)}'` };
}

/**
 * One parcel's scans as intake events, oldest first, and those no status could be read from, kept
 * unread. An RTO that Ekart reports only by its movement gets its start a millisecond before, as
 * the status machine lets an RTO move only after it has begun. A return's are read through its own
 * tables, in time order.
 */
export function mapTrackDetails(awb: string, details: EkartTrackDetail[], journey: Journey = 'forward'): ParcelScans {
  if (journey === 'forward') return readParcelScans(awb, journey, details, readScan, 'ekart');
  const scans: ParcelScans = { events: [], unread: [] };
  for (const detail of details) {
    const read = readReturnScan(detail);
    if ('unread' in read) scans.unread.push({ raw: detail, reason: read.unread });
    else scans.events.push({ ...read, awb, raw: detail });
  }
  scans.events.sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time));
  return scans;
}

/** What one body of Ekart's webhook carries for Dakiya. */
export type EkartPush =
  /** A `track_updated` post: the scan it is, as Ekart sent it (read with `mapTrackDetails` once the AWB's journey is known). */
  | { awb: string; scan: EkartTrackDetail }
  /** A post that carries no scan (`shipment_created`, `shipment_recreated`): acknowledged, nothing to keep. */
  | { awb: string; ignored: string }
  /** A body that is not Ekart's webhook shape. */
  | { problem: string };

/**
 * One post of Ekart's webhook: `track_updated` ({ctime, status, location, desc, attempts, wbn, id,
 * orderNumber, edd}, with ndrStatus on an undelivered attempt) is one scan of the parcel whose
 * Ekart tracking id is `id`, the AWB Dakiya holds; `shipment_created` and `shipment_recreated`
 * ({id, wbn, vendor, orderNumber, channelId}) carry no scan and are acknowledged.
 */
export function readEkartPush(body: unknown): EkartPush {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { problem: 'the body must be a JSON object' };
  const post = body as Record<string, unknown>;
  const awb = text(post.id);
  if (awb === undefined) return { problem: 'id (the Ekart tracking id) is required' };
  if (post.status === undefined)
    return { awb, ignored: 'not a tracking update (shipment_created or shipment_recreated): nothing to apply' };
  return { awb, scan: post };
}
