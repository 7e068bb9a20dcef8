import { type Static, Type } from 'typebox';
import { Uuid } from '../../http/schemas.js';
import { AllocationView } from './allocation-preview.schemas.js';
import { RtoAssessmentFields } from '../../shipment-records/rto-fields.js';
import { BoxesField } from '../../shipment-records/shipment-boxes.js';
import { Amount, Flag, Nullable } from '../../http/schemas.js';

// What the order routes answer: a booked order's payload, a cancellation's and an order check's
// answers. The requests they take are orders.schemas.ts's.

const Charges = Type.Object({
  forward_freight_charges: Type.Number({ description: 'Rupees.' }),
  cod_charges: Type.Number({ description: 'Rupees; 0 for prepaid.' }),
  rto_freight_charges: Type.Number({ description: 'Rupees, should the parcel come back; not in the total.' }),
  total_forward_charges: Type.Number({ description: 'Freight + COD, in rupees.' }),
  frwd_charges: Type.Object(
    {
      shipping_charges: Amount('Freight, rupees as a two-decimal string.'),
      cod_charges: Amount('COD charge, rupees as a two-decimal string.'),
      dead_weight_billing: Type.Boolean({
        description: 'True when billed on the dead weight (it is not below the volumetric weight).',
      }),
    },
    { description: "Velocity's forward charges." },
  ),
  rto_charges: Type.Object(
    { rto_charges: Amount('RTO freight, rupees as a two-decimal string.') },
    { description: "Velocity's RTO charges (the same amount as rto_freight_charges)." },
  ),
});

const VelocityDate = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  description: 'India time without an offset, as Velocity writes dates.',
  examples: ['2026-11-20 12:00:00'],
});

export const OrderPayload = Type.Object({
  order_id: Uuid,
  channel_order_id: Type.String({ description: "The merchant's order_id." }),
  shipment_id: Uuid,
  status: Type.String({ description: 'Shipment status: pending until picked up.' }),
  store_name: Nullable(Type.String()),
  zone: Type.String({ description: 'zone_a … zone_e' }),
  applied_weight: Type.Number({ description: 'Kilograms: the larger of dead and volumetric weight.' }),
  cod: Flag('1 for cash on delivery.'),
  awb_code: Nullable(Type.String()),
  courier_company_id: Nullable(Type.String()),
  courier_name: Nullable(Type.String()),
  label_url: Nullable(Type.String({ format: 'uri', description: 'Signed link to the 4x6 inch PDF label; expires.' })),
  track_url: Nullable(
    Type.String({
      format: 'uri',
      description:
        "The customer's public tracking page (PUBLIC_BASE_URL/t/<token>); null until a courier is booked. The link never changes.",
      examples: ['https://ship.example.in/t/q2Xn8V0bTgK4mYc1Pz7wAa'],
    }),
  ),
  test_mode: Type.Boolean({
    description:
      'true for a test booking: the AWB was issued by no courier (the sandbox connector, or a push courier without an AWB series it ' +
      'allotted: awb_series in the courier catalogue). No courier will collect the parcel, and its label says TEST — NOT A COURIER LABEL. ' +
      'false before a courier is booked, and for waybills the courier issued.',
  }),
  charges: Nullable(Charges),
  pickup_location_added: Flag('1: the pickup warehouse was found (by warehouse_id or pickup_location).'),
  order_created: Flag('1: the order exists.'),
  awb_generated: Flag('1 once a courier is booked and the AWB assigned.'),
  label_generated: Flag('1 once the label can be fetched from label_url.'),
  pickup_generated: Flag('1 once a courier is booked: its pickup is due on pickup_scheduled_date.'),
  manifest_generated: Flag('Always 0: Dakiya does not make courier manifests.'),
  pickup_scheduled_date: Nullable(
    Type.String({
      format: 'date',
      description: 'The pickup date of the booked quote (India), or null before booking.',
    }),
  ),
  pickup_booked_date: Nullable(VelocityDate),
  expected_delivery_date: Nullable(
    Type.String({
      format: 'date',
      description: 'The delivery date promised by the booked quote (India), or null before booking.',
    }),
  ),
  assigned_date_time: Type.Object(
    {
      date: Type.String({
        description: 'When the courier was assigned (before that, when the order was created), in India time.',
      }),
      timezone_type: Type.Literal(3),
      timezone: Type.Literal('Asia/Kolkata'),
    },
    { examples: [{ date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' }] },
  ),
  manifest_url: Type.Null({ description: 'Always null: no manifests.' }),
  allocation: AllocationView,
  routing_code: Type.Union([Type.String(), Type.Null()], {
    description:
      "The courier's sort (routing) code for the destination, when its connector gives one (Delhivery's sort_code); else null.",
  }),
  rto_routing_code: Type.Null(),
  pickup_token_number: Type.Null(),
  ...RtoAssessmentFields,
  ...BoxesField,
  warnings: Type.Optional(
    Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
      description:
        "Dakiya's addition, present only when there is something to say: what was accepted but not as sent. A " +
        "pickup_location that is not the name of warehouse_id's warehouse is reported here (warehouse_id is used).",
      examples: [
        [
          {
            field: 'pickup_location',
            message:
              "pickup_location 'HomeNew' is not the name of warehouse_id's warehouse ('Okhla Hub'): warehouse_id was used",
          },
        ],
      ],
    }),
  ),
});
export type OrderPayloadView = Static<typeof OrderPayload>;

export const OrderResponse = Type.Object({ status: Type.Literal(1), payload: OrderPayload });

export const CancelResponse = Type.Object({
  message: Type.String({
    description: 'A summary (Velocity answers only this): how many of the shipments were cancelled.',
    examples: ['2 of 3 shipments cancelled'],
  }),
  results: Type.Array(
    Type.Object({
      shipment_id: Type.Optional(Type.String({ description: 'In the shipment_id form only: the shipment_id sent.' })),
      awb: Nullable(Type.String({ description: 'The AWB; null for a shipment without one (shipment_id form).' })),
      cancelled: Type.Boolean(),
      message: Type.String(),
    }),
  ),
});

export const CheckedOrderResponse = Type.Object(
  {
    data: Type.Object({
      carrier_id: Type.String({
        description:
          'The courier service forward-order-orchestration would book now (carrier_id when serviceable, else the cheapest).',
      }),
      courier_name: Type.String(),
      warnings: Type.Optional(
        Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
          description: 'As forward-order answers them.',
        }),
      ),
    }),
  },
  { examples: [{ data: { carrier_id: 'CARSHFXSTD001', courier_name: 'Shadowfax Standard' } }] },
);
