import { Type } from 'typebox';
import { Positive, Text } from '../../http/schemas.js';

// Dakiya's addition to an order's body: the boxes of a multi-piece shipment (MPS; docs/paperwork.md,
// "Multi-piece shipments"), in the units and with the loose typing of the order's own weight and size.

export const MAX_PACKAGES = 20;

const PackageItem = Type.Object(
  {
    sku: Text(100, "An SKU of the order's order_items."),
    units: Type.Integer({ minimum: 1, maximum: 100_000, 'x-error': 'must be a whole number from 1 to 100000' }),
  },
  { additionalProperties: false },
);

export const OrderPackage = Type.Object(
  {
    weight: Positive(500, 'kg', "The box's dead weight in kilograms."),
    length: Positive(500, 'cm', 'Centimetres.'),
    breadth: Positive(500, 'cm', 'Centimetres.'),
    height: Positive(500, 'cm', 'Centimetres.'),
    items: Type.Optional(
      Type.Array(PackageItem, {
        maxItems: 100,
        description:
          'What the box holds, by SKU. Either every box lists its items, and together they place every unit of order_items ' +
          'exactly, or no box does.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PackagesField = Type.Array(OrderPackage, {
  maxItems: MAX_PACKAGES,
  'x-error': `must list 2 to ${MAX_PACKAGES} boxes, or none`,
  description:
    "Dakiya's addition: the boxes of a multi-piece shipment (MPS), 2 to 20, box 1 first, each with its own weight and size " +
    '(and, optionally, the items it holds). Each box is priced and labelled on its own, and gets its own AWB (box 1 carries ' +
    "the shipment's, the master AWB). weight, length, breadth and height stay required: weight must be the boxes' total (to " +
    "the gram), and is what the order weighs; length, breadth and height are the consignment's. An order in one box sends no " +
    'packages; [] says so too (PUT /order: back to one box). docs/paperwork.md, "Multi-piece shipments".',
  examples: [
    [
      { weight: 1.2, length: 30, breadth: 20, height: 15, items: [{ sku: 'KURTA-M-BLUE', units: 2 }] },
      { weight: 0.8, length: 25, breadth: 20, height: 10, items: [{ sku: 'SCARF-RED', units: 1 }] },
    ],
  ],
});
