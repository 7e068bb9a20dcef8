import {
  type CarrierEvent,
  type Journey,
  type ParcelScans,
  readParcelScans,
  type ScanReading,
} from './carrier-event.js';
import { text } from './courier-answers.js';

/**
 * Xpressbees' tracking codes in SPEC's statuses. Xpressbees publishes no list: these are the
 * `status_code` values its tracking answers carry in public client code (PP, PKD, IT, OFD, DL, EX,
 * RT, RT-IT, RT-DL, LT, DG and the return leg's RT-LT, RT-DG). An EX (exception) scan says what went
 * wrong only in its `message`, read with the word table below. Bump the version when a row changes:
 * stored events keep what was mapped.
 */
export const XPRESSBEES_SCAN_TABLE_VERSION = '2026-11-23';

export interface XpressbeesHistoryItem {
  status_code?: unknown;
  location?: unknown;
  event_time?: unknown;
  message?: unknown;
}

type Mapped = Pick<CarrierEvent, 'status' | 'sub_status' | 'ndr_reason' | 'rto_reason'>;

const ndr = (reason: NonNullable<CarrierEvent['ndr_reason']>): Mapped => ({
  status: 'ndr_raised',
  sub_status: reason,
  ndr_reason: reason,
});

/** By status_code; EX is read with its message (below). */
export const BY_CODE: Readonly<Record<string, Mapped>> = {
  PP: { status: 'pending', sub_status: 'pickup_scheduled' },
  PKD: { status: 'in_transit', sub_status: 'picked_up' },
  IT: { status: 'in_transit', sub_status: 'in_transit' },
  OFD: { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  DL: { status: 'delivered', sub_status: 'delivered' },
  RT: { status: 'rto_initiated', sub_status: 'rto_initiated' },
  'RT-IT': { status: 'rto_in_transit', sub_status: 'rto_in_transit' },
  'RT-DL': { status: 'rto_delivered', sub_status: 'rto_delivered' },
  LT: { status: 'others', sub_status: 'lost' },
  DG: { status: 'others', sub_status: 'damaged' },
  'RT-LT': { status: 'others', sub_status: 'lost' },
  'RT-DG': { status: 'others', sub_status: 'damaged' },
};

/**
 * An EX scan by the first pattern its message matches; a message none matches is the customer's
 * absence, the commonest failed attempt. A failed pickup and a misroute are exceptions too, but not
 * failed deliveries.
 */
export const EXCEPTION_WORDS: readonly (readonly [RegExp, Mapped])[] = [
  [/PICK\s*UP|PICKUP|NOT PICKED/i, { status: 'pending', sub_status: 'pickup_failed' }],
  [/MISROUT/i, { status: 'in_transit', sub_status: 'misrouted' }],
  [/REFUS|REJECT|CANCEL/i, ndr('refused')],
  [/CASH|\bCOD\b|PAYMENT|AMOUNT/i, ndr('cod_not_ready')],
  [/ADDRESS|OUT OF DELIVERY AREA|\bODA\b/i, ndr('address_incomplete')],
  [/UNREACHABLE|NOT REACHABLE|NOT ANSWER|PHONE|CONTACT/i, ndr('contact_unreachable')],
  [/CLOSED|LOCKED|HOLIDAY/i, ndr('premises_closed')],
  [/RESCHEDUL|FUTURE|LATER|NEXT DAY|ANOTHER DAY/i, ndr('future_delivery_requested')],
];

/** Xpressbees stamps scans "YYYY-MM-DD HH:MM[:SS]" in India time, without a zone. */
export function scanTime(raw: unknown): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/.exec(text(raw) ?? '');
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}${match[3] ?? ':00'}+05:30`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

export function mapScan(scan: XpressbeesHistoryItem): Mapped | undefined {
  const code = text(scan.status_code)?.toUpperCase();
  if (code === 'EX') {
    const message = text(scan.message) ?? '';
    return EXCEPTION_WORDS.find(([pattern]) => pattern.test(message))?.[1] ?? ndr('customer_unavailable');
  }
  return code === undefined ? undefined : BY_CODE[code];
}

/** One scan through the tables, or why it cannot be read. */
export function readScan(item: XpressbeesHistoryItem): ScanReading {
  const mapped = mapScan(item);
  if (!mapped) return { unread: `no status for status_code '${text(item.status_code) ?? String(item.status_code)}'` };
  const eventTime = scanTime(item.event_time);
  if (!eventTime) return { unread: `event_time '${String(item.event_time)}' is not a time` };
  const location = text(item.location)?.slice(0, 200);
  const description = text(item.message)?.slice(0, 500);
  return {
    ...mapped,
    event_time: eventTime,
    ...(location && { location }),
    ...(description && { description }),
    // Two scans of one minute differ by their message (ARRIVED, FURTHER CONNECTED).
    event_id: `xb:${text(item.status_code)}:${text(item.event_time)}:${description ?? ''}`.slice(0, 100),
  };
}

/**
 * One parcel's history as intake events, oldest first, and the scans no status could be read
 * from, kept unread. An RTO reported only by its movement gets its start a millisecond before, as
 * the status machine lets an RTO move only after it has begun.
 */
export function mapHistory(awb: string, history: XpressbeesHistoryItem[], journey: Journey = 'forward'): ParcelScans {
  return readParcelScans(awb, journey, history, readScan, 'xb');
}
