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

/**
 * Scans in time order, with an rto_initiated put a millisecond before the first return scan when
 * the courier reported none (couriers often scan the return leg without announcing it), so the
 * status machine meets the start of the return first. `source` prefixes the made scan's event id.
 */
export function inTimeOrderWithRtoStart(awb: string, events: CarrierEvent[], source: string): CarrierEvent[] {
  events.sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time));
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
    });
  }
  return events;
}
