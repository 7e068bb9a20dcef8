import { type Static, Type } from 'typebox';
import { Uuid, PaymentMethod, Phone, Pincode } from '../../http/schemas.js';
import { VendorDetails } from './vendor-details.schemas.js';
import { IsdCode, Money, Name, NamePart, OptionalEmail, Positive, Text } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';
import { BillingAddress, EwayBillFields, OrderItem } from '../../http/order-parts.js';
import { ORDER_DATE_PATTERN } from '../../domain/date-patterns.js';
import { LANGUAGES } from '../../domain/buyer-copy/page-words.js';
import { GSTIN_FORM } from '../../domain/paperwork/gstin.js';
import { PackagesField } from './order-packages.schemas.js';

export const MAX_ORDER_ITEMS = 100;

const shippingNote = 'Used when shipping_is_billing is false (then required).';

const ShippingAddress = {
  shipping_customer_name: Type.Optional(Name(200, shippingNote)),
  shipping_last_name: Type.Optional(NamePart(200)),
  shipping_address: Type.Optional(Text(500, shippingNote)),
  shipping_address_2: Type.Optional(Type.String({ maxLength: 500 })),
  shipping_city: Type.Optional(Text(100, shippingNote)),
  shipping_pincode: Type.Optional(Pincode),
  shipping_state: Type.Optional(Text(100, shippingNote)),
  shipping_country: Type.Optional(Text(100, shippingNote)),
  shipping_email: OptionalEmail,
  shipping_phone: Type.Optional(Phone),
  shipping_isd_code: IsdCode('shipping_phone'),
};

export const CreateOrderBody = Type.Object(
  {
    order_id: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[\\x21-\\x7E]+$',
      'x-error': 'must be 1 to 100 printable characters without spaces',
      description: "The merchant's order id; unique per account.",
    }),
    order_date: Type.String({
      maxLength: 40,
      ...statedRule({ pattern: ORDER_DATE_PATTERN }),
      description: 'YYYY-MM-DD HH:MM or YYYY-MM-DD (India time), or an ISO 8601 timestamp.',
      examples: ['2026-11-20 14:30'],
    }),
    store_name: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'Links the order to this active store (case-insensitive). Omit for none.',
      }),
    ),
    channel_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description: "The merchant's own channel reference; shown in the listing as order.channel_id.",
      }),
    ),
    company_name: Type.Optional(NamePart(200, "The customer's company; printed on the label.")),
    billing_gstin: Type.Optional(
      Type.String({
        pattern: `^(?:${GSTIN_FORM.slice(1, -1)})?$`,
        'x-error': 'must be a 15-character GSTIN such as 29AAGCB7383J1Z4, or ""',
        description:
          "Dakiya's addition: the buyer's GSTIN, for a business buyer (B2B): printed on the order's tax invoice " +
          '(GET /shipments/{id}/invoice). Its state code and check character are checked (400 naming billing_gstin). "" means none.',
        examples: ['29AAGCB7383J1Z4'],
      }),
    ),
    language: Type.Optional(
      Type.String({
        enum: [...LANGUAGES],
        'x-error': `must be one of ${LANGUAGES.join(', ')}`,
        description:
          "The language this buyer reads the tracking page in (en, hi, mr, bn, gu, ta, te, kn or ml), over the store's `language`, " +
          "the buyer's browser and the shipping state's; the buyer's own choice on the page still wins. Omit for none.",
        examples: ['mr'],
      }),
    ),
    ...BillingAddress,
    shipping_is_billing: Type.Optional(Type.Boolean({ description: 'Ship to the billing address. Default true.' })),
    ...ShippingAddress,
    print_label: Type.Optional(Type.Boolean()),
    order_items: Type.Array(OrderItem, {
      minItems: 1,
      maxItems: MAX_ORDER_ITEMS,
      'x-error': `must list 1 to ${MAX_ORDER_ITEMS} items`,
    }),
    payment_method: PaymentMethod('COD or PREPAID, in any case.', 'must be COD or PREPAID'),
    sub_total: Money('Order value in rupees.'),
    total_discount: Type.Optional(Money('Discount on the whole order, in rupees; at most sub_total. Default 0.')),
    cod_collectible: Type.Optional(
      Money('Amount to collect on delivery, in rupees: greater than 0 and at most sub_total for COD, 0 for prepaid.'),
    ),
    length: Positive(500, 'cm', 'Centimetres.'),
    breadth: Positive(500, 'cm', 'Centimetres.'),
    height: Positive(500, 'cm', 'Centimetres.'),
    weight: Positive(500, 'kg', 'Dead weight in kilograms (with packages: their total).'),
    packages: Type.Optional(PackagesField),
    warehouse_id: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'The pickup warehouse (POST /warehouse). Required unless pickup_location is given.',
      }),
    ),
    pickup_location: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          "Velocity's pickup location: a warehouse's name, matched ignoring case and surrounding spaces. Used when " +
          'warehouse_id is absent. When both are given, warehouse_id wins; a pickup_location naming another warehouse ' +
          "(or none) is reported in the answer's warnings, not refused.",
        examples: ['Delhi Hub'],
      }),
    ),
    carrier_id: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          'Orchestration only: book this courier service instead of the allocation rules\' choice. "" means assign automatically, as Velocity has it.',
      }),
    ),
    vendor_details: Type.Optional(VendorDetails),
    ...EwayBillFields,
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
        maxItems: 20,
        description: 'Order tags; the listing filters on them.',
      }),
    ),
  },
  {
    additionalProperties: false,
    // warehouse_id is required unless pickup_location names the warehouse: in the schema, so that a
    // body missing everything hears of this field with the others.
    if: { not: { required: ['pickup_location'] } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
    then: { required: ['warehouse_id'], 'x-required-error': 'is required, or pickup_location (a warehouse name)' },
    // What order-input.ts checks of the money together, stated for clients: a COD order collects at
    // least a paisa, a prepaid one nothing (at most sub_total is beyond a schema).
    ...statedRule({
      allOf: [
        {
          if: { properties: { payment_method: { pattern: '^[Cc][Oo][Dd]$' } } },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
          then: { required: ['cod_collectible'], properties: { cod_collectible: { minimum: 0.005 } } },
        },
        {
          if: { properties: { payment_method: { pattern: '^[Pp][Rr][Ee][Pp][Aa][Ii][Dd]$' } } },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
          then: { properties: { cod_collectible: { maximum: 0 } } },
        },
      ],
    }),
  },
);
export type CreateOrderInput = Static<typeof CreateOrderBody>;

/**
 * PUT /order: forward-order's fields, each as forward-order checks it, all optional but order_id.
 * A body with every field forward-order requires replaces the order; fewer are merged into it.
 */
export const UpdateOrderBody = Type.Object(
  Object.fromEntries(
    Object.entries(CreateOrderBody.properties).map(([name, schema]) => [
      name,
      name === 'order_id' ? schema : Type.Optional(schema),
    ]),
  ) as typeof CreateOrderBody.properties,
  { additionalProperties: false },
);
export type UpdateOrderInput = Partial<CreateOrderInput> & { order_id: string };

export const AssignCourierBody = Type.Object(
  {
    shipment_id: Uuid,
    carrier_id: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          'Omit, or send "", to book the allocation rules\' choice (the cheapest serviceable service without rules).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CancelBody = Type.Object(
  {
    awbs: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: 50,
        'x-error': 'must list 1 to 50 AWBs',
        description: 'Forward and return AWBs to cancel. Or send shipment_id instead.',
      }),
    ),
    shipment_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'One shipment to cancel, by its shipment_id (a forward shipment, also a draft of forward-order without an AWB, or a ' +
          "return's shipment_id). Instead of awbs.",
      }),
    ),
    shipment_awb: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
        description:
          'With shipment_id: its AWB, checked against it (else 422). "", null or absent for a shipment without an AWB, or to skip the check.',
      }),
    ),
  },
  {
    additionalProperties: false,
    // Either form, never both (orders.routes.ts checks it).
    ...statedRule({ not: { required: ['awbs', 'shipment_id'] } }),
    // awbs is required unless shipment_id names the shipment: in the schema, so that an empty body hears of it.
    if: { not: { required: ['shipment_id'] } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
    then: { required: ['awbs'], 'x-required-error': 'is required, or shipment_id (with shipment_awb)' },
  },
);
export type CancelInput = Static<typeof CancelBody>;
