import { type TSchema, Type } from 'typebox';
import { NdrAction } from '../../domain/shipment/ndr-actions.js';
import { NDR_OUTCOMES } from '../../domain/rto/ndr-automation.js';
import { RtoAssessmentFields } from '../../shipment-records/rto-fields.js';
import { Uuid } from '../../http/schemas.js';

// One shipment as the listing answers it (JSON:API style), the schema `Shipment` that event
// payloads and OpenAPI name; shipment-element.repository.ts writes it.
const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const Timestamp = Type.String({ format: 'date-time' });

export const ShipmentElement = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('shipment'),
    attributes: Type.Object({
      tracking_number: Nullable(Type.String({ description: 'The AWB; null until a courier is booked.' })),
      test_mode: Type.Boolean({
        description:
          'true for a test booking: its AWB was issued by no courier (the sandbox, or a push courier without an allotted AWB series), so no courier will carry it.',
      }),
      track_url: Nullable(
        Type.String({
          format: 'uri',
          description: "The customer's public tracking page; null until a courier is booked.",
        }),
      ),
      label_url: Nullable(
        Type.String({
          format: 'uri',
          description:
            'A new signed link to the label PDF on every read (it expires); null before an AWB and once cancelled.',
        }),
      ),
      status: Type.String({ description: "SPEC section 3's status (the coarse view)." }),
      sub_status: Nullable(Type.String()),
      granular_status: Type.String({
        description:
          "Velocity's granular status (one of the thirty; GET /custom/api/v1/meta/statuses, granular_statuses): the word " +
          'order-tracking shows as shipment_status and granular_status[] filters on.',
      }),
      created_at: Timestamp,
      expected_delivery_date: Nullable(
        Type.String({
          format: 'date',
          description:
            'YYYY-MM-DD, India date: the delivery date promised by the quote the shipment was booked on; null until a courier is booked.',
        }),
      ),
      warehouse_id: Uuid,
      total_price: Type.Number({ description: 'Order value, rupees.' }),
      cod_amount: Type.Number({ description: 'Rupees to collect; 0 for prepaid.' }),
      is_cod: Type.Boolean(),
      zone: Type.String({ description: 'zone_a … zone_e' }),
      applied_weight: Type.Object({ value: Type.Number(), metric_unit: Type.Literal('g') }),
      attempt_count: Type.Integer(),
      ndr_reason: Nullable(
        Type.String({ description: 'Why the latest delivery failed (GET /custom/api/v1/meta/statuses: ndr_reasons).' }),
      ),
      rto_reason: Nullable(
        Type.String({ description: 'Why the parcel goes back (rto_reasons), when the courier or merchant gave one.' }),
      ),
      ...RtoAssessmentFields,
      ndr_all_outcomes: Type.Array(Type.Enum(NDR_OUTCOMES), {
        description:
          "Dakiya's addition: every action taken on the shipment's NDRs, each once (by the merchant, the buyer or an NDR rule; docs/rto.md).",
      }),
      rto_awb: Nullable(
        Type.String({
          description:
            'The AWB of the return to origin once it began: couriers carry it back under the forward AWB. Null before.',
        }),
      ),
      manifested: Type.Boolean({
        description: "On a pickup's manifest (POST /pickups): the listing's manifested filter matches it.",
      }),
      pickup_id: Nullable(
        Type.String({
          format: 'uuid',
          description:
            'The pickup whose manifest lists it (GET /pickups/{id}); null until one does. The pickup_id filter takes it.',
        }),
      ),
      fare_breakup: Nullable(
        Type.Object(
          {
            forward_charges: Type.Number({ description: 'Freight, rupees.' }),
            cod_charges: Type.Number({ description: 'COD fee, rupees; 0 for prepaid.' }),
            rto_charges: Type.Number({ description: 'The RTO freight, rupees, once the RTO began; 0 before.' }),
            total_charges: Type.Number({ description: 'Their sum, rupees.' }),
          },
          {
            description:
              "The courier's charges as the booking answer gave them (its charges); null until a courier is booked.",
          },
        ),
      ),
      return: Nullable(
        Type.Object(
          { return_id: Uuid, awb_code: Nullable(Type.String()), status: Type.String() },
          {
            description:
              "Dakiya's addition: the return booked for this shipment (reverse-order with forward_awb or forward_order_id), or null.",
          },
        ),
      ),
      is_exchange: Type.Union([Type.Literal(0), Type.Literal(1)], {
        description:
          "1 when the shipment is an exchange's replacement (POST /exchange-orders lists the exchange), else 0.",
      }),
      exchange: Nullable(
        Type.Object(
          {
            id: Uuid,
            display_id: Type.String({ description: "The exchange's display_id (the order_id it was booked with)." }),
            unique_id: Type.String({ description: "The exchange's unique_id (EX and 10 characters)." }),
            return_id: Uuid,
            return_awb: Nullable(Type.String({ description: "The return's AWB; null until its courier is booked." })),
          },
          {
            description:
              'The exchange whose replacement this shipment is, with its other leg: the return of the old item (POST /returns lists it). Null when is_exchange is 0.',
          },
        ),
      ),
      carrier: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
      order: Type.Object({
        id: Uuid,
        order_date: Timestamp,
        channel: Type.String(),
        display_id: Type.String(),
        external_id: Type.String(),
        store_name: Nullable(Type.String()),
        channel_id: Nullable(
          Type.String({ description: "The merchant's own channel reference (channel_id when booking)." }),
        ),
        channel_order_id: Nullable(
          Type.String({
            description: "Dakiya's addition: the store's id of an order a sales channel imported (POST /channels).",
          }),
        ),
        channel_order_name: Nullable(
          Type.String({
            description: 'Dakiya\'s addition: what the store calls that order ("#1001"); search finds it.',
          }),
        ),
        vendor_details: Nullable(
          Type.Record(Type.String(), Type.String(), {
            description:
              'The seller the parcel ships for, as booked (vendor_details: name, email, phone, address, pin_code, …).',
          }),
        ),
      }),
      items: Type.Array(
        Type.Object({
          id: Type.String(),
          quantity: Type.Integer(),
          price: Type.Number(),
          name: Type.String(),
          sku: Type.String(),
        }),
      ),
      shipping_address: Type.Object({
        name: Type.String(),
        phone: Type.String(),
        alternate_phone: Nullable(
          Type.String({
            description:
              'Another phone the buyer gave on the tracking page\'s "update your address" form (+91…); null when none (docs/rto.md).',
          }),
        ),
        address: Type.String({ description: 'The street address the parcel goes to.' }),
        address_2: Nullable(Type.String({ description: 'Its second line; null when none.' })),
        city: Type.String(),
        state: Type.String(),
        zip: Type.String(),
      }),
      shipment_milestones: Type.Array(Type.Object({ milestone: Type.String(), milestone_at: Timestamp }), {
        description:
          'Oldest first: order_created, courier_assigned, the first arrival in each stage (docs/tracking.md), and ' +
          'expected_delivery_date and original_expected_delivery_date (the start, India time, of the promised delivery day; ' +
          'original_ keeps the first promise).',
      }),
      order_confirmation: Nullable(
        Type.Object(
          {
            outcome: Type.String({ description: 'pending, confirmed, cancelled or no_response.' }),
            held: Type.Boolean({ description: 'Held back from the courier under the hold policy.' }),
            channel: Nullable(
              Type.String({ description: 'whatsapp, sms or email; null when no channel could reach the buyer.' }),
            ),
            cod_to_prepaid: Nullable(Type.String({ description: 'offered or paid.' })),
          },
          {
            description: "The buyer's order confirmation (GET /shipments/{id}/confirmation); null when none was asked.",
          },
        ),
      ),
      ndr_actions: Type.Array(NdrAction, {
        description:
          "The merchant's reattempt and RTO instructions on the shipment, oldest first (docs/tracking.md, NDR actions).",
      }),
      tracking_details: Type.Array(
        Type.Object({
          id: Type.String(),
          status: Type.String(),
          last_location: Nullable(Type.String()),
          event_date_time: Timestamp,
          description: Nullable(Type.String()),
        }),
      ),
      box_count: Type.Integer({
        minimum: 1,
        description:
          "Dakiya's addition: the boxes the shipment ships in (1 for one; a multi-piece order's packages[]). One row per order whatever its boxes.",
      }),
      boxes: Nullable(
        Type.Array(
          Type.Object({
            box_no: Type.Integer({ minimum: 1, description: 'Box 1 carries the master AWB (tracking_number).' }),
            awb: Type.String({ description: "The box's own AWB." }),
            status: Type.String({
              description: "The box's status, from its own scans (docs/tracking.md, Multi-piece shipments).",
            }),
            sub_status: Nullable(Type.String()),
            status_at: Timestamp,
          }),
          {
            description:
              "Dakiya's addition: a multi-piece shipment's booked boxes, box 1 first ([] until booked); null for a shipment in one box. " +
              'status and sub_status above are their roll-up: others / box_exception when a box went its own way.',
          },
        ),
      ),
    }),
  },
  { $id: 'Shipment' },
);
