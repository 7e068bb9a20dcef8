import { REFUND_STATUSES } from '../../domain/return-requests/refund-rules.js';
import { type TSchema, Type } from 'typebox';
import { dateBoundParams } from '../../domain/shipment/date-bounds.js';
import { returnGranularFilterWords } from '../../domain/shipment/granular-statuses.js';
import {
  listingResponse,
  manyOf,
  oneOf,
  pagingParams,
  Text,
  UnixTime,
  WarehouseId,
} from '../shipments/shipments.schemas.js';
import { RETURN_STATUSES, type ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import { Uuid } from '../../http/schemas.js';

const REFUND_FILTER_VALUES = [...REFUND_STATUSES, 'not_applicable'];

export const RETURN_DATE_FIELDS = [
  'created_at',
  'order_date',
  'updated_at',
  'picked_up_at',
  'delivered_at',
  'cancelled_at',
] as const;
export type ReturnDateField = (typeof RETURN_DATE_FIELDS)[number];

/** Velocity's return-listing words beside the statuses themselves, as the statuses they match. */
export const RETURN_STATUS_WORDS = {
  pickup_scheduled: ['return_pickup_scheduled'],
  in_transit: ['return_picked_up', 'return_in_transit'],
  return_received: ['return_delivered'],
  cancelled: ['return_cancelled'],
} as const satisfies Record<string, readonly ReturnStatus[]>;
export const RETURN_LISTING_STATUSES = [
  ...RETURN_STATUSES,
  ...(Object.keys(RETURN_STATUS_WORDS) as (keyof typeof RETURN_STATUS_WORDS)[]),
];

/** passed/failed: the courier's result; pending: quality-checked, no result yet; not_applicable: no QC. */
export const QC_FILTER_VALUES = ['passed', 'failed', 'pending', 'not_applicable'] as const;
export type QcFilter = (typeof QC_FILTER_VALUES)[number];

const OR_ARRAY = 'or an array of 1 to 100 of them';
const arrayFilters = {
  carrier_id: manyOf(Text, 'Courier service ids.'),
  carrier_ids: manyOf(Text, "Velocity's name for carrier_id[]; the values of both are merged."),
  warehouse_ids: manyOf(WarehouseId, 'Destination warehouse ids.'),
  warehouse_id: manyOf(WarehouseId, "Velocity's name for warehouse_ids[]; the values of both are merged."),
  sku: manyOf(Text, 'SKU codes: returns with any of them.'),
  granular_status: manyOf(
    oneOf(
      returnGranularFilterWords,
      `must be one of Velocity's statuses or a return sub-status: ${returnGranularFilterWords.join(', ')}, ${OR_ARRAY}`,
    ),
    "Velocity's granular statuses (GET /custom/api/v1/meta/statuses: granular_statuses, shipment_type return), or return " +
      'sub-statuses, which match that sub-status. Forward-only words and words Dakiya never produces match nothing here.',
  ),
  qc_status: manyOf(
    oneOf(QC_FILTER_VALUES, `must be one of ${QC_FILTER_VALUES.join(', ')}, ${OR_ARRAY}`),
    'QC: passed or failed (the courier reported it), pending (quality-checked, no result yet), not_applicable (not quality-checked).',
  ),
  refund_status: manyOf(
    oneOf(REFUND_FILTER_VALUES, `must be one of ${REFUND_FILTER_VALUES.join(', ')}, ${OR_ARRAY}`),
    "The refund of the return's request (GET /refunds): pending, initiated, completed or failed; not_applicable: none (an exchange, a return the merchant booked).",
  ),
};
export type ReturnArrayFilter = keyof typeof arrayFilters;
const bracketed = Object.fromEntries(
  Object.entries(arrayFilters).flatMap(([name, schema]) => [
    [name, Type.Optional(schema)],
    [`${name}[]`, Type.Optional(schema)],
  ]),
) as {
  [K in ReturnArrayFilter | `${ReturnArrayFilter}[]`]: ReturnType<
    typeof Type.Optional<(typeof arrayFilters)[ReturnArrayFilter]>
  >;
};

export const ListReturnsBody = Type.Object(
  {
    ...pagingParams('return'),
    date_field: Type.Optional(oneOf(RETURN_DATE_FIELDS, `must be one of ${RETURN_DATE_FIELDS.join(', ')}`)),
    start_time: Type.Optional(UnixTime),
    end_time: Type.Optional(UnixTime),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          "Case-insensitive substring of the AWB, the return's order_id, the customer's name, phone, city or pincode A phone or an e-mail needs buyers:read (403 without it).",
      }),
    ),
    status: Type.Optional(
      Type.Enum(RETURN_LISTING_STATUSES, {
        'x-error': `must be one of ${RETURN_LISTING_STATUSES.join(', ')}`,
        description:
          "A return status, or one of Velocity's words: pickup_scheduled (return_pickup_scheduled), in_transit (return_picked_up or " +
          'return_in_transit), return_received (return_delivered), cancelled (return_cancelled).',
      }),
    ),
    is_cod: Type.Optional(
      Type.Boolean({
        'x-error': 'must be true or false',
        description: 'Returns are always prepaid: false matches every return, true none.',
      }),
    ),
    ...dateBoundParams(RETURN_DATE_FIELDS),
    ...bracketed,
  },
  { additionalProperties: false },
);

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const Timestamp = Type.String({ format: 'date-time' });
const Address = Type.Object({
  name: Type.String(),
  phone: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
});

export const ReturnElement = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('return'),
    attributes: Type.Object({
      tracking_number: Nullable(Type.String({ description: 'The AWB; null until a courier is booked.' })),
      status: Type.String(),
      sub_status: Nullable(Type.String()),
      granular_status: Type.String({
        description: "Velocity's granular status (GET /custom/api/v1/meta/statuses: granular_statuses).",
      }),
      qc_enabled: Type.Boolean({ description: 'Quality-checked at pickup by its courier.' }),
      qc_status: Nullable(
        Type.String({ description: 'passed or failed, as the courier reported; null until then or without QC.' }),
      ),
      qc_reason: Nullable(Type.String()),
      refund_status: Nullable(
        Type.String({
          enum: [...REFUND_STATUSES],
          description: "The refund of the buyer's request this return carries (GET /refunds); null without one.",
        }),
      ),
      created_at: Timestamp,
      updated_at: Timestamp,
      picked_up_at: Nullable(Timestamp),
      delivered_at: Nullable(Timestamp),
      cancelled_at: Nullable(Timestamp),
      shipment_id: Uuid,
      warehouse_id: Nullable(Uuid),
      total_price: Type.Number({ description: "The return's sub_total, rupees." }),
      is_cod: Type.Literal(false, { description: 'A return is never cash on delivery.' }),
      zone: Type.String({ description: 'zone_a … zone_e' }),
      applied_weight: Type.Object({ value: Type.Number(), metric_unit: Type.Literal('g') }),
      carrier: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
      order: Type.Object({ order_date: Timestamp, display_id: Type.String(), channel_id: Nullable(Type.String()) }),
      forward_shipment_id: Nullable(Uuid),
      is_exchange: Type.Union([Type.Literal(0), Type.Literal(1)], {
        description:
          "1 when the return is an exchange's pickup of the old item (POST /exchange-orders lists the exchange), else 0.",
      }),
      exchange: Nullable(
        Type.Object(
          {
            id: Uuid,
            display_id: Type.String({ description: "The exchange's display_id (the order_id it was booked with)." }),
            unique_id: Type.String({ description: "The exchange's unique_id (EX and 10 characters)." }),
            forward_shipment_id: Uuid,
            forward_awb: Nullable(
              Type.String({ description: "The replacement's AWB; null until its courier is booked." }),
            ),
          },
          {
            description:
              "The exchange this return is the old item's pickup of, with its other leg: the replacement's shipment (POST /shipments lists it). Null when is_exchange is 0.",
          },
        ),
      ),
      items: Type.Array(
        Type.Object({
          id: Type.String(),
          quantity: Type.Integer(),
          price: Type.Number(),
          name: Type.String(),
          sku: Type.String(),
          qc_enable: Type.Boolean(),
        }),
      ),
      pickup_address: Address,
      shipping_address: Address,
      tracking_details: Type.Array(
        Type.Object({
          id: Type.String(),
          status: Type.String(),
          sub_status: Nullable(Type.String()),
          last_location: Nullable(Type.String()),
          event_date_time: Timestamp,
          description: Nullable(Type.String()),
        }),
      ),
    }),
  },
  { $id: 'Return' },
);

export const ListReturnsResponse = listingResponse('Return', 'returns');
