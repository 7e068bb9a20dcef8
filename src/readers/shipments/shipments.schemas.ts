import { type TSchema, Type } from 'typebox';
import { Tuple } from '../../http/tuple.js';
import { dateBoundParams } from '../../domain/shipment/date-bounds.js';
import { describeVelocityStatuses, LISTING_STATUSES } from './velocity-statuses.js';
import { forwardGranularFilterWords } from '../../domain/shipment/granular-statuses.js';
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
export const oneOf = <const T extends string[]>(values: readonly [...T], error: string) =>
  Type.Enum(values, { 'x-error': error });

/** One value or a list of them (1 to 100), for the filters SPEC writes as `name[]`. */
export const manyOf = (item: TSchema, description: string) =>
  Type.Union([item, Type.Array(item, { minItems: 1, maxItems: 100 })], {
    description: `${description} One value or an array of 1 to 100; the key may be sent with or without "[]".`,
  });

const OR_ARRAY = 'or an array of 1 to 100 of them';
export const Text = Type.String({
  minLength: 1,
  maxLength: 100,
  'x-error': `must be a text of 1 to 100 characters, ${OR_ARRAY}`,
});
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
  channel: manyOf(
    Text,
    'Order channels: manual_order, or shopify and woocommerce for orders a sales channel imported.',
  ),
  zone: manyOf(oneOf(ZONE_VALUES, `must be one of ${ZONE_VALUES.join(', ')}, ${OR_ARRAY}`), 'Zones.'),
  sku: manyOf(Text, 'SKU codes: shipments with any of them.'),
  tags: manyOf(Text, 'Order tags: shipments with any of them.'),
  ndr_reason: manyOf(Text, 'Non-delivery reasons.'),
  rto_reason: manyOf(Text, 'Return-to-origin reasons.'),
  store_name: manyOf(Text, 'Store names (case-insensitive).'),
  display_id: manyOf(
    Text,
    "The merchant's order ids (order_id when booking, order.display_id here), exact and case-sensitive.",
  ),
  order_display_id: manyOf(Text, "Velocity's name for display_id[]; the values of both are merged."),
  rto_risk: manyOf(
    oneOf(RTO_RISKS, `must be one of ${RTO_RISKS.join(', ')}, ${OR_ARRAY}`),
    'RTO risk scored at booking (docs/rto.md): low, medium, high.',
  ),
  address_validity: manyOf(
    oneOf(ADDRESS_VALIDITIES, `must be one of ${ADDRESS_VALIDITIES.join(', ')}, ${OR_ARRAY}`),
    'The address checks at booking (docs/rto.md): valid, incomplete, suspicious.',
  ),
  ndr_all_outcomes: manyOf(
    oneOf(NDR_OUTCOMES, `must be one of ${NDR_OUTCOMES.join(', ')}, ${OR_ARRAY}`),
    'Shipments on whose NDRs any of these was done: reattempt, rto, buyer_message (docs/rto.md).',
  ),
  call_status: manyOf(
    Text,
    "Accepted for Velocity's integrations; Dakiya keeps no call outcomes, so it matches no shipment.",
  ),
  // Text rather than an enum: Velocity's integrations send their own words, which match nothing here.
  oc_all_outcomes: manyOf(
    Text,
    'Order-confirmation outcomes (docs/rto.md): pending, confirmed, cancelled, no_response; other words match nothing.',
  ),
  cod_to_prepaid: manyOf(
    Text,
    'COD to prepaid (docs/rto.md): offered (a payment link was sent) or paid; other words match nothing.',
  ),
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
const pageNumber = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: 100_000, 'x-error': PAGE_ERROR, description });
const PageNumber = pageNumber();
const perPage = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: 100, 'x-error': 'must be a whole number from 1 to 100', description });
const PerPage = perPage();

const dateBounds = dateBoundParams(DATE_FIELDS);

/** Velocity's forms of the page and its size, shared by every listing: page, page[number], per_page, page[per_page]. */
export const pageParams = () => ({
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
        description:
          '1-indexed page (default 1, at most 100000): a number, or {"number": N, "per_page": M} as Velocity sends it.',
      },
    ),
  ),
  'page[number]': Type.Optional(pageNumber("The page, as Velocity's flat key.")),
  per_page: Type.Optional(perPage('Rows per page: default 20, at most 100.')),
  'page[per_page]': Type.Optional(perPage("per_page, as Velocity's flat key.")),
});

/** Paging and order, shared with the returns listing: page, per_page, sort_order, sort_by, search_after. */
export const pagingParams = (row: 'shipment' | 'return') => ({
  ...pageParams(),
  sort_order: Type.Optional(oneOf(['asc', 'desc'], 'must be asc or desc')),
  sort_by: Type.Optional(
    Type.Enum(SORT_FIELDS, {
      'x-error': `must be one of ${SORT_FIELDS.join(', ')}`,
      description:
        "Velocity's sort field. Only created_at (then id), the listing's one order; sort_order sets the direction.",
    }),
  ),
  search_after: Type.Optional(
    Tuple(
      [
        Type.String({
          pattern: '^\\d{1,15}$',
          'x-error': 'must be the created_at of a row in milliseconds, as a string of digits',
        }),
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
        description:
          'Case-insensitive substring of the AWB, order ids, customer name, phone, email, city or pincode A phone or an e-mail needs buyers:read (403 without it).',
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
      Type.Boolean({
        'x-error': 'must be true or false',
        description: 'true: a courier is booked (AWB and label made); false: not yet.',
      }),
    ),
    manifested: Type.Optional(
      Type.Boolean({
        'x-error': 'must be true or false',
        description: "true: on a pickup's manifest (POST /pickups); false: not yet.",
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
    examples: [
      {
        page: 1,
        per_page: 20,
        sort_order: 'desc',
        date_field: 'order_date',
        start_time: 1793471400,
        end_time: 1796063399,
        is_cod: true,
        search: 'Priya',
      },
    ],
  },
);

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

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
