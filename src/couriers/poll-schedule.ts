import type { ShipmentStatus } from '../domain/shipment/status-machine.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Backoff after failures never waits longer than this. */
export const MAX_BACKOFF_MS = 6 * 60 * 60 * 1000;

/**
 * Days after its booking that a parcel stops being asked about. A parcel still moving three months
 * on is lost in all but name (couriers settle a lost parcel's claim well before), and its row would
 * otherwise be asked every 8 hours for good: after a year at 2,000 parcels a day, a third of the
 * queue was such parcels. Scans the courier pushes (webhooks, a scan file) are still taken.
 */
export const POLL_HORIZON_DAYS = 90;

export const pollingEnded = (bookedAt: Date, now: Date) =>
  now.getTime() - bookedAt.getTime() > POLL_HORIZON_DAYS * DAY_MS;

/** Stages where the next scan comes soon and matters to the customer: polled at the base interval. */
const NEAR_DELIVERY: ReadonlySet<string> = new Set(['out_for_delivery', 'ndr_raised', 'rto_in_transit']);

/**
 * How long until a shipment's courier is asked again. The base (TRACKING_POLL_SECONDS) near
 * delivery; twice it in transit; four times it before pickup; and the older the booking, the
 * slower (×4 after a week, ×16 after a month), since a parcel that old rarely moves. After
 * failures in a row the wait doubles with each, up to MAX_BACKOFF_MS.
 */
export function nextPollDelayMs(
  status: ShipmentStatus | string,
  bookedAt: Date,
  now: Date,
  baseSeconds: number,
  failures: number,
): number {
  const base = baseSeconds * 1000;
  if (failures > 0) return Math.min(base * 2 ** failures, Math.max(MAX_BACKOFF_MS, base));
  const stage = NEAR_DELIVERY.has(status) ? 1 : status === 'pending' ? 4 : 2;
  const age = now.getTime() - bookedAt.getTime();
  const ageFactor = age > 30 * DAY_MS ? 16 : age > 7 * DAY_MS ? 4 : 1;
  return base * stage * ageFactor;
}
