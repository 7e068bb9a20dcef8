import { type Static, Type } from 'typebox';
import { ORDER_DATE_PATTERN } from '../../domain/date-patterns.js';
import { EXCHANGE_STATUSES } from '../../domain/shipment/exchange-status.js';
import { BillingAddress, EwayBillFields, OrderItem, ReturnItem, customerAddress } from '../../http/order-parts.js';
import { Amount, Flag, Money, Nullable, PaymentMethod, Positive, Text, Uuid } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';

export const MAX_EXCHANGE_ITEMS = 100;
/** Velocity's limit of QC parameters on a returned item. */
export const MAX_QC_QUESTIONS = 6;
export const RELEASE_TERMS = ['at_once', 'return_picked_up', 'qc_passed'] as const;
export type ReleaseTerm = (typeof RELEASE_TERMS)[number];

const OrderId = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[\\x21-\\x7E]+$',
    'x-error': 'must be 1 to 100 printable characters without spaces',
    description,
  });

const ExchangeReturnItem = Type.Object(
  {
    ...ReturnItem.properties,
    qc_questions: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: MAX_QC_QUESTIONS,
        'x-error': `must list at most ${MAX_QC_QUESTIONS} questions`,
        description:
          'QC: what the courier checks at pickup, at most 6. Accepted; the couriers Dakiya ' +
          'books take the product name, image, brand, size and colour, so the questions are reported in warnings as not sent.',
      }),
    ),
  },
  { additionalProperties: false },
);

const PackageId = (leg: string) =>
  Type.Optional(
    Type.String({
      maxLength: 100,
      description: `Velocity's saved ${leg} package. Accepted; Dakiya has no saved packages, so the dimensions sent are used.`,
    }),
  );
const RETURN_DEFAULT = " Default: the forward package's.";

export const CreateExchangeBody = Type.Object(
  {
    order_id: OrderId(
      "The exchange's reference, unique per account: the replacement's order_id, or with forward_order_id the original order's. A repeat returns the exchange already made.",
    ),
    forward_order_id: Type.Optional(OrderId("The replacement's own order_id, when order_id names the original order.")),
    order_date: Type.String({
      maxLength: 40,
      ...statedRule({ pattern: ORDER_DATE_PATTERN }),
      description: 'YYYY-MM-DD HH:MM or YYYY-MM-DD (India time), or an ISO 8601 timestamp.',
      examples: ['2026-11-20 14:30'],
    }),
    carrier_id: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          'Book both legs with this courier service. Omit or "" to have the allocation rules choose the replacement\'s and the cheapest serviceable one the pickup\'s.',
      }),
    ),
    return_carrier_id: Type.Optional(
      Type.String({ maxLength: 32, description: "Dakiya's addition: the pickup's courier service, over carrier_id." }),
    ),
    channel: Type.Optional(
      Type.String({ minLength: 1, maxLength: 50, description: 'Where the exchange came from. Default website.' }),
    ),
    store_name: Type.Optional(
      Type.String({ maxLength: 64, description: "Dakiya's addition: the store (brand) the replacement ships under." }),
    ),
    payment_method: PaymentMethod(
      'COD or PREPAID, in any case: how the replacement is paid for.',
      'must be COD or PREPAID',
    ),
    cod_collectible: Type.Optional(
      Money('With COD: the amount the replacement collects, in rupees (greater than 0, at most sub_total).'),
    ),
    sub_total: Type.Optional(
      Money("Dakiya's addition: the replacement's order value in rupees. Default: its items' prices less discounts."),
    ),
    print_label: Type.Optional(Type.Boolean({ description: 'Accepted; both labels are always made.' })),
    return_reason: Type.Optional(Text(200, 'Why the buyer exchanges the item. Default "Return".')),
    ...BillingAddress,
    ...customerAddress('pickup', 'The buyer, where the old item is picked up', true),
    order_items: Type.Array(OrderItem, {
      minItems: 1,
      maxItems: MAX_EXCHANGE_ITEMS,
      'x-error': `must list 1 to ${MAX_EXCHANGE_ITEMS} items`,
      description: 'The replacement.',
    }),
    forward_warehouse_id: Type.String({ maxLength: 64, description: 'The warehouse the replacement ships from.' }),
    ...EwayBillFields,
    length: Positive(500, 'cm', 'Centimetres.'),
    breadth: Positive(500, 'cm', 'Centimetres.'),
    height: Positive(500, 'cm', 'Centimetres.'),
    weight: Positive(500, 'kg', 'Dead weight in kilograms.'),
    forward_package_id: PackageId('forward'),
    return_items: Type.Array(ExchangeReturnItem, {
      minItems: 1,
      maxItems: MAX_EXCHANGE_ITEMS,
      'x-error': `must list 1 to ${MAX_EXCHANGE_ITEMS} items`,
      description: 'The old item(s) picked up; qc_enable with a qc_product_image asks the courier to check them.',
    }),
    return_warehouse_id: Type.Optional(
      Type.String({ maxLength: 64, description: 'Where the old item goes. Default: forward_warehouse_id.' }),
    ),
    return_length: Type.Optional(Positive(500, 'cm', `Centimetres.${RETURN_DEFAULT}`)),
    return_breadth: Type.Optional(Positive(500, 'cm', `Centimetres.${RETURN_DEFAULT}`)),
    return_height: Type.Optional(Positive(500, 'cm', `Centimetres.${RETURN_DEFAULT}`)),
    return_weight: Type.Optional(Positive(500, 'kg', `Dead weight in kilograms.${RETURN_DEFAULT}`)),
    return_package_id: PackageId('return'),
    original_order_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          "Dakiya's addition: your order_id of the order the old item was delivered in. The pickup is linked to that order's shipment (as reverse-order's forward_order_id): its listing and tracking page show the return, and it takes no second one.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateExchangeInput = Static<typeof CreateExchangeBody>;

const Leg = (what: string) =>
  Type.Object(
    {
      shipment_id: Uuid,
      awb: Nullable(Type.String()),
      label_url: Nullable(Type.String({ format: 'uri', description: 'Signed link to the PDF label; expires.' })),
      courier_name: Nullable(Type.String()),
      courier_company_id: Nullable(
        Type.String({ description: "Dakiya's addition: the courier service's carrier_id." }),
      ),
      applied_weight: Type.Number({ description: 'Kilograms.' }),
      status: Type.String(),
      track_url: Nullable(Type.String({ format: 'uri', description: "The buyer's tracking page of this leg." })),
    },
    { description: what },
  );

export const ExchangeCharges = Type.Object(
  {
    total: Amount('Both legs, QC and the exchange fee (not the RTO charge), rupees as a two-decimal string.'),
    forward: Type.Object({
      forward_charges: Amount("The replacement's freight."),
      forward_cod_charges: Amount('Its COD fee; "0.00" when prepaid.'),
      forward_rto_charges: Amount('Its RTO freight, should it come back; not in the total.'),
    }),
    reverse: Type.Object({
      return_pickup_charges: Amount("The old item's reverse freight."),
      qc_charges: Amount(
        'The quality check: the account\'s QC charge when it set one, else the courier\'s; "0.00" without QC.',
      ),
      exchange_charges: Amount("The account's exchange fee."),
    }),
  },
  { description: 'Rupees as two-decimal strings, as Velocity writes them.' },
);

export const ExchangePayload = Type.Object({
  pickup_location_added: Flag('1: the forward warehouse was found.'),
  order_created: Flag('1: the replacement order exists.'),
  return_created: Flag('1: the pickup (a return) exists.'),
  awb_generated: Type.Literal(2, { description: 'Both AWBs.' }),
  label_generated: Type.Literal(2, { description: 'Both labels.' }),
  pickup_generated: Type.Literal(2, { description: 'Both pickups are requested.' }),
  manifest_generated: Type.Literal(0),
  order_id: Uuid,
  return_id: Uuid,
  exchange_order_id: Uuid,
  shipment_id: Uuid,
  forward_shipment_id: Uuid,
  return_shipment_id: Uuid,
  forward_awb: Type.String(),
  forward_awb_code: Type.String(),
  reverse_awb: Type.String(),
  awb_code: Type.String({ description: "The pickup's (reverse) AWB, as Velocity answers it." }),
  label_url: Nullable(Type.String({ format: 'uri', description: "The replacement's label (forward_shipment_label)." })),
  forward_shipment_label: Nullable(Type.String({ format: 'uri' })),
  reverse_shipment_label: Nullable(Type.String({ format: 'uri' })),
  courier_name: Nullable(Type.String({ description: "The pickup's courier, as awb_code is the pickup's." })),
  forward_courier_name: Nullable(Type.String()),
  reverse_courier_name: Nullable(Type.String()),
  applied_weight: Type.Number({ description: "The pickup's, in kilograms." }),
  forward_applied_weight: Type.Number(),
  reverse_applied_weight: Type.Number(),
  cod: Flag('1 when the replacement is cash on delivery.'),
  is_exchange: Type.Literal(1),
  exchange_order_details: Type.Object({
    id: Uuid,
    unique_id: Type.String(),
    display_id: Type.String({ description: "The caller's order_id." }),
    status: Type.String({ enum: [...EXCHANGE_STATUSES], description: 'Read from both legs (docs/returns.md).' }),
    order_id: Type.String({ description: "The replacement's merchant order_id." }),
    return_id: Uuid,
    channel: Type.String(),
    return_reason: Type.String(),
    release_on: Type.String({ enum: [...RELEASE_TERMS], description: 'When the replacement may go.' }),
    replacement_held: Type.Boolean({ description: 'The replacement waits on the pickup or its QC pass.' }),
    qc_failed: Type.Boolean({ description: 'The old item failed its quality check: the merchant decides.' }),
    created_at: Type.String({ description: 'India time, as Velocity writes dates.' }),
  }),
  forward_shipment_details: Leg('The replacement, going to the buyer.'),
  return_shipment: Leg('The old item, coming back.'),
  charges: ExchangeCharges,
  test_mode: Type.Boolean({ description: 'true when either leg is a test booking (no courier will come).' }),
  warnings: Type.Optional(
    Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
      description: 'What was accepted but not as sent, naming the field.',
    }),
  ),
});
export type ExchangePayloadView = Static<typeof ExchangePayload>;

export const ExchangeResponse = Type.Object({ status: Type.Literal(1), payload: ExchangePayload });

export const ExchangeTerms = Type.Object(
  {
    release_on: Type.String({
      enum: [...RELEASE_TERMS],
      'x-error': `must be one of ${RELEASE_TERMS.join(', ')}`,
      description:
        "When an exchange's replacement may be handed to its courier: at_once (Velocity's way, the default), return_picked_up, or qc_passed (the courier's QC at pickup passed; a return without QC counts its pickup).",
    }),
    qc_charge: Nullable(
      Money("Rupees charged for each exchange's quality check, over the courier's; null for the courier's."),
    ),
    exchange_charge: Money('Rupees charged for each exchange. Default 0.'),
  },
  { additionalProperties: false },
);
export type ExchangeTermsInput = Static<typeof ExchangeTerms>;
