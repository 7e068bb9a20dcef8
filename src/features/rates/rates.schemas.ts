import { type Static, Type } from 'typebox';
import { PaymentMethod, Pincode } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';
import { MAX_BOXES } from '../../domain/rates/engine-boxes.js';

/** Sane maxima: far above any parcel a courier takes, low enough to catch unit mistakes. */
export const MAX_DEAD_WEIGHT_GRAMS = 500_000;
export const MAX_DIMENSION_CM = 500;
export const MAX_SHIPMENT_VALUE_RUPEES = 10_000_000;

// Enums, not unions of literals: a failing union reports only its branches and an `anyOf` summary,
// and the error formatter drops all of them, answering 400 with an empty `errors` list.
const oneOf = <const T extends string[]>(values: [...T], description?: string) =>
  Type.Enum(values, {
    'x-error': `must be ${values.map((v) => `"${v}"`).join(' or ')}`,
    ...(description && { description }),
  });

const positive = (max: number, unit: string, description: string) =>
  Type.Number({
    exclusiveMinimum: 0,
    maximum: max,
    'x-error': `must be a number greater than 0 and at most ${max} (${unit})`,
    description,
  });

const grams = (description: string) =>
  Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_DEAD_WEIGHT_GRAMS,
    'x-error': `must be a number greater than 0 and at most ${MAX_DEAD_WEIGHT_GRAMS} (grams)`,
    description,
    ...statedRule({ exclusiveMinimum: undefined, minimum: 0.005 }),
  });

/** One box of a multi-piece shipment, in the units and loose typing of the body's own parcel. */
const RatesPackage = Type.Object(
  {
    weight: grams("Grams: the box's dead weight."),
    length: positive(MAX_DIMENSION_CM, 'cm', 'Centimetres.'),
    breadth: positive(MAX_DIMENSION_CM, 'cm', 'Centimetres.'),
    height: positive(MAX_DIMENSION_CM, 'cm', 'Centimetres.'),
  },
  { additionalProperties: false },
);

export const RatesBody = Type.Object(
  {
    journey_type: oneOf(['forward', 'return'], 'forward (warehouse to customer) or return (customer to warehouse).'),
    origin_pincode: Pincode,
    destination_pincode: Pincode,
    // Weights are billed to 0.01 g: the service refuses what rounds to 0.
    dead_weight: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_DEAD_WEIGHT_GRAMS,
      'x-error': `must be a number greater than 0 and at most ${MAX_DEAD_WEIGHT_GRAMS} (grams)`,
      description: 'Grams.',
      ...statedRule({ exclusiveMinimum: undefined, minimum: 0.005 }),
    }),
    length: positive(MAX_DIMENSION_CM, 'cm', 'Centimetres.'),
    width: positive(MAX_DIMENSION_CM, 'cm', 'Centimetres.'),
    height: positive(MAX_DIMENSION_CM, 'cm', 'Centimetres.'),
    payment_method: Type.Optional(
      PaymentMethod('cod or prepaid, in any case (COD, Prepaid…). Required for forward journeys. Ignored for returns.'),
    ),
    shipment_value: Type.Optional(
      positive(MAX_SHIPMENT_VALUE_RUPEES, 'rupees', 'Rupees. Required when payment_method is cod.'),
    ),
    qc_applicable: Type.Optional(
      Type.Boolean({
        description: 'Returns only: price a quality check at pickup. Default true. Ignored for forward.',
      }),
    ),
    packages: Type.Optional(
      Type.Array(RatesPackage, {
        minItems: 2,
        maxItems: MAX_BOXES,
        'x-error': `must be a list of 2 to ${MAX_BOXES} boxes, each {weight, length, breadth, height}`,
        description:
          `Dakiya's addition: the boxes of a multi-piece shipment (2 to ${MAX_BOXES}, as on the order routes), box 1 first. Each box is charged ` +
          "(its chargeable weight max(dead, L x B x H / 5) on the courier's slabs, summed; or the courier's own " +
          'multi-piece rule), COD once; dead_weight, length, width and height are then not priced. The answer adds ' +
          '`box_count` and, per courier, `multi_piece_charge` and `boxes`.',
      }),
    ),
  },
  {
    additionalProperties: false,
    // What the service checks of the fields together (forwardValuePaise), stated for clients.
    ...statedRule({
      allOf: [
        {
          if: { properties: { journey_type: { const: 'forward' } }, required: ['journey_type'] },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
          then: { required: ['payment_method'] },
        },
        {
          if: {
            properties: { journey_type: { const: 'forward' }, payment_method: { pattern: '^[Cc][Oo][Dd]$' } },
            required: ['journey_type', 'payment_method'],
          },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
          then: { required: ['shipment_value'], properties: { shipment_value: { minimum: 0.005 } } },
        },
      ],
    }),
    examples: [
      {
        journey_type: 'forward',
        origin_pincode: '110020',
        destination_pincode: '560034',
        dead_weight: 500,
        length: 20,
        width: 15,
        height: 10,
        payment_method: 'cod',
        shipment_value: 1299,
      },
      {
        journey_type: 'return',
        origin_pincode: '560034',
        destination_pincode: '110020',
        dead_weight: 500,
        length: 20,
        width: 15,
        height: 10,
        qc_applicable: true,
      },
    ],
  },
);
export type RatesInput = Static<typeof RatesBody>;

export const ServiceabilityBody = Type.Object(
  {
    from: Pincode,
    to: Pincode,
    payment_mode: PaymentMethod('cod or prepaid, in any case (COD, Prepaid…).'),
    shipment_type: oneOf(['forward', 'return']),
  },
  {
    additionalProperties: false,
    examples: [{ from: '110020', to: '560034', payment_mode: 'cod', shipment_type: 'forward' }],
  },
);
export type ServiceabilityInput = Static<typeof ServiceabilityBody>;

export const PincodeParams = Type.Object({
  pincode: Type.String({ pattern: '^[1-9][0-9]{5}$', 'x-error': 'must be a 6-digit pincode', examples: ['110020'] }),
});

export const PincodeAnswer = Type.Object(
  {
    pincode: Type.String(),
    city: Type.String({
      description:
        'The city an address names: the district for most pincodes; the metro for its districts (Bengaluru for Bengaluru Urban, Delhi for South East).',
    }),
    district: Type.String(),
    state: Type.String(),
  },
  { additionalProperties: false },
);
