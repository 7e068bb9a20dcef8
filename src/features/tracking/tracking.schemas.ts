import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { CarrierEventSchema } from '../../couriers/carrier-event.js';

export const TrackingEventsBody = Type.Object(
  { events: Type.Array(CarrierEventSchema, { minItems: 1, maxItems: 500, 'x-error': 'must hold 1 to 500 events' }) },
  {
    additionalProperties: false,
    examples: [
      {
        events: [
          {
            awb: EXAMPLE.awb,
            status: 'in_transit',
            sub_status: 'picked_up',
            event_time: '2026-11-20T16:05:00+05:30',
            location: 'Okhla Phase 3, New Delhi',
            description: 'Shipment picked up from the seller',
            event_id: 'SFX-SCAN-884120',
          },
        ],
      },
    ],
  },
);

export const TrackingEventsResponse = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        awb: Type.String(),
        accepted: Type.Boolean(),
        duplicate: Type.Optional(
          Type.Boolean({ description: 'A replay of an event already recorded; it changed nothing.' }),
        ),
        changed: Type.Optional(
          Type.Literal(false, {
            description:
              'Present (false) when the accepted event changed nothing: a duplicate, a repeat of the status already applied, or a status ' +
              "the status machine does not apply then (kept in the history). Absent when it moved the shipment's (return's) status.",
          }),
        ),
        reason: Type.Optional(Type.String({ description: 'Why the event changed nothing, beside changed: false.' })),
        error: Type.Optional(Type.String({ description: 'Why the event was refused, beside accepted: false.' })),
      }),
      { description: 'One per event, in the order sent.' },
    ),
  },
  {
    examples: [
      {
        results: [
          { awb: EXAMPLE.awb, accepted: true },
          {
            awb: EXAMPLE.awb,
            accepted: true,
            duplicate: true,
            changed: false,
            reason:
              'duplicate of the in_transit scan at 2026-11-20T10:35:00.000Z (received 2026-11-20T10:36:02.000Z): nothing changed',
          },
        ],
      },
    ],
  },
);

export const CarrierTokenBody = Type.Object(
  { carrier_id: Type.String({ maxLength: 32, description: 'A courier service id from GET /custom/api/v1/carriers.' }) },
  { additionalProperties: false, examples: [{ carrier_id: EXAMPLE.carrierId }] },
);
export const CarrierTokenResponse = Type.Object(
  {
    token: Type.String({ description: 'Shown once. Send as "Authorization: Bearer <token>" to /carrier/v1.' }),
    carrier_id: Type.String(),
  },
  { examples: [{ token: 'dkc_W2e4R6t8Y0u1I3o5P7a9S2d4F6g8H0j1K3l5Z7x9C2v', carrier_id: EXAMPLE.carrierId }] },
);
