import { Type } from 'typebox';
import { dateBoundParams } from '../../domain/shipment/date-bounds.js';
import { EXCHANGE_STATUSES } from '../../domain/shipment/exchange-status.js';
import { LISTING_STATUSES } from '../shipments/velocity-statuses.js';
import { manyOf, oneOf, pageParams, Text, WarehouseId, ZONE_VALUES } from '../shipments/shipments.schemas.js';
import { QC_FILTER_VALUES, RETURN_LISTING_STATUSES } from '../returns-listing/returns-listing.schemas.js';

// The request of POST /exchange-orders (VELOCITY.md, "Exchange"). Its answer's element is in
// exchange-element.schemas.ts.

export const EXCHANGE_DATE_FIELDS = ['created_at', 'updated_at'] as const;
export const EXCHANGE_SORT_FIELDS = ['created_at', 'updated_at'] as const;

const OR_ARRAY = 'or an array of 1 to 100 of them';
const words = (values: readonly string[]) =>
  oneOf(values as string[], `must be one of ${values.join(', ')}, ${OR_ARRAY}`);
const FORWARD_STATUS =
  "The replacement's shipment status: SPEC's ten or the forward listing's Velocity words (POST /shipments, status).";
const RETURN_STATUS =
  "The old item's return status, or the return listing's Velocity words (pickup_scheduled, in_transit, return_received, cancelled).";

const arrayFilters = {
  status: manyOf(
    words(EXCHANGE_STATUSES),
    "The exchange's status, read from its legs (docs/returns.md, Exchanges): pending, awaiting_return, in_progress, " +
      'replacement_delivered, return_received, completed, qc_failed, needs_attention, cancelled.',
  ),
  display_id: manyOf(Text, "The exchange's display_id (the order_id it was booked with), exact."),
  return_display_id: manyOf(Text, "The return leg's display_id (its order_id), exact."),
  warehouse_id: manyOf(
    WarehouseId,
    "Warehouse ids: exchanges either leg of which uses one (the replacement's origin or the old item's destination).",
  ),
  warehouse_ids: manyOf(WarehouseId, "The forward listing's name for warehouse_id[]; the values of both are merged."),
  channel: manyOf(Text, "The exchange's channel (website unless booked with another)."),
  carrier_ids: manyOf(Text, 'Courier service ids: exchanges either leg of which is booked with one.'),
  carrier_id: manyOf(Text, "SPEC's name for carrier_ids[]; the values of both are merged."),
  store_name: manyOf(Text, "The replacement order's store names (case-insensitive)."),
  sku: manyOf(Text, 'SKU codes: exchanges with any of them in either leg (the replacement or the old item).'),
  zone: manyOf(words(ZONE_VALUES), 'Zones: exchanges either leg of which is in one.'),
  refund_status: manyOf(
    Text,
    "Accepted for Velocity's integrations; Dakiya makes no refunds, so no exchange has a refund status and any value matches none.",
  ),
  qc_status: manyOf(
    words(QC_FILTER_VALUES),
    "The old item's QC: passed or failed (the courier reported it), pending (quality-checked, no result yet), not_applicable.",
  ),
  return_status: manyOf(words(RETURN_LISTING_STATUSES), RETURN_STATUS),
  return_shipment_status: manyOf(
    words(RETURN_LISTING_STATUSES),
    `${RETURN_STATUS} A return is its own shipment in Dakiya, so this is return_status[] by another name (both sent: both must match).`,
  ),
  forward_status: manyOf(words(LISTING_STATUSES), FORWARD_STATUS),
  forward_shipment_status: manyOf(
    words(LISTING_STATUSES),
    `${FORWARD_STATUS} An order has one shipment in Dakiya, so this is forward_status[] by another name (both sent: both must match).`,
  ),
};
export type ExchangeArrayFilter = keyof typeof arrayFilters;

const bracketed = Object.fromEntries(
  Object.entries(arrayFilters).flatMap(([name, schema]) => [
    [name, Type.Optional(schema)],
    [`${name}[]`, Type.Optional(schema)],
  ]),
) as {
  [K in ExchangeArrayFilter | `${ExchangeArrayFilter}[]`]: ReturnType<
    typeof Type.Optional<(typeof arrayFilters)[ExchangeArrayFilter]>
  >;
};

export const ListExchangesBody = Type.Object(
  {
    ...pageParams(),
    sort_by: Type.Optional(oneOf(EXCHANGE_SORT_FIELDS, `must be one of ${EXCHANGE_SORT_FIELDS.join(', ')}`)),
    sort_order: Type.Optional(oneOf(['asc', 'desc'], 'must be asc or desc')),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        'x-error': 'must be a text of 1 to 100 characters',
        description:
          "Case-insensitive substring of the exchange's display_id or unique_id, either leg's AWB, or the buyer's phone or name A phone or an e-mail needs buyers:read (403 without it).",
      }),
    ),
    ...dateBoundParams(EXCHANGE_DATE_FIELDS),
    ...bracketed,
  },
  { additionalProperties: false },
);
