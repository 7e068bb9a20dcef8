import { type Static, type TSchema, Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Uuid } from '../../http/schemas.js';

export const Timestamp = Type.String({ format: 'date-time' });
export const Nullable = (schema: TSchema, description: string) => Type.Union([schema, Type.Null()], { description });
const Language = Type.Union([Type.Literal('en'), Type.Literal('hi')], { description: 'en (English) or hi (Hindi).' });
export const POLICY_MODES = ['off', 'all_cod', 'above_value', 'by_risk'] as const;
const RiskLevel = Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]);
const ChannelName = Type.Union([Type.Literal('whatsapp'), Type.Literal('sms'), Type.Literal('email')]);

export const PolicyBody = Type.Object(
  {
    mode: Type.Union(
      POLICY_MODES.map((m) => Type.Literal(m)),
      {
        description:
          'off; all_cod: every COD order; above_value: COD orders collecting at least min_value; by_risk: COD orders whose rto_risk is in risk_levels (all COD orders while no risk is scored).',
      },
    ),
    min_value: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 10_000_000,
        description: 'Rupees; above_value asks orders collecting at least this.',
      }),
    ),
    risk_levels: Type.Optional(
      Type.Array(RiskLevel, {
        uniqueItems: true,
        maxItems: 3,
        description: 'by_risk: the levels asked; default medium and high.',
      }),
    ),
    channels: Type.Optional(
      Type.Array(ChannelName, {
        minItems: 1,
        maxItems: 3,
        uniqueItems: true,
        description:
          'Tried in this order: the first enabled one that can reach the buyer asks. Default whatsapp, sms, email.',
      }),
    ),
    language: Type.Optional(Language),
    window_minutes: Type.Optional(
      Type.Integer({
        minimum: 5,
        maximum: 7 * 24 * 60,
        description: 'How long the buyer has to answer before the outcome is no_response; default 1440 (24 h).',
      }),
    ),
    hold_unconfirmed: Type.Optional(
      Type.Boolean({
        description:
          'true: an unconfirmed order is held (not to be handed to the courier) while awaiting and after no_response; false (default): shipped anyway.',
      }),
    ),
    payment_link_template: Type.Optional(
      Nullable(
        Type.String({ pattern: '^https://', maxLength: 1024 }),
        'Your payment page with {amount} (rupees) and {order_id}, e.g. https://pay.example.in/cod?order={order_id}&amount={amount}; the confirmation offers it.',
      ),
    ),
    address_update_for: Type.Optional(
      Type.Array(Type.Union([Type.Literal('incomplete'), Type.Literal('suspicious')]), {
        uniqueItems: true,
        maxItems: 2,
        description:
          'The address validities whose buyer gets an "update your address" message with a link to the form on the tracking page; default [] (never).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PolicyBody = Static<typeof PolicyBody>;

export const PolicyView = Type.Object({
  mode: Type.String(),
  min_value: Type.Number({ description: 'Rupees.' }),
  risk_levels: Type.Array(Type.String()),
  channels: Type.Array(Type.String()),
  language: Type.String(),
  window_minutes: Type.Integer(),
  hold_unconfirmed: Type.Boolean(),
  payment_link_template: Nullable(Type.String(), 'null when no payment link is offered.'),
  address_update_for: Type.Array(Type.String(), {
    description: 'The address validities that ask the buyer to update the address; [] never.',
  }),
});
export const POLICY_EXAMPLE = {
  mode: 'above_value',
  min_value: 500,
  risk_levels: ['medium', 'high'],
  channels: ['whatsapp', 'sms', 'email'],
  language: 'hi',
  window_minutes: 720,
  hold_unconfirmed: true,
  payment_link_template: 'https://pay.example.in/cod?order={order_id}&amount={amount}',
  address_update_for: ['incomplete', 'suspicious'],
};
export const PolicyEnvelope = Type.Object({ data: PolicyView }, { examples: [{ data: POLICY_EXAMPLE }] });

export const OrderConfirmation = Type.Object(
  {
    outcome: Type.String({ description: 'pending, confirmed, cancelled or no_response.' }),
    held: Type.Boolean({ description: 'Held back from the courier under the hold policy (docs/rto.md).' }),
    channel: Nullable(Type.String(), 'whatsapp, sms or email; null when no enabled channel could reach the buyer.'),
    language: Type.String(),
    due_at: Timestamp,
    answered_at: Nullable(Timestamp, 'When the buyer answered.'),
    answered_via: Nullable(Type.String(), 'whatsapp or link.'),
    payment_link: Nullable(Type.String(), 'The payment link offered, if any.'),
    cod_to_prepaid: Nullable(Type.String(), 'offered or paid; null when no payment link was offered.'),
    payment_reference: Nullable(Type.String(), "The gateway's payment id, once paid."),
    paid_at: Nullable(Timestamp, 'When the payment was reported.'),
  },
  { $id: 'OrderConfirmation' },
);
export type OrderConfirmationView = Static<typeof OrderConfirmation>;

export const BuyerMessage = Type.Object({
  id: Uuid,
  channel: Type.String(),
  purpose: Type.String({ description: 'order_confirmation.' }),
  template: Type.String({ description: 'The WhatsApp template name, the DLT template id, or email.' }),
  language: Type.String(),
  recipient: Type.String({ description: 'Masked: the last four digits, or the first letter and domain.' }),
  status: Type.String({
    description: 'pending until the provider accepts it (sent) or the last retry fails (failed).',
  }),
  attempts: Type.Integer({ minimum: 0 }),
  provider_message_id: Nullable(Type.String(), "The provider's id (WhatsApp wamid, MSG91 request id)."),
  last_error: Nullable(
    Type.String(),
    "Why the latest attempt failed, in our words, with at most 120 characters of the provider's documented error message (never its whole answer).",
  ),
  next_attempt_at: Nullable(Timestamp, 'When the next attempt is due.'),
  created_at: Timestamp,
  sent_at: Nullable(Timestamp, 'When the provider accepted it.'),
});

const CONFIRMATION_EXAMPLE = {
  outcome: 'confirmed',
  held: false,
  channel: 'whatsapp',
  language: 'hi',
  due_at: '2026-11-20T18:30:00.000Z',
  answered_at: '2026-11-20T07:02:11.000Z',
  answered_via: 'whatsapp',
  payment_link: null,
  cod_to_prepaid: null,
  payment_reference: null,
  paid_at: null,
};
export const ConfirmationEnvelope = Type.Object(
  {
    data: Type.Object({
      confirmation: Nullable(Type.Ref('OrderConfirmation'), 'null when none was asked.'),
      messages: Type.Array(BuyerMessage),
    }),
  },
  {
    examples: [
      {
        data: {
          confirmation: CONFIRMATION_EXAMPLE,
          messages: [
            {
              id: '5b7d9f1a-3c5e-4a7b-9d1f-3a5c7e9b1d24',
              channel: 'whatsapp',
              purpose: 'order_confirmation',
              template: 'cod_confirm_hi',
              language: 'hi',
              recipient: '******3210',
              status: 'sent',
              attempts: 1,
              provider_message_id: 'wamid.HBgLOTE5ODc2NTQzMjEwFQIAERgSQjk3',
              last_error: null,
              next_attempt_at: null,
              created_at: '2026-11-20T06:30:01.000Z',
              sent_at: '2026-11-20T06:30:02.000Z',
            },
          ],
        },
      },
    ],
  },
);

export const ShipmentParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The shipment_id or AWB.',
    examples: [EXAMPLE.bookedShipmentId],
  }),
});

export const PaidBody = Type.Object(
  {
    payment_reference: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "Your gateway's payment id (Razorpay pay_…, Cashfree cf_payment_id, …).",
    }),
    amount: Type.Number({
      exclusiveMinimum: 0,
      maximum: 10_000_000,
      description: 'Rupees paid: must equal the amount to collect.',
    }),
  },
  { additionalProperties: false },
);
export const PAID_EXAMPLE = { payment_reference: 'pay_NkP2x9QwErTy12', amount: 1299 };

export const PaidEnvelope = Type.Object(
  {
    data: Type.Object({
      shipment_id: Uuid,
      payment_method: Type.Literal('prepaid'),
      cod_collectible: Type.Literal(0),
      confirmation: Type.Ref('OrderConfirmation'),
      payment: Type.Object({ reference: Type.String(), amount: Type.Number({ description: 'Rupees.' }) }),
      charges: Nullable(
        Type.Object({ freight: Type.Number(), cod_charges: Type.Number(), rto_charges: Type.Number() }),
        'The charges re-quoted as prepaid, in rupees; null before a courier is booked.',
      ),
      label_url: Nullable(Type.String(), 'A fresh link to the label, which now prints PREPAID; null before an AWB.'),
      label_reissued: Type.Boolean({
        description:
          'true: the label had been printed showing the COD amount, so it was re-issued (shipment.label_reissued): links to the earlier one answer 410. false: never printed; any link prints PREPAID.',
      }),
    }),
  },
  {
    examples: [
      {
        data: {
          shipment_id: EXAMPLE.bookedShipmentId,
          payment_method: 'prepaid',
          cod_collectible: 0,
          confirmation: {
            ...CONFIRMATION_EXAMPLE,
            payment_link: 'https://pay.example.in/cod?order=ORD-1001&amount=1299',
            cod_to_prepaid: 'paid',
            payment_reference: 'pay_NkP2x9QwErTy12',
            paid_at: '2026-11-20T07:05:00.000Z',
          },
          payment: { reference: 'pay_NkP2x9QwErTy12', amount: 1299 },
          charges: { freight: 62, cod_charges: 0, rto_charges: 62 },
          label_url:
            'https://ship.example.in/public/v1/labels/8f14e45f-ceea-4e7a-9b1c-2d3e4f5a6b7c?expires=1795240000&signature=Zx9',
          label_reissued: false,
        },
      },
    ],
  },
);

export const HookParams = Type.Object({
  account_id: Type.String({
    format: 'uuid',
    description: 'Your account id (in inbound_webhook_url).',
    examples: ['6f1c2a9e-4b7d-4e21-9c3a-1d2e3f4a5b6c'],
  }),
});
export const VerifyQuery = Type.Object({
  'hub.mode': Type.Optional(Type.String({ maxLength: 100, examples: ['subscribe'] })),
  'hub.verify_token': Type.Optional(Type.String({ maxLength: 256, examples: ['kurta-kart-verify'] })),
  'hub.challenge': Type.Optional(Type.String({ maxLength: 256, examples: ['1158201444'] })),
});
export const TokenParams = Type.Object({
  token: Type.String({
    pattern: '^[A-Za-z0-9_-]{16,64}$',
    description: "The secret of the buyer's tracking link.",
    examples: [EXAMPLE.trackToken],
  }),
});
export const PageQuery = Type.Object({ lang: Type.Optional(Language) });
export const AnswerForm = Type.Object(
  { answer: Type.Union([Type.Literal('confirm'), Type.Literal('cancel')], { description: 'confirm or cancel.' }) },
  { additionalProperties: false },
);
