import { type Static, Type } from 'typebox';
import { CARRIER_RETURN_STATUSES } from '../domain/shipment/return-status-machine.js';
import { SHIPMENT_STATUSES } from '../domain/shipment/status-machine.js';

/**
 * One scan as couriers report it: pushed to POST /carrier/v1/tracking-events, or pulled from a
 * courier's API by its connector. Both enter the same tracking intake.
 */
const Str = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description });

// Values are checked per event (see eventProblem), so one bad scan does not sink a batch of 500.
export const CarrierEventSchema = Type.Object(
  {
    awb: Str(64, 'The AWB of a shipment booked on your courier service.'),
    status: Str(
      40,
      `One of ${SHIPMENT_STATUSES.join(', ')}; on a return AWB one of ${CARRIER_RETURN_STATUSES.join(', ')}.`,
    ),
    sub_status: Type.Optional(Str(60, 'Granular status; GET /custom/api/v1/meta/statuses lists those of each status.')),
    event_time: Str(40, 'ISO 8601 with a time zone.'),
    location: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    ndr_reason: Type.Optional(Str(60, 'ndr_raised events only.')),
    rto_reason: Type.Optional(Str(60, 'rto_* events only.')),
    qc_status: Type.Optional(
      Str(
        20,
        'Return events only: the QC result at pickup, passed (on return_picked_up) or failed (on return_cancelled).',
      ),
    ),
    qc_reason: Type.Optional(Str(200, 'Why the QC failed; required with qc_status failed, refused otherwise.')),
    event_id: Type.Optional(Str(100, 'Your id for the scan; a replay with the same id changes nothing.')),
  },
  { additionalProperties: false },
);
export type CarrierEvent = Static<typeof CarrierEventSchema>;

/** Which way a parcel travels: a forward shipment to the buyer, or a return from the buyer's door. */
export type Journey = 'forward' | 'return';

/** A scan a connector read into the intake's shape, with the courier's own record of it. */
export type ReadScan = CarrierEvent & {
  /**
   * The courier's record of the scan as it answered it: what is kept when the intake cannot apply
   * the scan, and read again through the current tables when they change. Absent on a scan Dakiya
   * made (the start of an RTO the courier did not announce).
   */
  raw?: unknown;
};

/** A scan no status could be read from: kept with the reason, never dropped (docs/couriers.md). */
export interface UnreadScan {
  raw: unknown;
  reason: string;
}

/** One parcel's scans as a connector read them: those it could read, and those it could not. */
export interface ParcelScans {
  events: ReadScan[];
  unread: UnreadScan[];
}

/** A scan read through a courier's table, or why it could not be read. */
export type ScanReading = Omit<CarrierEvent, 'awb'> | { unread: string };

/**
 * One parcel's scans through a courier's table: each read, or kept unread with the reason; a
 * return's read as return statuses (`asReturnScan`). `source` prefixes the event ids Dakiya makes.
 */
export function readParcelScans<T>(
  awb: string,
  journey: Journey,
  items: readonly T[],
  read: (item: T) => ScanReading,
  source: string,
): ParcelScans {
  const events: ReadScan[] = [];
  const unread: UnreadScan[] = [];
  for (const item of items) {
    const reading = read(item);
    const event = 'unread' in reading ? reading : journey === 'return' ? asReturnScan({ awb, ...reading }) : reading;
    if ('unread' in event) unread.push({ raw: item, reason: event.unread });
    else events.push({ ...event, awb, raw: item });
  }
  return { events: journey === 'return' ? inTimeOrder(events) : inTimeOrderWithRtoStart(awb, events, source), unread };
}

const inTimeOrder = <E extends CarrierEvent>(events: E[]) =>
  events.sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time));

/**
 * A reverse pickup's scan, read through a courier's forward table: couriers that publish one list
 * of scan codes use it for both legs, the pickup at the buyer's door standing for the pickup at a
 * warehouse. What has no meaning on a reverse pickup (an RTO, an NDR's refusal) is unread, with why.
 */
export function asReturnScan(event: CarrierEvent): CarrierEvent | { unread: string } {
  const { ndr_reason: _ndr, rto_reason: _rto, ...rest } = event;
  const { sub_status: _sub, ...bare } = rest;
  const as = (status: CarrierEvent['status'], sub_status?: string): CarrierEvent => ({
    ...bare,
    status,
    ...(sub_status && { sub_status }),
  });
  switch (event.status) {
    case 'pending':
      return event.sub_status === 'pickup_failed'
        ? as('return_pickup_scheduled', 'return_pickup_failed')
        : as('return_pickup_scheduled');
    case 'in_transit':
      if (event.sub_status === 'picked_up') return as('return_picked_up', 'return_picked_up');
      return event.sub_status?.startsWith('reached_')
        ? as('return_in_transit', 'return_reached_hub')
        : as('return_in_transit', 'return_in_transit');
    case 'out_for_delivery':
      return as('return_in_transit', 'return_out_for_delivery');
    case 'delivered':
      return as('return_delivered', 'return_delivered');
    case 'ndr_raised':
      // A failed attempt at the buyer's door: the courier comes again, as for a failed pickup.
      return as('return_pickup_scheduled', 'return_pickup_failed');
    case 'cancelled':
      return as('return_cancelled', 'return_cancelled_by_courier');
    case 'others':
      if (event.sub_status === 'lost') return as('return_lost', 'return_lost');
      if (event.sub_status === 'damaged') return as('return_lost', 'return_damaged');
      return { unread: `${event.status} (${event.sub_status ?? 'no sub-status'}) has no return status` };
    default:
      return { unread: `${event.status} is a forward parcel's return to origin: it has no meaning on a return` };
  }
}

/**
 * Scans in time order, with an rto_initiated put a millisecond before the first return scan when
 * the courier reported none (couriers often scan the return leg without announcing it), so the
 * status machine meets the start of the return first. `source` prefixes the made scan's event id.
 */
export function inTimeOrderWithRtoStart<E extends CarrierEvent>(awb: string, events: E[], source: string): E[] {
  inTimeOrder(events);
  const firstReturn = events.findIndex((e) => e.status.startsWith('rto_'));
  if (firstReturn >= 0 && events[firstReturn]!.status !== 'rto_initiated') {
    const at = events[firstReturn]!;
    events.splice(firstReturn, 0, {
      awb,
      status: 'rto_initiated',
      sub_status: 'rto_initiated',
      event_time: new Date(Date.parse(at.event_time) - 1).toISOString(),
      ...(at.location && { location: at.location }),
      description: 'Return to origin started',
      event_id: `${source}:rto-start:${at.event_id}`.slice(0, 100),
    } as E);
  }
  return events;
}
