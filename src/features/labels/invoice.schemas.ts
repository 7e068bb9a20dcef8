import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';

// GET /shipments/:id/invoice: the buyer's tax invoice as JSON (the PDF prints the same fields).

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
const Kind = Type.Union([Type.Literal('cgst'), Type.Literal('sgst'), Type.Literal('utgst'), Type.Literal('igst')], {
  description:
    'cgst with sgst (or utgst, in a Union Territory without a legislature) within a State; igst across States.',
});

const PartyFields = {
  name: Type.String(),
  address: Type.Array(Type.String(), { description: 'The address, line by line.' }),
  state: Type.String({ description: 'The State or Union Territory, as the pincode directory names it.' }),
  state_code: Nullable(Type.String({ description: 'Its GST state code (07 Delhi, 29 Karnataka, …).' })),
};
const Party = Type.Object({
  ...PartyFields,
  gstin: Nullable(
    Type.String({
      description: "The seller's GSTIN; the buyer's (the order's billing_gstin), or null for a buyer without one.",
    }),
  ),
});
const ShipTo = Type.Object(PartyFields);

export const InvoiceQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('pdf')], {
        description: 'json (the default): the invoice as JSON; pdf: the A4 PDF.',
        examples: ['pdf'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const InvoiceParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "The shipment_id, or its AWB (awb_code), or a multi-piece shipment's box AWB.",
    examples: [EXAMPLE.bookedShipmentId, EXAMPLE.awb],
  }),
});

const Money = (description: string) => Type.Number({ description: `${description} In rupees, to the paisa.` });

export const InvoiceAnswer = Type.Object({
  shipment_id: Type.String({ format: 'uuid' }),
  awb_code: Nullable(Type.String()),
  order_id: Type.String({ description: "The merchant's order id." }),
  invoice_number: Type.String({
    description: "`<prefix>/<YY-YY>/<sequence>`: the store's series for the financial year, issued at booking.",
  }),
  invoice_date: Type.String({ format: 'date', description: 'The booking day, India time.' }),
  seller: Party,
  buyer: Party,
  ship_to: Type.Union([ShipTo, Type.Null()], {
    description: "Where the parcel is delivered, when not the buyer's billing address (shipping_is_billing false).",
  }),
  place_of_supply: Type.Object(
    { state: Type.String(), state_code: Nullable(Type.String()) },
    { description: "Where the goods are delivered (IGST Act s.10(1)(a)): the delivery pincode's State." },
  ),
  supply: Type.Union([Type.Literal('intra_state'), Type.Literal('inter_state')]),
  items: Type.Array(
    Type.Object({
      name: Type.String(),
      sku: Type.String(),
      hsn: Nullable(Type.String()),
      units: Type.Integer(),
      unit_price: Money("One unit's price without tax (the order's selling_price is taken as tax included)."),
      discount: Money("The line's discount without tax: its units' and its share of the order's total_discount."),
      taxable_value: Money('units × unit_price − discount.'),
      tax_percent: Type.Number({ description: "The item's tax rate (0 when the order gave none)." }),
      taxes: Type.Array(
        Type.Object({ kind: Kind, rate_percent: Type.Number(), amount: Money('On the taxable value.') }),
      ),
      total: Money('Taxable value and taxes.'),
    }),
  ),
  totals: Type.Object({
    taxable_value: Money('The lines summed.'),
    taxes: Type.Array(Type.Object({ kind: Kind, amount: Money('The lines summed.') })),
    rounding: Money('The total rounded to the rupee (CGST Act s.170) less the exact sum: −0.49 to +0.50.'),
    total: Money('What the buyer owes: whole rupees.'),
    amount_in_words: Type.String({ description: 'The total in words, Indian numbering (lakh, crore).' }),
  }),
});

export const INVOICE_EXAMPLE = {
  shipment_id: EXAMPLE.bookedShipmentId,
  awb_code: EXAMPLE.awb,
  order_id: 'ORD-20046',
  invoice_number: 'ACME/26-27/00042',
  invoice_date: '2026-11-20',
  seller: {
    name: 'Acme Apparel Private Limited',
    address: ['Plot 14, Okhla Phase III, New Delhi 110020'],
    state: 'Delhi',
    state_code: '07',
    gstin: '07AAGCB7383J1ZA',
  },
  buyer: {
    name: 'Priya Sharma',
    address: ['42, 5th Cross, Koramangala 4th Block', 'Bengaluru, Karnataka 560034'],
    state: 'Karnataka',
    state_code: '29',
    gstin: null,
  },
  ship_to: null,
  place_of_supply: { state: 'Karnataka', state_code: '29' },
  supply: 'inter_state',
  items: [
    {
      name: 'Cotton Kurta',
      sku: 'KURTA-M-BLUE',
      hsn: '6211',
      units: 1,
      unit_price: 1100.85,
      discount: 0,
      taxable_value: 1100.85,
      tax_percent: 18,
      taxes: [{ kind: 'igst', rate_percent: 18, amount: 198.15 }],
      total: 1299,
    },
  ],
  totals: {
    taxable_value: 1100.85,
    taxes: [{ kind: 'igst', amount: 198.15 }],
    rounding: 0,
    total: 1299,
    amount_in_words: 'Rupees One Thousand Two Hundred Ninety-Nine Only',
  },
};

/** The most invoices one print run makes: a day's pickup of a busy warehouse. */
export const MAX_BULK_INVOICES = 500;

export const BulkInvoicesBody = Type.Object(
  {
    awbs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: MAX_BULK_INVOICES,
      description: `The AWBs whose invoices to print, 1 to ${MAX_BULK_INVOICES}: a pickup's (GET /pickups/{id}) in its order; an AWB repeated prints once.`,
      'x-error': `must list 1 to ${MAX_BULK_INVOICES} AWBs`,
    }),
  },
  { additionalProperties: false, examples: [{ awbs: [EXAMPLE.awb] }] },
);
