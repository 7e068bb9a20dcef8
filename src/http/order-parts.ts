import { Type } from 'typebox';
import { CALENDAR_DAY_PATTERN } from '../domain/date-patterns.js';
import { EWAY_BILL_NUMBER_PATTERN } from '../domain/paperwork/eway-bill.js';
import { IsdCode, Money, Name, NamePart, OptionalEmail, Phone, Pincode, Text } from './schemas.js';
import { statedRule } from './stated-rules.js';

// Velocity's body parts that several of its routes share: an order's items and its buyer's address
// (forward orders and exchanges), a return's items and its customer's address (returns and
// exchanges). Each route's own schema composes them.

export const OrderItem = Type.Object(
  {
    name: Text(300, 'Product name, printed on the label.'),
    sku: Text(100, 'Stock keeping unit; the listing filters on it.'),
    units: Type.Integer({ minimum: 1, maximum: 100_000, 'x-error': 'must be a whole number from 1 to 100000' }),
    selling_price: Money('Price of one unit, in rupees.'),
    discount: Type.Optional(Money('Discount on one unit, in rupees. Default 0.')),
    tax: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Tax rate in percent.' })),
    hsn: Type.Optional(Type.String({ maxLength: 20, description: 'HSN code.' })),
    category: Type.Optional(
      Text(
        100,
        "Dakiya's addition: the item's category as the store names it (Apparel, Innerwear, …): a store's return policy may refuse categories it does not take back (non_returnable_categories).",
      ),
    ),
  },
  { additionalProperties: false },
);

/** The consignment's e-way bill (rule 138; docs/paperwork.md): Dakiya's addition to the bodies that book a forward parcel. */
export const EwayBillFields = {
  ewaybill_no: Type.Optional(
    Type.Union(
      [
        Type.String({ maxLength: 20, ...statedRule({ pattern: EWAY_BILL_NUMBER_PATTERN }) }),
        Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, ...statedRule({ minimum: 100_000_000_000 }) }),
      ],
      {
        description:
          "Dakiya's addition: the e-way bill number (EBN, 12 digits; a JSON number is accepted) of an order whose value " +
          "needs one (rule 138 of the CGST Rules: over ₹50,000, or the State's own limit within it; docs/paperwork.md). " +
          'Sent to the courier (Delhivery and Ekart `ewbn`, Shadowfax `eway_bill`) and printed on the label. Without it, booking such an order is ' +
          'refused (422 eway_bill_required) unless the account set `eway_bill_check` to `warn`.',
        examples: ['331009876543'],
      },
    ),
  ),
  ewaybill_date: Type.Optional(
    Type.String({
      maxLength: 10,
      ...statedRule({ pattern: CALENDAR_DAY_PATTERN }),
      description:
        "Dakiya's addition: the day the e-way bill was generated (YYYY-MM-DD, India time), with ewaybill_no: a bill " +
        'that would expire before the courier expects to deliver (one day per 200 km, rule 138(10)) is reported in warnings.',
      examples: ['2026-11-20'],
    }),
  ),
};

export const BillingAddress = {
  billing_customer_name: Name(200, 'First name, or the full name.'),
  billing_last_name: Type.Optional(NamePart(200)),
  billing_address: Text(500, 'Street address.'),
  billing_address_2: Type.Optional(Type.String({ maxLength: 500 })),
  billing_city: Text(100, 'City.'),
  billing_pincode: Pincode,
  billing_state: Text(100, 'State.'),
  billing_country: Text(100, 'Country.'),
  billing_email: OptionalEmail,
  billing_phone: Phone,
  billing_isd_code: IsdCode('billing_phone'),
};

const QcText = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }));

export const ReturnItem = Type.Object(
  {
    name: Text(300, 'Product name.'),
    sku: Text(100, 'Stock keeping unit.'),
    units: Type.Integer({ minimum: 1, maximum: 100_000, 'x-error': 'must be a whole number from 1 to 100000' }),
    selling_price: Money('Price of one unit, in rupees.'),
    discount: Type.Optional(Money('Discount on one unit, in rupees. Default 0.')),
    qc_enable: Type.Optional(Type.Boolean({ description: 'The courier checks this item at pickup (quality check).' })),
    qc_product_name: QcText('QC: the product name the courier checks against.'),
    qc_product_image: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'QC: an http(s) URL of the product image. Required when qc_enable is true.',
        examples: ['https://cdn.acme.example/kurta-blue.jpg'],
      }),
    ),
    qc_brand: QcText('QC: brand.'),
    qc_size: QcText('QC: size.'),
    qc_color: QcText('QC: colour.'),
  },
  { additionalProperties: false },
);

export const customerAddress = (prefix: 'pickup' | 'shipping', whose: string, required: boolean) => {
  const need = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
    required ? schema : Type.Optional(schema);
  const note = required
    ? ''
    : ' Required unless warehouse_id is given (then taken from the warehouse); when sent, the return goes here.';
  return {
    [`${prefix}_customer_name`]: need(Name(200, `${whose}: first name, or the full name.${note}`)),
    [`${prefix}_last_name`]: Type.Optional(NamePart(200)),
    [`${prefix}_address`]: need(Text(500, `${whose}: street address.${note}`)),
    [`${prefix}_address_2`]: Type.Optional(Type.String({ maxLength: 500 })),
    [`${prefix}_city`]: need(Text(100, `${whose}: city.${note}`)),
    [`${prefix}_state`]: need(Text(100, `${whose}: state.${note}`)),
    [`${prefix}_country`]: need(Text(100, `${whose}: country.${note}`)),
    [`${prefix}_pincode`]: need(Pincode),
    [`${prefix}_email`]: OptionalEmail,
    [`${prefix}_phone`]: need(Phone),
    [`${prefix}_isd_code`]: IsdCode(`${prefix}_phone`),
  };
};
