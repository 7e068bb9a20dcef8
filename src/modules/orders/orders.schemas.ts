import { type Static, Type } from 'typebox';
import { Uuid } from '../accounts/accounts.schemas.js';
import { Email, Phone, Pincode } from '../warehouses/warehouses.schemas.js';

const Text = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', 'x-error': `must be 1 to ${max} characters, not blank`, description });
const Money = (description: string) =>
  Type.Number({ minimum: 0, maximum: 100_000_000, 'x-error': 'must be a number from 0 to 100000000 (rupees)', description });
const Positive = (max: number, unit: string, description: string) =>
  Type.Number({ exclusiveMinimum: 0, maximum: max, 'x-error': `must be greater than 0 and at most ${max} ${unit}`, description });

export const MAX_ORDER_ITEMS = 100;

const OrderItem = Type.Object(
  {
    name: Text(300, 'Product name, printed on the label.'),
    sku: Text(100, 'Stock keeping unit; the listing filters on it.'),
    units: Type.Integer({ minimum: 1, maximum: 100_000, 'x-error': 'must be a whole number from 1 to 100000' }),
    selling_price: Money('Price of one unit, in rupees.'),
    discount: Type.Optional(Money('Discount on one unit, in rupees. Default 0.')),
    tax: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Tax rate in percent.' })),
    hsn: Type.Optional(Type.String({ maxLength: 20, description: 'HSN code.' })),
  },
  { additionalProperties: false },
);

const shippingNote = 'Used when shipping_is_billing is false (then required).';

const BillingAddress = {
  billing_customer_name: Text(200, 'First name, or the full name.'),
  billing_last_name: Type.Optional(Type.String({ maxLength: 200 })),
  billing_address: Text(500, 'Street address.'),
  billing_address_2: Type.Optional(Type.String({ maxLength: 500 })),
  billing_city: Text(100, 'City.'),
  billing_pincode: Pincode,
  billing_state: Text(100, 'State.'),
  billing_country: Text(100, 'Country.'),
  billing_email: Type.Optional(Email),
  billing_phone: Phone,
};

const ShippingAddress = {
  shipping_customer_name: Type.Optional(Text(200, shippingNote)),
  shipping_last_name: Type.Optional(Type.String({ maxLength: 200 })),
  shipping_address: Type.Optional(Text(500, shippingNote)),
  shipping_address_2: Type.Optional(Type.String({ maxLength: 500 })),
  shipping_city: Type.Optional(Text(100, shippingNote)),
  shipping_pincode: Type.Optional(Pincode),
  shipping_state: Type.Optional(Text(100, shippingNote)),
  shipping_country: Type.Optional(Text(100, shippingNote)),
  shipping_email: Type.Optional(Email),
  shipping_phone: Type.Optional(Phone),
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
      description: 'YYYY-MM-DD HH:MM or YYYY-MM-DD (India time), or an ISO 8601 timestamp.',
      examples: ['2026-11-20 14:30'],
    }),
    store_name: Type.Optional(
      Type.String({ maxLength: 64, description: 'Links the order to this active store (case-insensitive). Omit for none.' }),
    ),
    channel_id: Type.Optional(Type.String({ maxLength: 100, description: "The merchant's own channel reference." })),
    ...BillingAddress,
    shipping_is_billing: Type.Optional(Type.Boolean({ description: 'Ship to the billing address. Default true.' })),
    ...ShippingAddress,
    print_label: Type.Optional(Type.Boolean()),
    order_items: Type.Array(OrderItem, {
      minItems: 1,
      maxItems: MAX_ORDER_ITEMS,
      'x-error': `must list 1 to ${MAX_ORDER_ITEMS} items`,
    }),
    payment_method: Type.String({
      pattern: '^(?:[Cc][Oo][Dd]|[Pp][Rr][Ee][Pp][Aa][Ii][Dd])$',
      'x-error': 'must be COD or PREPAID',
      description: 'COD or PREPAID, in any case.',
    }),
    sub_total: Money('Order value in rupees.'),
    cod_collectible: Type.Optional(
      Money('Amount to collect on delivery, in rupees: greater than 0 and at most sub_total for COD, 0 for prepaid.'),
    ),
    length: Positive(500, 'cm', 'Centimetres.'),
    breadth: Positive(500, 'cm', 'Centimetres.'),
    height: Positive(500, 'cm', 'Centimetres.'),
    weight: Positive(500, 'kg', 'Dead weight in kilograms.'),
    warehouse_id: Type.String({ maxLength: 64, description: 'The pickup warehouse (POST /warehouse).' }),
    carrier_id: Type.Optional(
      Type.String({ maxLength: 32, description: 'Orchestration only: book this courier service instead of the cheapest.' }),
    ),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, description: 'Order tags; the listing filters on them.' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateOrderInput = Static<typeof CreateOrderBody>;

export const AssignCourierBody = Type.Object(
  {
    shipment_id: Uuid,
    carrier_id: Type.Optional(Type.String({ maxLength: 32, description: 'Omit to book the cheapest serviceable service.' })),
  },
  { additionalProperties: false },
);

const Charges = Type.Object({
  forward_freight_charges: Type.Number(),
  cod_charges: Type.Number(),
  rto_charges: Type.Number(),
  total_forward_charges: Type.Number({ description: 'Freight + COD, in rupees.' }),
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const OrderPayload = Type.Object({
  order_id: Uuid,
  channel_order_id: Type.String({ description: "The merchant's order_id." }),
  shipment_id: Uuid,
  status: Type.String({ description: 'Shipment status: pending until picked up.' }),
  store_name: Nullable(Type.String()),
  zone: Type.String({ description: 'zone_a … zone_e' }),
  applied_weight: Type.Number({ description: 'Kilograms: the larger of dead and volumetric weight.' }),
  cod: Type.Union([Type.Literal(0), Type.Literal(1)]),
  awb_code: Nullable(Type.String()),
  courier_company_id: Nullable(Type.String()),
  courier_name: Nullable(Type.String()),
  label_url: Nullable(Type.String({ format: 'uri', description: 'Signed link to the 4x6 inch PDF label; expires.' })),
  charges: Nullable(Charges),
  awb_generated: Type.Union([Type.Literal(0), Type.Literal(1)]),
  label_generated: Type.Union([Type.Literal(0), Type.Literal(1)]),
});
export type OrderPayloadView = Static<typeof OrderPayload>;

export const OrderResponse = Type.Object({ status: Type.Literal(1), payload: OrderPayload });

export const CancelBody = Type.Object(
  {
    awbs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: 50,
      'x-error': 'must list 1 to 50 AWBs',
    }),
  },
  { additionalProperties: false },
);

export const CancelResponse = Type.Object({
  results: Type.Array(Type.Object({ awb: Type.String(), cancelled: Type.Boolean(), message: Type.String() })),
});

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      'x-error': 'must be 1 to 255 characters',
      description: 'Replays the first response for 24 hours when the same key is sent again with the same body.',
    }),
  ),
});
