import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Nullable, Uuid } from '../../http/schemas.js';
import { PICKUP_DAYS_AHEAD, PICKUP_MAX_PARCELS } from './pickups.service.js';
import { CALENDAR_DAY_PATTERN } from '../../domain/date-patterns.js';
import { statedRule } from '../../http/stated-rules.js';

const DAY = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  'x-error': 'must be a date as YYYY-MM-DD',
  ...statedRule({ pattern: CALENDAR_DAY_PATTERN }),
});

export const PickupBody = Type.Object(
  {
    warehouse_id: Type.String({
      format: 'uuid',
      'x-error': 'must be a warehouse id (a UUID)',
      description: 'Where the courier collects (GET /warehouses).',
    }),
    carrier_id: Type.String({
      minLength: 1,
      maxLength: 32,
      'x-error': 'must be a courier service id of 1 to 32 characters',
      description: 'The courier service (GET /couriers).',
    }),
    pickup_date: Type.Optional({
      ...DAY,
      description: `The day of the collection, India time: today (the default) to ${PICKUP_DAYS_AHEAD} days ahead.`,
    }),
    awbs: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: PICKUP_MAX_PARCELS,
        'x-error': `must be a list of 1 to ${PICKUP_MAX_PARCELS} AWBs`,
        description: `The parcels to collect. Left out: every parcel of the warehouse booked with the courier and not picked up, cancelled, held or on a pickup yet (at most ${PICKUP_MAX_PARCELS}, oldest first).`,
      }),
    ),
  },
  { additionalProperties: false },
);

const PickupShipment = Type.Object({
  awb: Type.String(),
  order_id: Type.String({ description: "The merchant's order id." }),
  weight: Type.Number({ description: 'The applied weight in kg.' }),
  cod_amount: Type.Number({ description: 'Rupees the courier collects; 0 for prepaid.' }),
  status: Type.String({ description: "The shipment's status now." }),
  picked_up: Type.Boolean({ description: 'Whether the courier has scanned it picked up.' }),
});

export const Pickup = Type.Object({
  id: Uuid,
  status: Type.Union([Type.Literal('scheduled'), Type.Literal('picked_up'), Type.Literal('missed')], {
    description:
      'scheduled until every parcel is picked up (picked_up); missed when its day ended with parcels waiting.',
  }),
  warehouse_id: Uuid,
  carrier_id: Type.String(),
  courier_name: Type.String(),
  pickup_date: Type.String({ description: 'YYYY-MM-DD, India time.' }),
  courier_reference: Nullable(Type.String({ description: "The courier's own pickup id, when its API gives one." })),
  parcels: Type.Integer(),
  manifest_url: Type.String({
    description: 'The manifest PDF (send the API key with it); the same document every time.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  missed_at: Nullable(Type.String({ format: 'date-time' })),
  missed_awbs: Type.Array(Type.String(), { description: 'The parcels still waiting when the day ended.' }),
  shipments: Type.Array(PickupShipment, { description: 'The manifest: the parcels in the order they were booked.' }),
});

const EXAMPLE_PICKUP = {
  id: EXAMPLE.pickupId,
  status: 'scheduled',
  warehouse_id: EXAMPLE.warehouseId,
  carrier_id: EXAMPLE.carrierId,
  courier_name: 'Shadowfax Standard',
  pickup_date: '2026-11-20',
  courier_reference: null,
  parcels: 1,
  manifest_url: `http://127.0.0.1:3000/custom/api/v1/pickups/${EXAMPLE.pickupId}/manifest.pdf`,
  created_at: '2026-11-20T06:30:00.000Z',
  missed_at: null,
  missed_awbs: [],
  shipments: [
    { awb: EXAMPLE.awb, order_id: 'ORD-10045', weight: 0.5, cod_amount: 0, status: 'pending', picked_up: false },
  ],
};

export const PickupEnvelope = Type.Object({ data: Pickup }, { examples: [{ data: EXAMPLE_PICKUP }] });

export const PickupListEnvelope = Type.Object(
  {
    data: Type.Array(Pickup, { description: 'Newest first.' }),
    next_cursor: Nullable(Type.String({ description: 'Send as cursor for the next page; null on the last.' })),
  },
  { examples: [{ data: [EXAMPLE_PICKUP], next_cursor: null }] },
);

export const PickupListQuery = Type.Object(
  {
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, 'x-error': 'must be a cursor from an earlier page' }),
    ),
    // A query value is text: as an integer schema it refused every limit sent.
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9]\\d?|100)$',
        'x-error': 'must be a whole number from 1 to 100',
        description: 'At most this many (1–100; 20).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PickupParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The pickup's id.", examples: [EXAMPLE.pickupId] }),
});

export const PICKUP_BODY_EXAMPLE = {
  warehouse_id: EXAMPLE.warehouseId,
  carrier_id: EXAMPLE.carrierId,
  awbs: [EXAMPLE.awb],
};
