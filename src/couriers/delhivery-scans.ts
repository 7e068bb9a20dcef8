import {
  asReturnScan,
  type CarrierEvent,
  type Journey,
  type ParcelScans,
  type ReadScan,
  readParcelScans,
  type ScanReading,
  type UnreadScan,
} from './carrier-event.js';
import { text } from './courier-answers.js';
import { byWord, type Mapped, RT_START_CODES, rtoLeg, UD_CODES, UD_WORDS } from './delhivery-codes.js';
import { mapReturnScan } from './delhivery-return-scans.js';

/**
 * Delhivery's scans in SPEC's statuses. Delhivery publishes a scan as ScanType (UD forward, DL
 * delivered, RT return to origin, CN cancelled, LT lost; PP, PU and DTO on reverse pickups), Scan
 * (its status word) and StatusCode (its "NSL" code, finer than the word). The type decides first:
 * Delhivery reuses forward codes on the way back (an RT scan with X-DLL2F or X-DDD3FD is the
 * return leg), so a code is read only within its type (delhivery-codes.ts). Bump the version when
 * a row changes: stored events keep what was mapped, and kept scans are read again.
 */
export const DELHIVERY_SCAN_TABLE_VERSION = '2026-11-26';

export interface DelhiveryScanDetail {
  ScanDateTime?: unknown;
  ScanType?: unknown;
  Scan?: unknown;
  StatusCode?: unknown;
  ScannedLocation?: unknown;
  Instructions?: unknown;
}

const INDIA_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

/** Delhivery writes India time without an offset. */
export function scanTime(raw: unknown): string | undefined {
  const value = text(raw);
  if (value === undefined) return undefined;
  const iso = INDIA_LOCAL.test(value) ? `${value}+05:30` : value;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

const fields = (scan: DelhiveryScanDetail) => ({
  type: text(scan.ScanType)?.toUpperCase(),
  word: text(scan.Scan)?.toLowerCase(),
  code: text(scan.StatusCode)?.toUpperCase(),
});

/** A forward parcel's scan: its type first, then its code within the type, then its word. */
export function mapScan(scan: DelhiveryScanDetail): Mapped | undefined {
  const { type, word, code } = fields(scan);
  const byCode = <T>(table: Readonly<Record<string, T>>) => (code === undefined ? undefined : table[code]);
  switch (type) {
    case 'UD':
      return byCode(UD_CODES) ?? byWord(UD_WORDS, word);
    case 'RT':
      return byCode(RT_START_CODES) ?? rtoLeg(code, word);
    case 'DL':
      if (word === 'delivered') return { status: 'delivered', sub_status: 'delivered' };
      return word === 'rto' ? { status: 'rto_delivered', sub_status: 'rto_delivered' } : undefined;
    case 'CN':
      return word === 'canceled' || word === 'cancelled'
        ? { status: 'cancelled', sub_status: 'cancelled_by_courier' }
        : undefined;
    case 'LT': // LT-100 Shipment Lost [s4]; StatusType LT, Status "Lost" (source 2)
      return { status: 'others', sub_status: 'lost' };
    default:
      return undefined;
  }
}

/** What every reading of a scan carries besides its status: its time, place, words and id. */
function scanParts(scan: DelhiveryScanDetail): Omit<CarrierEvent, 'awb' | 'status'> | { unread: string } {
  const eventTime = scanTime(scan.ScanDateTime);
  if (!eventTime) return { unread: `ScanDateTime '${String(scan.ScanDateTime)}' is not a time` };
  const location = text(scan.ScannedLocation)?.slice(0, 200);
  const description = text(scan.Instructions)?.slice(0, 500);
  return {
    event_time: eventTime,
    ...(location && { location }),
    ...(description && { description }),
    event_id: `dlv:${text(scan.StatusCode) ?? text(scan.Scan) ?? ''}:${text(scan.ScanDateTime)}`.slice(0, 100),
  };
}

const noStatus = (scan: DelhiveryScanDetail) => ({
  unread: `no status for StatusCode '${text(scan.StatusCode) ?? ''}', ScanType '${text(scan.ScanType) ?? ''}', Scan '${text(scan.Scan) ?? ''}'`,
});

/** One forward scan through the tables, or why it cannot be read. */
export function readScan(scan: DelhiveryScanDetail): ScanReading {
  const mapped = mapScan(scan);
  if (!mapped) return noStatus(scan);
  const parts = scanParts(scan);
  return 'unread' in parts ? parts : { ...mapped, ...parts };
}

/** One return's scan: by its reverse type (delhivery-return-scans.ts), else through the forward table. */
export function readReturnScan(awb: string, scan: DelhiveryScanDetail): CarrierEvent | { unread: string } {
  const parts = scanParts(scan);
  if ('unread' in parts) return parts;
  const { type, word, code } = fields(scan);
  const mapped = mapReturnScan(type, word, code, text(scan.Instructions));
  if (mapped === undefined) {
    const forward = mapScan(scan);
    return forward ? asReturnScan({ awb, ...forward, ...parts }) : noStatus(scan);
  }
  return mapped === null ? noStatus(scan) : { awb, ...mapped, ...parts };
}

/**
 * One parcel's scans as intake events, oldest first, and those no status could be read from (a
 * code the tables do not know, a time that is not one), kept unread. A forward parcel's first
 * return scan starts its RTO when the scans hold no start (readParcelScans): every RT scan reads as
 * an rto_* status, so the start is made whatever the scan's code.
 */
export function mapShipmentScans(awb: string, scans: DelhiveryScanDetail[], journey: Journey = 'forward'): ParcelScans {
  if (journey === 'forward') return readParcelScans(awb, journey, scans, readScan, 'dlv');
  const events: ReadScan[] = [];
  const unread: UnreadScan[] = [];
  for (const scan of scans) {
    const event = readReturnScan(awb, scan);
    if ('unread' in event) unread.push({ raw: scan, reason: event.unread });
    else events.push({ ...event, raw: scan });
  }
  events.sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time));
  return { events, unread };
}
