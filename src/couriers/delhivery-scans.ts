import {
  type CarrierEvent,
  type Journey,
  type ParcelScans,
  readParcelScans,
  type ScanReading,
} from './carrier-event.js';
import { text } from './courier-answers.js';

/**
 * Delhivery's scans in SPEC's statuses. Delhivery publishes a scan as ScanType (UD forward, DL
 * delivered, RT return to origin, CN cancelled), Scan (its status word) and StatusCode (its
 * "NSL" code, finer than the word). The code decides where this table knows it; otherwise the
 * type and word do. Bump the version when a row changes: stored events keep what was mapped.
 */
export const DELHIVERY_SCAN_TABLE_VERSION = '2026-11-22';

export interface DelhiveryScanDetail {
  ScanDateTime?: unknown;
  ScanType?: unknown;
  Scan?: unknown;
  StatusCode?: unknown;
  ScannedLocation?: unknown;
  Instructions?: unknown;
}

type Mapped = Pick<CarrierEvent, 'status' | 'sub_status' | 'ndr_reason' | 'rto_reason'>;

const ndr = (reason: NonNullable<CarrierEvent['ndr_reason']>): Mapped => ({
  status: 'ndr_raised',
  sub_status: reason,
  ndr_reason: reason,
});

/** By StatusCode: the codes public integrations show, each with Delhivery's own instruction text. */
export const BY_STATUS_CODE: Readonly<Record<string, Mapped>> = {
  'X-UCI': { status: 'pending', sub_status: 'pickup_scheduled' }, // Manifest uploaded
  'FMPUR-101': { status: 'pending', sub_status: 'pickup_scheduled' }, // Pickup scheduled
  'FMEOD-118': { status: 'pending', sub_status: 'pickup_failed' }, // Pickup not attempted / failed
  'X-PPOM': { status: 'in_transit', sub_status: 'picked_up' }, // Shipment picked up
  'X-PIOM': { status: 'in_transit', sub_status: 'reached_origin_hub' }, // Received at origin facility
  'X-DLL2F': { status: 'in_transit', sub_status: 'departed_origin_hub' }, // Bag dispatched to the next facility
  'X-ILL1F': { status: 'in_transit', sub_status: 'reached_destination_hub' }, // Received at destination facility
  'X-DDD3FD': { status: 'out_for_delivery', sub_status: 'out_for_delivery' }, // Out for delivery
  'EOD-38': { status: 'delivered', sub_status: 'delivered' }, // Delivered to consignee
  'EOD-11': ndr('customer_unavailable'), // Consignee unavailable
  'EOD-86': ndr('customer_unavailable'), // Not attempted
  'EOD-74': ndr('contact_unreachable'), // Consignee unreachable on phone
  'EOD-15': ndr('address_incomplete'), // Consignee moved / shifted
  'EOD-43': ndr('address_incomplete'), // Bad or incomplete address
  'EOD-104': ndr('premises_closed'), // Entry restricted / office closed
  'EOD-6': ndr('refused'), // Consignee refused to accept
  'EOD-69': ndr('refused'), // Consignee wants an open delivery
  'EOD-3': ndr('future_delivery_requested'), // Delivery rescheduled by the consignee
  'RT-101': { status: 'rto_initiated', sub_status: 'rto_initiated', rto_reason: 'merchant_requested' }, // Returned as per client's instructions
  'RT-113': { status: 'rto_initiated', sub_status: 'rto_initiated', rto_reason: 'max_attempts_exceeded' }, // Maximum attempts reached
  'DLYLH-151': { status: 'others', sub_status: 'lost' }, // Shipment lost
  'DLYDC-132': { status: 'others', sub_status: 'damaged' }, // Shipment damaged
};

/** By ScanType and Scan, for codes the table does not list. */
export const BY_SCAN_WORD: Readonly<Record<string, Mapped>> = {
  'UD|Manifested': { status: 'pending', sub_status: 'pickup_scheduled' },
  'UD|Not Picked': { status: 'pending', sub_status: 'pickup_failed' },
  'UD|In Transit': { status: 'in_transit', sub_status: 'in_transit' },
  'UD|Pending': { status: 'in_transit', sub_status: 'reached_destination_hub' },
  'UD|Dispatched': { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  'UD|LOST': { status: 'others', sub_status: 'lost' },
  'DL|Delivered': { status: 'delivered', sub_status: 'delivered' },
  'RT|In Transit': { status: 'rto_in_transit', sub_status: 'rto_in_transit' },
  'RT|Pending': { status: 'rto_in_transit', sub_status: 'rto_reached_origin_hub' },
  'RT|Dispatched': { status: 'rto_in_transit', sub_status: 'rto_out_for_delivery' },
  'DL|RTO': { status: 'rto_delivered', sub_status: 'rto_delivered' },
  'CN|Canceled': { status: 'cancelled', sub_status: 'cancelled_by_courier' },
  'CN|Cancelled': { status: 'cancelled', sub_status: 'cancelled_by_courier' },
};

const INDIA_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

/** Delhivery writes India time without an offset. */
export function scanTime(raw: unknown): string | undefined {
  const value = text(raw);
  if (value === undefined) return undefined;
  const iso = INDIA_LOCAL.test(value) ? `${value}+05:30` : value;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

export function mapScan(scan: DelhiveryScanDetail): Mapped | undefined {
  const code = text(scan.StatusCode);
  const byCode = code === undefined ? undefined : BY_STATUS_CODE[code];
  return byCode ?? BY_SCAN_WORD[`${text(scan.ScanType) ?? ''}|${text(scan.Scan) ?? ''}`];
}

/** One scan through the tables, or why it cannot be read. */
export function readScan(scan: DelhiveryScanDetail): ScanReading {
  const mapped = mapScan(scan);
  if (!mapped)
    return {
      unread: `no status for StatusCode '${text(scan.StatusCode) ?? ''}', ScanType '${text(scan.ScanType) ?? ''}', Scan '${text(scan.Scan) ?? ''}'`,
    };
  const eventTime = scanTime(scan.ScanDateTime);
  if (!eventTime) return { unread: `ScanDateTime '${String(scan.ScanDateTime)}' is not a time` };
  const location = text(scan.ScannedLocation)?.slice(0, 200);
  const description = text(scan.Instructions)?.slice(0, 500);
  return {
    ...mapped,
    event_time: eventTime,
    ...(location && { location }),
    ...(description && { description }),
    event_id: `dlv:${text(scan.StatusCode) ?? text(scan.Scan) ?? ''}:${text(scan.ScanDateTime)}`.slice(0, 100),
  };
}

/**
 * One parcel's scans as intake events, oldest first, and those no status could be read from (a
 * code the tables do not know, a time that is not one), kept unread. Delhivery's first return
 * scan is the RTO's start, so one is recorded there when the scans hold none: the status machine
 * only lets an RTO move after it has begun.
 */
export function mapShipmentScans(awb: string, scans: DelhiveryScanDetail[], journey: Journey = 'forward'): ParcelScans {
  return readParcelScans(awb, journey, scans, readScan, 'dlv');
}
