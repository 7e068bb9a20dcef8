import { type TSchema, Type } from 'typebox';
import { Tuple } from '../../http/tuple.js';
import { dateBoundParams } from '../../domain/shipment/date-bounds.js';
import { describeVelocityStatuses, LISTING_STATUSES } from '../../domain/shipment/velocity-statuses.js';
import { forwardGranularFilterWords } from '../../domain/shipment/granular-statuses.js';
import { Uuid } from '../../http/schemas.js';
import { NdrAction } from '../../domain/shipment/ndr-actions.js';
import { RtoAssessmentFields } from '../../http/rto-fields.js';
import { ADDRESS_VALIDITIES } from '../../domain/rto/address-check.js';
import { RTO_RISKS } from '../../domain/rto/risk.js';
import { NDR_OUTCOMES } from '../../domain/rto/ndr-automation.js';

// Where the forward listing's tests have always found it.
export { DATE_BOUND_ERROR } from '../../domain/shipment/date-bounds.js';

export const DATE_FIELDS = [
  'order_date',
  'created_at',
  'updated_at',
  'picked_up_at',
  'delivered_at',
  'cancelled_at',
  'rto_initiated_at',
  'rto_delivered_at',
  // Velocity's names: the courier's booking, the pickup scan (picked_up_at), and three milestones.
  'ready_for_pickup_at',
  'in_transit_at',
  'ndr_raised_at',
  'expected_delivery_date_at',
  'original_expected_delivery_date_at',
] as const;
export type DateField = (typeof DATE_FIELDS)[number];
/** The keyset cursor is (created_at, id), so created_at is the one order the listing has. */
export const SORT_FIELDS = ['created_at'] as const;
export const ZONE_VALUES = ['zone_a', 'zone_b', 'zone_c', 'zone_d', 'zone_e'] as const;

// Enums, not unions of literals, and the messages on the items rather than on a union: a failing
// union reports its branches plus an `anyOf` summary, and the error formatter keeps none of them
// when the union carries the message (a 400 with an empty `errors` list).
export const oneOf = <const T extends string[]>(values: readonly [...T], error: string) => Type.Enum(values, { 'x-error': error });

/** One value or a list of them (1 to 100), for the filters SPEC writes as `name[]`. */
export const manyOf = (item: TSchema, description: string) =>
  Type.Union([item, Type.Array(item, { minItems: 1, maxItems: 100 })], {
    description: `${description} One value or an array of 1 to 100; the key may be sent with or without "[]".`,
  });

const OR_ARRAY = 'or an array of 1 to 100 of them';
export const Text = Type.String({ minLength: 1, maxLength: 100, 'x-error': `must be a text of 1 to 100 characters, ${OR_ARRAY}` });
export const WarehouseId = Type.String({ format: 'uuid', 'x-error': `must be a warehouse id (UUID), ${OR_ARRAY}` });
const GRANULAR_ERROR = `must be one of Velocity's statuses or a sub-status: ${forwardGranularFilterWords.join(', ')}, ${OR_ARRAY}`;
/** Filters on data Dakiya does not keep: accepted and checked for shape, they match no shipment. */
export const UNKEPT_FILTERS = ['call_status'] as const;
const arrayFilters = {
  granular_status: manyOf(
    oneOf(forwardGranularFilterWords, GRANULAR_ERROR),
    "Velocity's granular statuses (GET /custom/api/v1/meta/statuses: granular_statuses), or today's sub-statuses, " +
      'which match that sub-status. Return words and words Dakiya never produces match nothing here.',
  ),
  sub_status: manyOf(Text, 'Sub-statuses, exactly (GET /custom/api/v1/meta/statuses).'),
  carrier_id: manyOf(Text, 'Courier service ids.'),
  carrier_ids: manyOf(Text, "Velocity's name for carrier_id[]; the values of both are merged."),
  warehouse_ids: manyOf(WarehouseId, 'Warehouse ids.'),
  warehouse_id: manyOf(WarehouseId, "Velocity's name for warehouse_ids[]; the values of both are merged."),
  channel: manyOf(Text, 'Order channels (manual_order).'),
  zone: manyOf(oneOf(ZONE_VALUES, `must be one of ${ZONE_VALUES.join(', ')}, ${OR_ARRAY}`), 'Zones.'),
  sku: manyOf(Text, 'SKU codes: shipments with any of them.'),
  tags: manyOf(Text, 'Order tags: shipments with any of them.'),
  ndr_reason: manyOf(Text, 'Non-delivery reasons.'),
  rto_reason: manyOf(Text, 'Return-to-origin reasons.'),
  store_name: manyOf(Text, 'Store names (case-insensitive).'),
  display_id: manyOf(Text, "The merchant's order ids (order_id when booking, order.display_id here), exact and case-sensitive."),
  order_display_id: manyOf(Text, "Velocity's name for display_id[]; the values of both are merged."),
  rto_risk: manyOf(oneOf(RTO_RISKS, `must be one of ${RTO_RISKS.join(', ')}, ${OR_ARRAY}`), 'RTO risk scored at booking (docs/rto.md): low, medium, high.'),
  address_validity: manyOf(
    oneOf(ADDRESS_VALIDITIES, `must be one of ${ADDRESS_VALIDITIES.join(', ')}, ${OR_ARRAY}`),
    'The address checks at booking (docs/rto.md): valid, incomplete, suspicious.',
  ),
  ndr_all_outcomes: manyOf(
    oneOf(NDR_OUTCOMES, `must be one of ${NDR_OUTCOMES.join(', ')}, ${OR_ARRAY}`),
    'Shipments on whose NDRs any of these was done: reattempt, rto, buyer_message (docs/rto.md).',
  ),
  call_status: manyOf(Text, 'Accepted for Velocity\'s integrations; Dakiya keeps no call outcomes, so it matches no shipment.'),
  // Text rather than an enum: Velocity's integrations send their own words, which match nothing here.
  oc_all_outcomes: manyOf(Text, 'Order-confirmation outcomes (docs/rto.md): pending, confirmed, cancelled, no_response; other words match nothing.'),
  cod_to_prepaid: manyOf(Text, 'COD to prepaid (docs/rto.md): offered (a payment link was sent) or paid; other words match nothing.'),
};
export type ArrayFilter = keyof typeof arrayFilters;

const bracketed = Object.fromEntries(
  Object.entries(arrayFilters).flatMap(([name, schema]) => [
    [name, Type.Optional(schema)],
    [`${name}[]`, Type.Optional(schema)],
  ]),
) as { [K in ArrayFilter | `${ArrayFilter}[]`]: ReturnType<typeof Type.Optional<(typeof arrayFilters)[ArrayFilter]>> };

export const UnixTime = Type.Integer({
  minimum: 0,
  maximum: 99_999_999_999_999,
  'x-error': 'must be a Unix timestamp (seconds, or milliseconds when 10^12 or more)',
});

// Bounds far above any real shipment, so that no number reaches PostgreSQL out of its column's range.
/** The largest applied weight: 500 x 500 x 500 cm is 25,000,000 g volumetric. */
export const MAX_FILTER_GRAMS = 100_000_000;
export const MAX_FILTER_ATTEMPTS = 1_000;
const Grams = Type.Number({ minimum: 0, maximum: MAX_FILTER_GRAMS, description: 'Grams.' });
const Attempts = Type.Integer({ minimum: 0, maximum: MAX_FILTER_ATTEMPTS });

const PAGE_ERROR = 'must be a whole number from 1, or {"number": N, "per_page": M} with such numbers';
const pageNumber = (description?: string) => Type.Integer({ minimum: 1, maximum: 100_000, 'x-error': PAGE_ERROR, description });
const PageNumber = pageNumber();
const perPage = (description?: string) => Type.Integer({ minimum: 1, maximum: 100, 'x-error': 'must be a whole number from 1 to 100', description });
const PerPage = perPage();

const dateBounds = dateBoundParams(DATE_FIELDS);

/** Paging and order, shared with the returns listing: page, per_page, sort_order, sort_by, search_after. */
export const pagingParams = (row: 'shipment' | 'return') => ({
  page: Type.Optional(
    Type.Union(
      [
        PageNumber,
        Type.Object(
          { number: Type.Optional(PageNumber), per_page: Type.Optional(PerPage) },
          { additionalProperties: false, 'x-error': PAGE_ERROR },
        ),
      ],
      {
        'x-error': PAGE_ERROR,
        description: '1-indexed page (default 1, at most 100000): a number, or {"number": N, "per_page": M} as Velocity sends it.',
      },
    ),
  ),
  'page[number]': Type.Optional(pageNumber("The page, as Velocity's flat key.")),
  per_page: Type.Optional(perPage('Rows per page: default 20, at most 100.')),
  'page[per_page]': Type.Optional(perPage("per_page, as Velocity's flat key.")),
  sort_order: Type.Optional(oneOf(['asc', 'desc'], 'must be asc or desc')),
  sort_by: Type.Optional(
    Type.Enum(SORT_FIELDS, {
      'x-error': `must be one of ${SORT_FIELDS.join(', ')}`,
      description: "Velocity's sort field. Only created_at (then id), the listing's one order; sort_order sets the direction.",
    }),
  ),
  search_after: Type.Optional(
    Tuple(
      [
        Type.String({ pattern: '^\\d{1,15}$', 'x-error': 'must be the created_at of a row in milliseconds, as a string of digits' }),
        Type.String({ format: 'uuid', 'x-error': `must be a ${row} id (UUID)` }),
      ],
      {
        description: 'meta.next_search_after of the previous page: continues strictly after that row.',
        'x-error': `must be meta.next_search_after of a previous page: ["<created_at in ms>", "<${row} id>"]`,
      },
    ),
  ),
});

export const ListShipmentsBody = Type.Object(
  {
    ...pagingParams('shipment'),
    date_field: Type.Optional(oneOf(DATE_FIELDS, `must be one of ${DATE_FIELDS.join(', ')}`)),
    start_time: Type.Optional(UnixTime),
    end_time: Type.Optional(UnixTime),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Case-insensitive substring of the AWB, order ids, customer name, phone, email, city or pincode.',
      }),
    ),
    status: Type.Optional(
      Type.Enum(LISTING_STATUSES, {
        'x-error': `must be one of ${LISTING_STATUSES.join(', ')}`,
        description:
          "A status of SPEC section 3, or one of Velocity's words, which match SPEC's statuses so: " +
          `${describeVelocityStatuses()}. See docs/tracking.md.`,
      }),
    ),
    is_cod: Type.Optional(Type.Boolean({ 'x-error': 'must be true or false' })),
    label_generated: Type.Optional(
      Type.Boolean({ 'x-error': 'must be true or false', description: 'true: a courier is booked (AWB and label made); false: not yet.' }),
    ),
    manifested: Type.Optional(
      Type.Boolean({
        'x-error': 'must be true or false',
        description: 'true: on a pickup\'s manifest (POST /pickups); false: not yet.',
      }),
    ),
    pickup_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        'x-error': 'must be a text of 1 to 100 characters',
        description: 'The shipments on this pickup (POST /pickups answers its id).',
      }),
    ),
    city: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        'x-error': 'must be a text of 1 to 100 characters',
        description: "The shipping address's city, whole and case-insensitive.",
      }),
    ),
    applied_weight_min: Type.Optional(Grams),
    applied_weight_max: Type.Optional(Grams),
    attempts_count__gte: Type.Optional(Attempts),
    attempts_count__lte: Type.Optional(Attempts),
    ...dateBounds,
    ...bracketed,
  },
  {
    additionalProperties: false,
    // November 2026's COD orders to Priya, newest first (times: Unix seconds, 1 to 30 November, India).
    examples: [{ page: 1, per_page: 20, sort_order: 'desc', date_field: 'order_date', start_time: 1793471400, end_time: 1796063399, is_cod: true, search: 'Priya' }],
  },
);

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const Timestamp = Type.String({ format: 'date-time' });

export const ShipmentElement = Type.Object(
  {
    id: Uuid,
    type: Type.Literal('shipment'),
    attributes: Type.Object({
      tracking_number: Nullable(Type.String({ description: 'The AWB; null until a courier is booked.' })),
      test_mode: Type.Boolean({
        description: 'true for a test booking: its AWB was issued by no courier (the sandbox, or a push courier without an allotted AWB series), so no courier will carry it.',
      }),
      track_url: Nullable(
        Type.String({ format: 'uri', description: "The customer's public tracking page; null until a courier is booked." }),
      ),
      label_url: Nullable(
        Type.String({
          format: 'uri',
          description: 'A new signed link to the label PDF on every read (it expires); null before an AWB and once cancelled.',
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
      ndr_reason: Nullable(Type.String({ description: 'Why the latest delivery failed (GET /custom/api/v1/meta/statuses: ndr_reasons).' })),
      rto_reason: Nullable(Type.String({ description: 'Why the parcel goes back (rto_reasons), when the courier or merchant gave one.' })),
      ...RtoAssessmentFields,
      ndr_all_outcomes: Type.Array(Type.Enum(NDR_OUTCOMES), {
        description: "Dakiya's addition: every action taken on the shipment's NDRs, each once (by the merchant, the buyer or an NDR rule; docs/rto.md).",
      }),
      rto_awb: Nullable(
        Type.String({ description: 'The AWB of the return to origin once it began: couriers carry it back under the forward AWB. Null before.' }),
      ),
      manifested: Type.Boolean({
        description: "On a pickup's manifest (POST /pickups): the listing's manifested filter matches it.",
      }),
      pickup_id: Nullable(
        Type.String({ format: 'uuid', description: 'The pickup whose manifest lists it (GET /pickups/{id}); null until one does. The pickup_id filter takes it.' }),
      ),
      fare_breakup: Nullable(
        Type.Object(
          {
            forward_charges: Type.Number({ description: 'Freight, rupees.' }),
            cod_charges: Type.Number({ description: 'COD fee, rupees; 0 for prepaid.' }),
            rto_charges: Type.Number({ description: "The RTO freight, rupees, once the RTO began; 0 before." }),
            total_charges: Type.Number({ description: 'Their sum, rupees.' }),
          },
          { description: "The courier's charges as the booking answer gave them (its charges); null until a courier is booked." },
        ),
      ),
      return: Nullable(
        Type.Object(
          { return_id: Uuid, awb_code: Nullable(Type.String()), status: Type.String() },
          { description: "Dakiya's addition: the return booked for this shipment (reverse-order with forward_awb or forward_order_id), or null." },
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
        channel_id: Nullable(Type.String({ description: "The merchant's own channel reference (channel_id when booking)." })),
        vendor_details: Nullable(
          Type.Record(Type.String(), Type.String(), {
            description: 'The seller the parcel ships for, as booked (vendor_details: name, email, phone, address, pin_code, …).',
          }),
        ),
      }),
      items: Type.Array(
        Type.Object({ id: Type.String(), quantity: Type.Integer(), price: Type.Number(), name: Type.String(), sku: Type.String() }),
      ),
      shipping_address: Type.Object({
        name: Type.String(),
        phone: Type.String(),
        alternate_phone: Nullable(
          Type.String({ description: 'Another phone the buyer gave on the tracking page\'s "update your address" form (+91…); null when none (docs/rto.md).' }),
        ),
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
        Type.Object({
          outcome: Type.String({ description: 'pending, confirmed, cancelled or no_response.' }),
          held: Type.Boolean({ description: 'Held back from the courier under the hold policy.' }),
          channel: Nullable(Type.String({ description: 'whatsapp, sms or email; null when no channel could reach the buyer.' })),
          cod_to_prepaid: Nullable(Type.String({ description: 'offered or paid.' })),
        }, { description: "The buyer's order confirmation (GET /shipments/{id}/confirmation); null when none was asked." }),
      ),
      ndr_actions: Type.Array(NdrAction, {
        description: "The merchant's reattempt and RTO instructions on the shipment, oldest first (docs/tracking.md, NDR actions).",
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
    }),
  },
  { $id: 'Shipment' },
);

/** A listing's envelope, shared by the shipments and returns listings: rows by reference, then paging. */
export const listingResponse = (row: 'Shipment' | 'Return', rows: string) =>
  Type.Object({
    data: Type.Array(Type.Ref(row)),
    meta: Type.Object({
      current_page: Type.Integer(),
      per_page: Type.Integer(),
      total: Type.Integer({ description: `Exact number of ${rows} matching the filters.` }),
      next_search_after: Nullable(
        Tuple([Type.String(), Type.String()], {
          description: 'Send back as search_after for the next page; null on the last page.',
        }),
      ),
    }),
  });

export const ListShipmentsResponse = listingResponse('Shipment', 'shipments');
