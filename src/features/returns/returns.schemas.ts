import { type Static, Type } from 'typebox';

import { Uuid, Amount, Flag, Money, Nullable, Positive } from '../../http/schemas.js';
import { ORDER_DATE_PATTERN } from '../../domain/date-patterns.js';
import { statedRule } from '../../http/stated-rules.js';
import { customerAddress, ReturnItem } from '../../http/order-parts.js';

export const MAX_RETURN_ITEMS = 100;
/** Velocity checks at most this many SKUs on one QC return; more are booked as non-QC. */
export const MAX_QC_SKUS = 2;

export const CreateReturnBody = Type.Object(
  {
    order_id: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[\\x21-\\x7E]+$',
      'x-error': 'must be 1 to 100 printable characters without spaces',
      description: "The merchant's id of this return; unique per account among returns.",
    }),
    order_date: Type.String({
      ...statedRule({ pattern: ORDER_DATE_PATTERN }),
      maxLength: 40,
      description: 'YYYY-MM-DD HH:MM or YYYY-MM-DD (India time), or an ISO 8601 timestamp.',
      examples: ['2026-11-20 14:30'],
    }),
    channel_id: Type.Optional(Type.String({ maxLength: 100, description: "The merchant's own channel reference." })),
    carrier_id: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'Orchestration only: book this courier service. Omit or "" for the cheapest serviceable one.',
      }),
    ),
    company_name: Type.Optional(Type.String({ maxLength: 200, description: "The customer's company." })),
    ...customerAddress('pickup', 'The customer (pickup)', true),
    ...customerAddress('shipping', "Where the return goes (the warehouse, or the merchant's return address)", false),
    order_items: Type.Array(ReturnItem, {
      minItems: 1,
      maxItems: MAX_RETURN_ITEMS,
      'x-error': `must list 1 to ${MAX_RETURN_ITEMS} items`,
    }),
    payment_method: Type.Optional(
      Type.String({
        pattern: '^(?:[Pp][Rr][Ee][Pp][Aa][Ii][Dd])$',
        'x-error': 'must be PREPAID: a return is never cash on delivery',
        description: 'PREPAID (the default): a return is never cash on delivery.',
      }),
    ),
    sub_total: Money('Value of the returned goods, in rupees.'),
    total_discount: Type.Optional(Money('Discount on the whole order, in rupees; at most sub_total. Default 0.')),
    length: Positive(500, 'cm', 'Centimetres.'),
    breadth: Positive(500, 'cm', 'Centimetres.'),
    height: Positive(500, 'cm', 'Centimetres.'),
    weight: Positive(500, 'kg', 'Dead weight in kilograms.'),
    warehouse_id: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'The destination warehouse (POST /warehouse). When given, shipping_* may be omitted (the return goes to the ' +
          "warehouse's address); a shipping address that is sent is where the return goes, priced and labelled to it, " +
          'whatever its pincode.',
      }),
    ),
    request_pickup: Type.Optional(
      Type.Boolean({
        description: 'Accepted for Velocity compatibility; a booked return always has its pickup scheduled.',
      }),
    ),
    forward_awb: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "Dakiya's addition: the AWB of the forward shipment this parcel returns. Links the two both ways.",
      }),
    ),
    forward_order_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          "Dakiya's addition: the merchant order_id of the forward order this parcel returns (instead of forward_awb).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateReturnInput = Static<typeof CreateReturnBody>;

export const AssignReturnCourierBody = Type.Object(
  {
    return_id: Uuid,
    warehouse_id: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          "Must be the return's destination warehouse when the return named one; else it becomes the destination.",
      }),
    ),
    carrier_id: Type.Optional(
      Type.String({ maxLength: 32, description: 'Omit, or send "", to book the cheapest serviceable service.' }),
    ),
  },
  { additionalProperties: false },
);

const ReturnCharges = Type.Object({
  reverse_charges: Amount('Reverse freight, rupees as a two-decimal string (as /rates return_freight_charges).'),
  qc: Amount('Quality-check fee, rupees as a two-decimal string; "0.00" for a non-QC return.'),
  qc_leeway: Amount('Always "0.00": Dakiya charges no QC leeway.'),
  dead_weight_billing: Type.Boolean({
    description: 'True when billed on the dead weight (it is not below the volumetric weight).',
  }),
  platform_fee: Type.Number({ description: "The courier service's platform fee in rupees (not in the total)." }),
  total_return_charges: Type.Number({
    description: 'Reverse freight + QC in rupees: what /rates quotes as total_return_charges.',
  }),
});

const ForwardLink = Type.Object(
  {
    shipment_id: Uuid,
    order_id: Type.String({ description: "The forward order's merchant order_id." }),
    awb_code: Nullable(Type.String()),
  },
  { description: "Dakiya's addition: the forward shipment this return brings back, when the request named it." },
);

export const ReturnPayload = Type.Object({
  order_created: Flag('1: the return exists.'),
  awb_generated: Flag('1 once a courier is booked and the AWB assigned.'),
  pickup_generated: Flag('1 once a courier is booked: its pickup is due on pickup_scheduled_date.'),
  pickup_scheduled_date: Nullable(
    Type.String({ format: 'date', description: 'Pickup date at the customer (India), null before booking.' }),
  ),
  order_id: Type.String({ description: "The merchant's order_id of the return, as Velocity echoes it." }),
  return_id: Uuid,
  shipment_id: Uuid,
  status: Type.String({ description: 'return_requested until a courier is booked, then return_pickup_scheduled.' }),
  zone: Type.String({ description: 'zone_a … zone_e' }),
  awb_code: Nullable(Type.String()),
  courier_company_id: Nullable(Type.String()),
  courier_name: Nullable(Type.String()),
  assigned_date_time: Type.Object(
    { date: Type.String(), timezone_type: Type.Literal(3), timezone: Type.Literal('Asia/Kolkata') },
    { examples: [{ date: '2026-11-20T12:00:00.000+05:30', timezone_type: 3, timezone: 'Asia/Kolkata' }] },
  ),
  applied_weight: Type.Number({ description: 'Kilograms: the larger of dead and volumetric weight.' }),
  cod: Type.Literal(0),
  is_return: Type.Literal(1),
  routing_code: Type.Null(),
  rto_routing_code: Type.Null(),
  pickup_token_number: Type.Null(),
  expected_delivery_date: Nullable(
    Type.String({ format: 'date', description: 'Promised arrival at the warehouse (India).' }),
  ),
  charges: Nullable(ReturnCharges),
  qc_enabled: Flag('1 when the return is quality-checked by a QC-capable courier.'),
  qc_message: Nullable(
    Type.String({
      description:
        'Why items that asked for QC go without it (more than 2 SKUs, or no QC-capable courier on the lane); null otherwise.',
      examples: ['No QC-capable courier serves this lane: booked as a non-QC return'],
    }),
  ),
  forward_shipment: Nullable(ForwardLink),
  label_url: Nullable(
    Type.String({
      format: 'uri',
      description:
        'Signed link to the 4x6 inch PDF label, as for a forward shipment; null until booked and once cancelled.',
    }),
  ),
  track_url: Nullable(
    Type.String({
      format: 'uri',
      description:
        "The customer's tracking page for this return (pickup, journey, support); null until a courier is booked.",
    }),
  ),
  test_mode: Type.Boolean({
    description:
      'true for a test booking, as for a forward shipment: the AWB was issued by no courier (the sandbox connector, or a push courier ' +
      'without an AWB series it allotted). No courier will collect the parcel, and its label says TEST — NOT A COURIER LABEL. ' +
      'false before a courier is booked, and for waybills the courier issued.',
  }),
});
export type ReturnPayloadView = Static<typeof ReturnPayload>;

export const ReturnResponse = Type.Object({ status: Type.Literal(1), payload: ReturnPayload });
