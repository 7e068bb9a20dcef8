import { type Static, Type } from 'typebox';
import { REFUND_RELEASES } from '../../domain/return-requests/refund-rules.js';
import { RETURN_REASONS } from '../../domain/return-requests/return-reasons.js';
import { Text } from '../../http/schemas.js';

export const MAX_RETURN_WINDOW_DAYS = 180;
export const MAX_NON_RETURNABLE_SKUS = 1000;
export const MAX_NON_RETURNABLE_CATEGORIES = 200;

/** A list of up to `max` different texts of up to 100 characters each. */
const DistinctTexts = (max: number, what: string, item: string, description: string) =>
  Type.Array(Text(100, item), {
    maxItems: max,
    uniqueItems: true,
    'x-error': `must list at most ${max} different ${what}`,
    description,
  });

export const MAX_AUTO_RULES = 20;

const Count = (description: string) =>
  Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1000, 'x-error': 'must be a whole number from 0 to 1000', description }),
  );

/** One rule: what it does, and when (every condition given must hold; none given holds for every request). */
const AutoRuleInput = Type.Object(
  {
    action: Type.String({
      enum: ['approve', 'reject'],
      'x-error': 'must be approve or reject',
      description: 'approve books the return (and records the refund) at once; reject tells the buyer `message`.',
    }),
    message: Type.Optional(Text(500, "A rejection's words, as the buyer is told them (required to reject).")),
    when: Type.Optional(
      Type.Object(
        {
          reasons: Type.Optional(
            Type.Array(
              Type.String({ enum: [...RETURN_REASONS], 'x-error': `must be one of ${RETURN_REASONS.join(', ')}` }),
              { minItems: 1, uniqueItems: true, description: "The request's reason is one of these." },
            ),
          ),
          order_value_max: Type.Optional(
            Type.Number({
              minimum: 0,
              maximum: 100_000_000,
              'x-error': 'must be a number of rupees from 0 to 100000000',
              description: "The order's value (its sub_total) is at most this many rupees.",
            }),
          ),
          skus: Type.Optional(
            Type.Array(Text(100, 'A SKU.'), {
              minItems: 1,
              maxItems: 1000,
              description: 'Every item asked for is one of these SKUs.',
            }),
          ),
          pickup_pincodes: Type.Optional(
            Type.Array(Type.String({ pattern: '^[1-9][0-9]{5}$', 'x-error': 'must be a 6-digit pincode' }), {
              minItems: 1,
              maxItems: 1000,
              description: 'The pickup pincode is one of these.',
            }),
          ),
          buyer_returns_max: Count(
            "The buyer's earlier approved returns with you (by their phone) are at most this many.",
          ),
          buyer_returns_min: Count('… at least this many (a rule to reject serial returners).'),
          buyer_rto_max: Count("The buyer's earlier orders returned to origin (RTO) with you are at most this many."),
          buyer_rto_min: Count('… at least this many.'),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type AutoRuleBody = Static<typeof AutoRuleInput>;

export const ReturnPolicyInput = Type.Object(
  {
    window_days: Type.Integer({
      minimum: 0,
      maximum: MAX_RETURN_WINDOW_DAYS,
      'x-error': `must be a whole number of days from 0 to ${MAX_RETURN_WINDOW_DAYS}`,
      description:
        "Days after delivery (India days, the delivery day not counted) the store's buyers may ask for a return on its tracking page; 0 (the default) takes no requests.",
    }),
    reasons: Type.Array(
      Type.String({ enum: [...RETURN_REASONS], 'x-error': `must be one of ${RETURN_REASONS.join(', ')}` }),
      {
        minItems: 1,
        maxItems: RETURN_REASONS.length,
        uniqueItems: true,
        'x-error': 'must list 1 or more different reasons',
        description:
          "The reasons the buyer picks from, in this order; each is shown in the buyer's language. Default: all of them.",
      },
    ),
    non_returnable_skus: DistinctTexts(
      MAX_NON_RETURNABLE_SKUS,
      'SKUs',
      'A SKU as orders give it.',
      'SKUs the store never takes back: a buyer asking for one is told so in their language. Kept without surrounding spaces.',
    ),
    non_returnable_categories: DistinctTexts(
      MAX_NON_RETURNABLE_CATEGORIES,
      'categories',
      "A category, as the order's items name theirs.",
      "Categories the store never takes back (innerwear, jewellery, …), compared without regard to case or surrounding spaces with an order item's category (order_items[].category, Dakiya's addition to the order routes; docs/returns.md).",
    ),
    refund_deduction_percent: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        'x-error': 'must be a whole percentage from 0 to 100',
        description:
          "The share of the items' value the store keeps from a refund (a restocking fee), rounded half up to the paisa. Default 0.",
      }),
    ),
    return_shipping_fee: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 10_000,
        'x-error': 'must be a number of rupees from 0 to 10000',
        description:
          "Rupees taken from each refund for the return's shipping (never more than what is left after the deduction). Default 0.",
      }),
    ),
    auto_rules: Type.Optional(
      Type.Array(AutoRuleInput, {
        maxItems: MAX_AUTO_RULES,
        'x-error': `must list at most ${MAX_AUTO_RULES} rules`,
        description:
          'Rules that decide a request as it comes in, in order: the first whose every condition holds approves or rejects it; none holding leaves it in the queue (GET /return-requests?status=pending). Default: none.',
      }),
    ),
    store_credit: Type.Optional(
      Type.Boolean({
        'x-error': 'must be true or false',
        description: 'Whether a buyer may take a refund as store credit, beside how the order was paid. Default false.',
      }),
    ),
    refund_release: Type.Optional(
      Type.String({
        enum: [...REFUND_RELEASES],
        'x-error': `must be one of ${REFUND_RELEASES.join(', ')}`,
        description:
          'When a refund falls due: the courier picking the items up (pickup), their delivery to the warehouse (warehouse, the default), or their quality check at pickup passing (qc_pass; a pickup without QC: at the warehouse).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReturnPolicyBody = Static<typeof ReturnPolicyInput>;

export const ReturnPolicyView = Type.Object({
  store_id: Type.String({ format: 'uuid' }),
  ...ReturnPolicyInput.properties,
  refund_deduction_percent: Type.Integer(),
  return_shipping_fee: Type.Number({ description: 'Rupees, exact to the paisa.' }),
  refund_release: Type.String({ enum: [...REFUND_RELEASES] }),
  store_credit: Type.Boolean(),
  auto_rules: Type.Array(AutoRuleInput),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the policy was last set; null while the store keeps the defaults.',
  }),
});
