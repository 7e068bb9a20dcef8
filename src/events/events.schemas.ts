import { Type } from 'typebox';
import { EVENT_TYPES } from '../domain/shipment/event-types.js';

const EventTypeName = Type.Enum([...EVENT_TYPES], { 'x-error': `must be one of ${EVENT_TYPES.join(', ')}` });

const EXAMPLE_SHIPMENT = {
  id: '0b9c5a4e-8f7d-4d0e-9a55-3c2f1e6d7b80',
  type: 'shipment',
  attributes: {
    tracking_number: 'SFX0000000001',
    test_mode: false,
    status: 'in_transit',
    sub_status: null,
    created_at: '2026-11-20T06:30:00.000Z',
    expected_delivery_date: '2026-11-24',
    warehouse_id: '5d2f3a1b-7c4e-4f8a-9b6d-1e0c2a3b4d5e',
    total_price: 1499,
    cod_amount: 0,
    is_cod: false,
    zone: 'zone_c',
    applied_weight: { value: 500, metric_unit: 'g' },
    attempt_count: 0,
    return: null,
    carrier: { id: 'CARSHADOWFAX01', name: 'Shadowfax Surface' },
    order: {
      id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
      order_date: '2026-11-20T06:00:00.000Z',
      channel: 'manual_order',
      display_id: 'ORD-10234',
      external_id: 'ORD-10234',
      store_name: 'chai-point',
      channel_id: null,
      vendor_details: null,
    },
    items: [
      {
        id: 'b7a6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c2d',
        quantity: 1,
        price: 1499,
        name: 'Masala chai gift box',
        sku: 'CHAI-GB-01',
      },
    ],
    shipping_address: {
      name: 'Priya Sharma',
      phone: '+919812345678',
      alternate_phone: null,
      address: '14, 2nd Main, Indiranagar',
      address_2: null,
      city: 'Bengaluru',
      state: 'Karnataka',
      zip: '560038',
    },
    shipment_milestones: [{ milestone: 'order_created', milestone_at: '2026-11-20T06:30:00.000Z' }],
    ndr_actions: [],
    tracking_details: [
      {
        id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
        status: 'picked_up',
        last_location: 'Gurugram Hub',
        event_date_time: '2026-11-20T11:02:00.000Z',
        description: 'Picked up',
      },
    ],
  },
};

export const EXAMPLE_EVENT = {
  id: '3f6c1e2a-9b8d-4c7e-a5f4-1d2e3c4b5a69',
  type: 'shipment.status_changed',
  created_at: '2026-11-21T09:15:00.000Z',
  sequence: 4,
  data: {
    shipment: EXAMPLE_SHIPMENT,
    from: 'picked_up',
    from_sub_status: null,
    to: 'in_transit',
    sub_status: null,
    location: 'Bhiwandi Sort Centre',
    event_time: '2026-11-21T09:10:00.000Z',
    attempt_count: 0,
    ndr_reason: null,
    rto_reason: null,
  },
};

/** One event: what `GET /events` lists and what a webhook delivery POSTs, field for field. */
export const Event = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: 'The event id; also the `webhook-id` header of its deliveries, so receivers can drop repeats.',
    }),
    type: Type.String({ description: `One of ${EVENT_TYPES.join(', ')} (webhook.test only on a test delivery).` }),
    created_at: Type.String({ format: 'date-time' }),
    sequence: Type.Integer({
      minimum: 1,
      description:
        "1, 2, 3… per shipment (or return, or store) in the order its changes committed: sort a subject's events by it.",
    }),
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The shipment (`shipment`, as POST /shipments lists it), return (`return`, as POST /returns lists it) or store (`store`) after the change, plus what changed; per type in the `webhooks` section of this document.',
      },
    ),
  },
  { $id: 'Event', examples: [EXAMPLE_EVENT] },
);

export const ListEventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        format: 'uuid',
        'x-error': 'must be the id of an event',
        description: 'List the events after this one (the last id you have); from the first when absent.',
      }),
    ),
    type: Type.Optional(Type.Union([EventTypeName, Type.Array(EventTypeName, { maxItems: EVENT_TYPES.length })])),
    'type[]': Type.Optional(
      Type.Union([EventTypeName, Type.Array(EventTypeName, { maxItems: EVENT_TYPES.length })], {
        description: 'Only these types; repeat for several.',
      }),
    ),
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9]\\d?|100)$',
        'x-error': 'must be 1 to 100',
        description: 'At most this many (1–100; 50).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListEventsResponse = Type.Object(
  {
    data: Type.Array(Type.Ref('Event'), { description: "The account's events, oldest first." }),
    meta: Type.Object({
      next_after: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description:
          'Send as `after` to continue: the last event listed, or your own `after` when nothing new has come. Null only while the account has no events.',
      }),
      has_more: Type.Boolean({ description: 'Whether more events follow at once (else poll again later).' }),
    }),
  },
  { examples: [{ data: [EXAMPLE_EVENT], meta: { next_after: EXAMPLE_EVENT.id, has_more: false } }] },
);
