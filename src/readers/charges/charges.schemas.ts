import { type Static, Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { ListingQueryFields } from '../../http/csv.js';
import { Nullable } from '../../http/schemas.js';

export const MAX_AWBS = 100;

export const ShippingChargesBody = Type.Object(
  {
    awbs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: MAX_AWBS,
      'x-error': `must list 1 to ${MAX_AWBS} AWBs`,
    }),
  },
  { additionalProperties: false, examples: [{ awbs: [EXAMPLE.awb, 'SFX0000009999'] }] },
);

const Rupees = (description: string) => Type.Number({ description: `${description} Rupees, exact to the paisa.` });
const LineState = Type.Union([Type.Literal('charged'), Type.Literal('pending'), Type.Literal('waived')], {
  description:
    'charged: counts in total_charges; pending: a weight adjustment awaiting the merchant or the operator; waived: a dispute won.',
});

const Line = Type.Object({
  type: Type.Union([
    Type.Literal('forward_freight'),
    Type.Literal('cod_fee'),
    Type.Literal('rto_freight'),
    Type.Literal('weight_adjustment'),
  ]),
  amount: Rupees('The line.'),
  state: LineState,
  reason: Type.String(),
  at: Type.String({
    format: 'date-time',
    description: 'When the charge arose: booking, the RTO, or the weight report (its settlement once settled).',
  }),
});

const Found = Type.Object({
  awb: Type.String(),
  found: Type.Literal(1),
  shipment_id: Type.String({ format: 'uuid' }),
  order_id: Type.String({ description: "The merchant's order id." }),
  carrier_id: Nullable(Type.String()),
  status: Type.String(),
  lines: Type.Array(Line, { description: 'Oldest first; none before a courier is booked.' }),
  total_charges: Rupees('The charged lines.'),
  pending_charges: Rupees('The pending lines.'),
});
const NotFound = Type.Object({
  awb: Type.String(),
  found: Type.Literal(0),
  error: Type.String({ description: 'AWB … not found: unknown, or another account’s.' }),
});

export const ShippingChargesResponse = Type.Object({
  status: Type.Literal(1),
  payload: Type.Record(Type.String(), Type.Union([Found, NotFound]), {
    description: 'One entry per AWB asked for, keyed by it.',
  }),
});

export const EXAMPLE_SHIPPING_CHARGES = {
  status: 1,
  payload: {
    [EXAMPLE.awb]: {
      awb: EXAMPLE.awb,
      found: 1,
      shipment_id: EXAMPLE.bookedShipmentId,
      order_id: 'ORD-20046',
      carrier_id: EXAMPLE.carrierId,
      status: 'rto_initiated',
      lines: [
        {
          type: 'forward_freight',
          amount: 62,
          state: 'charged',
          reason: 'Forward freight quoted at booking',
          at: '2026-11-20T06:30:00.000Z',
        },
        {
          type: 'cod_fee',
          amount: 35,
          state: 'charged',
          reason: 'Cash-on-delivery fee quoted at booking',
          at: '2026-11-20T06:30:00.000Z',
        },
        {
          type: 'weight_adjustment',
          amount: 48,
          state: 'pending',
          reason: 'Courier charged 1200 g against 500 g applied (weight discrepancy open)',
          at: '2026-11-21T06:30:00.000Z',
        },
        {
          type: 'rto_freight',
          amount: 58,
          state: 'charged',
          reason: 'Return-to-origin freight quoted at booking',
          at: '2026-11-23T06:30:00.000Z',
        },
      ],
      total_charges: 155,
      pending_charges: 48,
    },
    SFX0000009999: { awb: 'SFX0000009999', found: 0, error: 'AWB SFX0000009999 not found' },
  },
};

export const ChargesListQuery = Type.Object(
  {
    ...ListingQueryFields,
    state: Type.Optional(
      Type.Union([Type.Literal('charged'), Type.Literal('pending'), Type.Literal('waived')], {
        'x-error': 'must be charged, pending or waived',
        description:
          'Only shipments with a line in this state: pending, a weight adjustment awaiting the merchant or the operator; waived, a ' +
          'dispute won; charged, any charged line (every booked shipment has its forward freight charged).',
        examples: ['pending'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChargesListQuery = Static<typeof ChargesListQuery>;

const ChargeSummary = Type.Object({
  awb: Type.String(),
  order_id: Type.String(),
  shipment_id: Type.String({ format: 'uuid' }),
  carrier_id: Type.String(),
  status: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  forward_freight: Rupees('Forward freight.'),
  cod_fee: Rupees('COD fee (0 for prepaid).'),
  rto_freight: Rupees('RTO freight (0 unless the shipment went back).'),
  weight_adjustment: Rupees('The weight discrepancy extra charge, 0 when none.'),
  weight_adjustment_state: Nullable(LineState),
  total_charges: Rupees('The charged lines.'),
  pending_charges: Rupees('The pending lines.'),
});

export const ChargesListEnvelope = Type.Object({
  data: Type.Array(ChargeSummary, { description: 'Booked shipments, newest first.' }),
  next_cursor: Nullable(Type.String({ description: 'Send as cursor for the next page; null on the last.' })),
});

export const EXAMPLE_CHARGES_LIST = {
  data: [
    {
      awb: EXAMPLE.awb,
      order_id: 'ORD-20046',
      shipment_id: EXAMPLE.bookedShipmentId,
      carrier_id: EXAMPLE.carrierId,
      status: 'rto_initiated',
      created_at: '2026-11-20T06:30:00.000Z',
      forward_freight: 62,
      cod_fee: 35,
      rto_freight: 58,
      weight_adjustment: 48,
      weight_adjustment_state: 'pending',
      total_charges: 155,
      pending_charges: 48,
    },
  ],
  next_cursor: null,
};
