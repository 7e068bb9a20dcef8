import { type Static, Type } from 'typebox';
import { STRATEGIES } from '../../domain/allocation/allocation.js';
import { EXAMPLE } from '../../http/examples.js';
import { Money, Name, PaymentMethod, Pincode, Uuid } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';

const Grams = (description: string) =>
  Type.Number({
    minimum: 0,
    maximum: 1_000_000,
    'x-error': 'must be a number of grams from 0 to 1000000',
    description,
  });
const List = <T extends Parameters<typeof Type.Array>[0]>(items: T, max: number, description: string) =>
  Type.Array(items, { minItems: 1, maxItems: max, 'x-error': `must be a list of 1 to ${max} values`, description });

export const RuleConditionsBody = Type.Object(
  {
    zones: Type.Optional(
      List(
        Type.String({ maxLength: 6, ...statedRule({ pattern: '^\\s*(?:[Zz][Oo][Nn][Ee]_)?[A-Ea-e]\\s*$' }) }),
        5,
        'Zones A to E (or zone_a to zone_e), as rates and the listing name them.',
      ),
    ),
    payment_methods: Type.Optional(List(PaymentMethod('cod or prepaid, in any case.'), 2, 'Payment methods.')),
    weight_min_grams: Type.Optional(
      Grams('Lowest applicable weight (the greater of dead and volumetric) in grams, inclusive.'),
    ),
    weight_max_grams: Type.Optional(Grams('Highest applicable weight in grams, inclusive.')),
    order_value_min: Type.Optional(Money('Lowest order sub-total in rupees, inclusive.')),
    order_value_max: Type.Optional(Money('Highest order sub-total in rupees, inclusive.')),
    pincodes: Type.Optional(List(Pincode, 1000, 'Destination pincodes.')),
    states: Type.Optional(
      List(Type.String({ maxLength: 60 }), 40, 'Destination states, as the pincode directory names them (any case).'),
    ),
    store_names: Type.Optional(
      List(
        Type.String({ maxLength: 100 }),
        100,
        'Stores (client-stores names, any case); an order naming no store does not match.',
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'What an order must meet for the rule to choose its courier; every condition left out matches every order.',
  },
);

export const RuleBody = Type.Object(
  {
    name: Name(100, 'What the rule is called in answers and reasons.'),
    priority: Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      'x-error': 'must be a whole number from 0 to 1000000',
      description: 'Rules are tried lowest first.',
    }),
    active: Type.Optional(
      Type.Boolean({
        'x-error': 'must be true or false',
        description: 'An inactive rule is kept but never tried. Default true.',
      }),
    ),
    strategy: Type.Union(
      [Type.Literal('cheapest'), Type.Literal('fastest'), Type.Literal('best_performance'), Type.Literal('priority')],
      {
        'x-error': `must be one of ${STRATEGIES.join(', ')}`,
        description:
          'cheapest: the lowest total charge; fastest: the earliest expected delivery (then the cheapest); best_performance: the ' +
          "highest delivered share of the account's own closed shipments to the pincode (at least 5 there), else the zone, " +
          'else the cheapest; priority: the first of carrier_ids that can carry the parcel.',
      },
    ),
    carrier_ids: Type.Optional(
      Type.Array(Type.String({ maxLength: 32 }), {
        maxItems: 50,
        'x-error': 'must be a list of at most 50 courier service ids',
        description:
          'The courier services (GET /carriers) the rule chooses among, in order for priority (which needs at least one); empty or left out: every service.',
      }),
    ),
    conditions: Type.Optional(RuleConditionsBody),
  },
  { additionalProperties: false },
);
export type RuleInput = Static<typeof RuleBody>;

export const RuleIdParams = Type.Object({
  id: { ...Uuid, description: "The rule's id.", examples: [EXAMPLE.allocationRuleId] },
});

const Warnings = Type.Array(
  Type.Object({ field: Type.String({ description: 'The id of the rule warned about.' }), message: Type.String() }),
  {
    description:
      "The account's rules that overlap (the earlier wins) or that an earlier rule covers entirely. Saved anyway.",
  },
);

const RuleConditionsView = Type.Object({
  zones: Type.Optional(Type.Array(Type.String())),
  payment_methods: Type.Optional(Type.Array(Type.String())),
  weight_min_grams: Type.Optional(Type.Number()),
  weight_max_grams: Type.Optional(Type.Number()),
  order_value_min: Type.Optional(Type.Number()),
  order_value_max: Type.Optional(Type.Number()),
  pincodes: Type.Optional(Type.Array(Type.String())),
  states: Type.Optional(Type.Array(Type.String())),
  store_names: Type.Optional(Type.Array(Type.String())),
});

export const RuleView = Type.Object({
  id: Uuid,
  name: Type.String(),
  priority: Type.Integer(),
  active: Type.Boolean(),
  strategy: Type.String(),
  carrier_ids: Type.Array(Type.String()),
  conditions: RuleConditionsView,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type RuleViewType = Static<typeof RuleView>;

export const RuleEnvelope = Type.Object({ data: RuleView, warnings: Type.Optional(Warnings) });
export const RuleListEnvelope = Type.Object({ data: Type.Array(RuleView), warnings: Warnings });

export const RULE_BODY_EXAMPLE: RuleInput = {
  name: 'Metro COD under 1 kg',
  priority: 10,
  strategy: 'best_performance',
  carrier_ids: ['CARDELHSURF01', 'CARXPBSSTD001', 'CARSHFXSTD001'],
  conditions: { zones: ['A', 'B'], payment_methods: ['cod'], weight_max_grams: 1000 },
};

const RULE_VIEW_EXAMPLE: RuleViewType = {
  id: EXAMPLE.allocationRuleId,
  name: 'Metro COD under 1 kg',
  priority: 10,
  active: true,
  strategy: 'best_performance',
  carrier_ids: ['CARDELHSURF01', 'CARXPBSSTD001', 'CARSHFXSTD001'],
  conditions: { zones: ['A', 'B'], payment_methods: ['cod'], weight_max_grams: 1000 },
  created_at: '2026-11-20T06:30:00.000Z',
  updated_at: '2026-11-20T06:30:00.000Z',
};

export const RULE_EXAMPLES = {
  one: { data: RULE_VIEW_EXAMPLE },
  saved: { data: RULE_VIEW_EXAMPLE, warnings: [] },
  list: { data: [RULE_VIEW_EXAMPLE], warnings: [] },
};
