import { type Static, Type } from 'typebox';
import { NDR_REASONS, RTO_REASONS, SHIPMENT_STATUSES, SUB_STATUSES, TRANSITIONS } from './status-machine.js';

const Str = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description });

// Values are checked per event (see eventProblem), so one bad scan does not sink a batch of 500.
export const CarrierEventSchema = Type.Object(
  {
    awb: Str(64, 'The AWB of a shipment booked on your courier service.'),
    status: Str(40, `One of ${SHIPMENT_STATUSES.join(', ')}.`),
    sub_status: Type.Optional(Str(60, 'Granular status; GET /custom/api/v1/meta/statuses lists those of each status.')),
    event_time: Str(40, 'ISO 8601 with a time zone.'),
    location: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    ndr_reason: Type.Optional(Str(60, 'ndr_raised events only.')),
    rto_reason: Type.Optional(Str(60, 'rto_* events only.')),
    event_id: Type.Optional(Str(100, 'Your id for the scan; a replay with the same id changes nothing.')),
  },
  { additionalProperties: false },
);
export type CarrierEvent = Static<typeof CarrierEventSchema>;

export const TrackingEventsBody = Type.Object(
  { events: Type.Array(CarrierEventSchema, { minItems: 1, maxItems: 500, 'x-error': 'must hold 1 to 500 events' }) },
  { additionalProperties: false },
);

export const TrackingEventsResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      awb: Type.String(),
      accepted: Type.Boolean(),
      duplicate: Type.Optional(Type.Boolean({ description: 'A replay of an event already recorded; it changed nothing.' })),
      error: Type.Optional(Type.String()),
    }),
    { description: 'One per event, in the order sent.' },
  ),
});

export const CarrierTokenBody = Type.Object(
  { carrier_id: Type.String({ maxLength: 32, description: 'A courier service id from GET /custom/api/v1/carriers.' }) },
  { additionalProperties: false },
);
export const CarrierTokenResponse = Type.Object({
  token: Type.String({ description: 'Shown once. Send as "Authorization: Bearer <token>" to /carrier/v1.' }),
  carrier_id: Type.String(),
});

export const OrderTrackingBody = Type.Object(
  {
    awbs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: 50,
      'x-error': 'must list 1 to 50 AWBs',
    }),
  },
  { additionalProperties: false },
);

const Activity = Type.Object({
  date: Type.String({ format: 'date-time' }),
  status: Type.String(),
  activity: Type.String(),
  location: Type.Union([Type.String(), Type.Null()]),
  sr_status_label: Type.Union([Type.String(), Type.Null()]),
});

export const OrderTrackingResponse = Type.Object({
  result: Type.Record(
    Type.String(),
    Type.Object({
      tracking_data: Type.Object({
        track_status: Type.Union([Type.Literal(0), Type.Literal(1)], { description: '0 when the AWB is not found.' }),
        error: Type.Optional(Type.String()),
        shipment_status: Type.Optional(Type.String()),
        shipment_sub_status: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        shipment_track: Type.Optional(
          Type.Array(
            Type.Object({
              awb_code: Type.String(),
              courier_company_id: Type.Union([Type.String(), Type.Null()]),
              courier_name: Type.Union([Type.String(), Type.Null()]),
              current_status: Type.String(),
              order_id: Type.String(),
              destination: Type.String(),
              delivered_date: Type.Union([Type.String(), Type.Null()]),
            }),
          ),
        ),
        shipment_track_activities: Type.Optional(Type.Array(Activity, { description: 'Newest first.' })),
        track_url: Type.Optional(Type.Null()),
      }),
    }),
    { description: 'Keyed by AWB.' },
  ),
});

export type OrderTrackingResult = Static<typeof OrderTrackingResponse>['result'];

export const STATUS_CATALOGUE = {
  statuses: SHIPMENT_STATUSES.map((status) => ({ status, sub_statuses: [...SUB_STATUSES[status]] })),
  ndr_reasons: [...NDR_REASONS],
  rto_reasons: [...RTO_REASONS],
  transitions: Object.fromEntries(SHIPMENT_STATUSES.map((status) => [status, [...TRANSITIONS[status]]])),
};

export const StatusCatalogueResponse = Type.Object({
  statuses: Type.Array(Type.Object({ status: Type.String(), sub_statuses: Type.Array(Type.String()) })),
  ndr_reasons: Type.Array(Type.String()),
  rto_reasons: Type.Array(Type.String()),
  transitions: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Which status may follow which.' }),
});
