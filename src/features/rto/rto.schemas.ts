import { type Static, Type } from 'typebox';
import { MAX_ATTEMPT, MAX_FALLBACK_HOURS, MAX_RULES, RULE_ACTIONS } from '../../domain/rto/ndr-automation.js';
import { MAX_HIGH_VALUE_PAISE, MAX_THRESHOLD } from '../../domain/rto/risk.js';
import { NDR_REASONS } from '../../domain/shipment/status-machine.js';

const Score = Type.Integer({
  minimum: 1,
  maximum: MAX_THRESHOLD,
  'x-error': `must be a whole number from 1 to ${MAX_THRESHOLD}`,
});

export const Thresholds = Type.Object(
  {
    medium: { ...Score, description: 'A score at or above this is medium risk (default 30).' },
    high: { ...Score, description: 'A score at or above this is high risk (default 60); above medium.' },
    high_value_cod: Type.Number({
      minimum: 0,
      maximum: MAX_HIGH_VALUE_PAISE / 100,
      multipleOf: 0.01,
      'x-error': `must be an amount in rupees from 0 to ${MAX_HIGH_VALUE_PAISE / 100}, with at most two decimals`,
      description: 'Rupees: a COD amount at or above this adds the high_value_cod points (default 3000).',
    }),
  },
  { additionalProperties: false },
);
export type ThresholdsInput = Static<typeof Thresholds>;

const THRESHOLDS_EXAMPLE = { medium: 30, high: 60, high_value_cod: 3000 };
export const ThresholdsBody = { ...Thresholds, examples: [{ medium: 25, high: 50, high_value_cod: 2500 }] };
export const ThresholdsEnvelope = Type.Object({
  data: Type.Object({
    ...Thresholds.properties,
    default: Type.Boolean({ description: 'true while the account uses the defaults (never set).' }),
  }),
});
export const THRESHOLDS_EXAMPLES = {
  read: { data: { ...THRESHOLDS_EXAMPLE, default: true } },
  set: { data: { medium: 25, high: 50, high_value_cod: 2500, default: false } },
};

const Attempt = Type.Integer({
  minimum: 1,
  maximum: MAX_ATTEMPT,
  'x-error': `must be a whole number from 1 to ${MAX_ATTEMPT}`,
});

export const Rule = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      'x-error': 'must be a text of 1 to 100 characters',
      description: 'Shown with every action the rule takes; unique in the list.',
    }),
    when: Type.Object(
      {
        ndr_reasons: Type.Optional(
          Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
            maxItems: NDR_REASONS.length,
            description: `Any of these reasons (${NDR_REASONS.join(', ')}); absent or []: any reason.`,
          }),
        ),
        payment: Type.Optional(
          Type.Enum(['cod', 'prepaid'], {
            'x-error': 'must be cod or prepaid',
            description: 'Only COD or only prepaid shipments; absent: both.',
          }),
        ),
        attempt_min: Type.Optional({
          ...Attempt,
          description: "The NDR is at least the shipment's Nth failed attempt (1: the first).",
        }),
        attempt_max: Type.Optional({
          ...Attempt,
          description: "The NDR is at most the shipment's Nth failed attempt.",
        }),
      },
      { additionalProperties: false, description: 'Conditions, all of which the NDR must meet; {} matches every NDR.' },
    ),
    action: Type.Enum(RULE_ACTIONS, {
      'x-error': `must be one of ${RULE_ACTIONS.join(', ')}`,
      description:
        'reattempt: on the next working day, as POST /reattempt would (its limits apply); rto: as POST /initiate-rto; ' +
        'message_buyer: records shipment.ndr_buyer_message_requested for a messaging channel to send.',
    }),
    rto_after_hours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_FALLBACK_HOURS,
        'x-error': `must be a whole number of hours from 1 to ${MAX_FALLBACK_HOURS}`,
        description:
          'message_buyer only: initiate an RTO if the buyer has not answered (no reattempt asked for this NDR) within this many hours.',
      }),
    ),
  },
  { additionalProperties: false },
);

const RULES_EXAMPLE = [
  {
    name: 'Unavailable: try again once',
    when: { ndr_reasons: ['customer_unavailable'], attempt_max: 1 },
    action: 'reattempt',
  },
  {
    name: 'Refused COD: ask, then RTO',
    when: { ndr_reasons: ['refused'], payment: 'cod' },
    action: 'message_buyer',
    rto_after_hours: 24,
  },
  { name: 'Second NDR: RTO', when: { attempt_min: 2 }, action: 'rto' },
];

export const RulesBody = Type.Object(
  {
    rules: Type.Array(Rule, {
      maxItems: MAX_RULES,
      description: `The whole list, in order (at most ${MAX_RULES}): the first rule an NDR meets acts, the others do not. [] turns automation off.`,
    }),
  },
  { additionalProperties: false, examples: [{ rules: RULES_EXAMPLE }] },
);
export type RulesInput = Static<typeof RulesBody>;

export const RulesEnvelope = Type.Object({ data: Type.Object({ rules: Type.Array(Rule) }) });
export const RULES_EXAMPLES = { read: { data: { rules: [] } }, set: { data: { rules: RULES_EXAMPLE } } };
