import { DERIVED_SUB_STATUSES } from '../../domain/shipment/box-rollup.js';
import { isCalendarDay, isStorableInstant } from '../../base/clock.js';
import type { CarrierEvent } from '../../couriers/carrier-event.js';
import {
  CARRIER_RETURN_STATUSES,
  qcProblem,
  RETURN_SUB_STATUSES,
  type ReturnStatus,
} from '../../domain/shipment/return-status-machine.js';
import {
  NDR_REASONS,
  RTO_REASONS,
  SHIPMENT_STATUSES,
  type ShipmentStatus,
  SUB_STATUSES,
} from '../../domain/shipment/status-machine.js';

/** A courier's clock may run a little ahead of ours; further ahead is a mistake in the event. */
const MAX_CLOCK_SKEW_MS = 10 * 60 * 1000;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** ISO 8601 with an offset, on a real calendar day: Date.parse would roll 2026-02-30 over to 2 March. */
function isIsoTimestamp(text: string): boolean {
  if (!ISO_WITH_OFFSET.test(text) || Number.isNaN(Date.parse(text))) return false;
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return isCalendarDay(year, month, day) && isStorableInstant(new Date(text));
}

const UNKNOWN_STATUS = `status must be one of ${SHIPMENT_STATUSES.join(', ')}; on a return AWB one of ${CARRIER_RETURN_STATUSES.join(', ')}`;

export const isReturnStatus = (status: string): status is ReturnStatus =>
  (CARRIER_RETURN_STATUSES as readonly string[]).includes(status);

/** The checks the schema cannot make; a message for the courier, or null when the event is sound. */
export function eventProblem(event: CarrierEvent, now: Date): string | null {
  const forward = SHIPMENT_STATUSES.includes(event.status as ShipmentStatus);
  if (!forward && !isReturnStatus(event.status)) return UNKNOWN_STATUS;
  if (!isIsoTimestamp(event.event_time)) {
    return 'event_time must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-20T14:30:00+05:30';
  }
  if (Date.parse(event.event_time) > now.getTime() + MAX_CLOCK_SKEW_MS) return 'event_time is in the future';
  // A sub-status Dakiya derives (a multi-piece shipment's box_exception) is no scan's to report.
  const subStatuses = forward
    ? SUB_STATUSES[event.status as ShipmentStatus].filter((sub) => !DERIVED_SUB_STATUSES.includes(sub))
    : RETURN_SUB_STATUSES[event.status as ReturnStatus];
  if (event.sub_status !== undefined && !subStatuses.includes(event.sub_status)) {
    return `sub_status for ${event.status} must be one of ${subStatuses.join(', ') || '(none)'}`;
  }
  if (!forward) {
    if (event.ndr_reason !== undefined || event.rto_reason !== undefined)
      return 'ndr_reason and rto_reason belong to forward events only';
    return qcProblem(event.status as ReturnStatus, event.qc_status, event.qc_reason);
  }
  if (event.qc_status !== undefined || event.qc_reason !== undefined)
    return 'qc_status and qc_reason belong to return events only';
  const status = event.status as ShipmentStatus;
  if (event.ndr_reason !== undefined) {
    if (status !== 'ndr_raised') return 'ndr_reason belongs to ndr_raised events only';
    if (!(NDR_REASONS as readonly string[]).includes(event.ndr_reason))
      return `ndr_reason must be one of ${NDR_REASONS.join(', ')}`;
  }
  if (event.rto_reason !== undefined) {
    if (!status.startsWith('rto_')) return 'rto_reason belongs to rto_* events only';
    if (!(RTO_REASONS as readonly string[]).includes(event.rto_reason))
      return `rto_reason must be one of ${RTO_REASONS.join(', ')}`;
  }
  return null;
}

/** Where a scan stands in its parcel's history, and the courier's own time when that differs. */
export type Placement = { eventTime: Date; statedTime: Date | null } | { problem: string };

/**
 * A parcel cannot be scanned before it is booked, yet couriers stamp scans to the second, often
 * without a zone, by clocks that drift: a first scan in the booking's own second reads as earlier.
 * A scan up to `toleranceMs` before the booking is applied, placed just after the booking (within
 * its next second, in the order of the courier's times, so two such scans of one status stay two)
 * with its own time kept; an earlier one is most often India time sent as UTC, and is kept
 * unapplied, naming both instants.
 */
export function placeScan(eventTime: string, booked: Date, toleranceMs: number): Placement {
  const at = Date.parse(eventTime);
  const lead = booked.getTime() - at;
  if (lead <= 0) return { eventTime: new Date(at), statedTime: null };
  if (lead > toleranceMs) {
    const minutes = Math.round(toleranceMs / 60_000);
    return {
      problem: `event_time ${eventTime} is more than ${minutes} minutes before the shipment was booked (${booked.toISOString()}): check its time zone`,
    };
  }
  // 1 to 999 ms after the booking, later for a later stated time.
  const offset = 1 + Math.floor(((toleranceMs - lead) * 998) / Math.max(toleranceMs, 1));
  return { eventTime: new Date(booked.getTime() + offset), statedTime: new Date(at) };
}
