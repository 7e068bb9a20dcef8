import { describe, expect, it } from 'vitest';
import { parseDay } from '../calendar.js';
import {
  type AllocationRule,
  type Candidate,
  type CourierRecord,
  type DeliveryHistory,
  type OrderFacts,
  allocate,
  evaluate,
  needsHistory,
} from './allocation.js';
import { ruleWarnings } from './rule-checks.js';

const day = (text: string) => parseDay(text);
// The quote's serviceable services, cheapest first (as quoteRates answers them).
const DLV = { service: { id: 'DLV', name: 'Delhivery Surface' }, totalPaise: 6200, deliveryDay: day('2026-06-20') };
const XB = { service: { id: 'XB', name: 'Xpressbees Surface' }, totalPaise: 6500, deliveryDay: day('2026-06-19') };
const BD = { service: { id: 'BD', name: 'Bluedart Air' }, totalPaise: 11000, deliveryDay: day('2026-06-17') };
const ALL: Candidate[] = [DLV, XB, BD];

const FACTS: OrderFacts = {
  zone: 'B',
  paymentMethod: 'cod',
  weightGrams: 500,
  orderValuePaise: 150000,
  pincode: '110001',
  state: 'Delhi',
  storeName: 'Acme',
};

let n = 0;
function rule(over: Partial<AllocationRule> & Pick<AllocationRule, 'strategy'>): AllocationRule {
  n += 1;
  return {
    id: `r${n}`,
    name: over.name ?? `rule ${n}`,
    priority: n,
    active: true,
    conditions: {},
    carrierIds: [],
    ...over,
  };
}

const records = (entries: Record<string, [number, number]>) =>
  new Map<string, CourierRecord>(Object.entries(entries).map(([id, [delivered, rto]]) => [id, { delivered, rto }]));
const history = (
  pincode: Record<string, [number, number]>,
  zone: Record<string, [number, number]> = {},
): DeliveryHistory => ({ pincode: records(pincode), zone: records(zone) });

interface Case {
  name: string;
  rules: AllocationRule[];
  facts?: Partial<OrderFacts>;
  candidates?: Candidate[];
  history?: DeliveryHistory;
  courier: string;
  rule: string | null;
  strategy: string;
  reason: string;
}

const CASES: Case[] = [
  {
    name: 'no rules: the cheapest',
    rules: [],
    courier: 'DLV',
    rule: null,
    strategy: 'cheapest',
    reason: 'the account has no active rules: Delhivery Surface, the cheapest of 3 serviceable at ₹62.00',
  },
  {
    name: 'cheapest among the rule couriers',
    rules: [rule({ name: 'metro', strategy: 'cheapest', carrierIds: ['XB', 'BD'], conditions: { zones: ['A', 'B'] } })],
    courier: 'XB',
    rule: 'metro',
    strategy: 'cheapest',
    reason: 'Xpressbees Surface is the cheapest of 2 serviceable at ₹65.00',
  },
  {
    name: 'fastest',
    rules: [rule({ name: 'fast', strategy: 'fastest' })],
    courier: 'BD',
    rule: 'fast',
    strategy: 'fastest',
    reason: 'Bluedart Air delivers first of 3 serviceable, by 2026-06-17, at ₹110.00',
  },
  {
    name: 'fastest: a tie goes to the cheaper',
    rules: [rule({ name: 'fast', strategy: 'fastest' })],
    candidates: [DLV, { ...XB, deliveryDay: DLV.deliveryDay }],
    courier: 'DLV',
    rule: 'fast',
    strategy: 'fastest',
    reason: 'Delhivery Surface delivers first of 2 serviceable, by 2026-06-20, at ₹62.00',
  },
  {
    name: 'priority: an unserviceable first choice is skipped',
    rules: [rule({ name: 'fixed', strategy: 'priority', carrierIds: ['EK', 'BD', 'DLV'] })],
    courier: 'BD',
    rule: 'fixed',
    strategy: 'priority',
    reason: "Bluedart Air is number 2 of the rule's priority list; the 1 listed before it cannot carry this parcel",
  },
  {
    name: 'payment does not match: the next rule',
    rules: [
      rule({ name: 'prepaid', strategy: 'fastest', conditions: { paymentMethods: ['prepaid'] } }),
      rule({ name: 'cod', strategy: 'priority', carrierIds: ['XB'] }),
    ],
    courier: 'XB',
    rule: 'cod',
    strategy: 'priority',
    reason: "Xpressbees Surface is number 1 of the rule's priority list",
  },
  {
    name: 'weight above the range: no rule matches',
    rules: [rule({ name: 'light', strategy: 'fastest', conditions: { weightMaxGrams: 499 } })],
    courier: 'DLV',
    rule: null,
    strategy: 'cheapest',
    reason: 'no rule matched: Delhivery Surface, the cheapest of 3 serviceable at ₹62.00',
  },
  {
    name: 'weight range inclusive at both ends',
    rules: [rule({ name: 'half kilo', strategy: 'fastest', conditions: { weightMinGrams: 500, weightMaxGrams: 500 } })],
    courier: 'BD',
    rule: 'half kilo',
    strategy: 'fastest',
    reason: 'Bluedart Air delivers first of 3 serviceable, by 2026-06-17, at ₹110.00',
  },
  {
    name: 'order value, state and store match case-insensitively',
    rules: [
      rule({
        name: 'big delhi',
        strategy: 'fastest',
        conditions: { orderValueMinPaise: 100000, states: ['delhi'], storeNames: ['acme'] },
      }),
    ],
    courier: 'BD',
    rule: 'big delhi',
    strategy: 'fastest',
    reason: 'Bluedart Air delivers first of 3 serviceable, by 2026-06-17, at ₹110.00',
  },
  {
    name: 'pincode list that misses, then a rule with no serviceable courier, then the fallback',
    rules: [
      rule({ name: 'mumbai', strategy: 'fastest', conditions: { pincodes: ['400001'] } }),
      rule({ name: 'ekart only', strategy: 'cheapest', carrierIds: ['EK'] }),
    ],
    courier: 'DLV',
    rule: null,
    strategy: 'cheapest',
    reason:
      "no rule matched: Delhivery Surface, the cheapest of 3 serviceable at ₹62.00; rule 'ekart only' skipped: none of its couriers can carry this parcel",
  },
  {
    name: 'a skipped rule is named in the reason of the next',
    rules: [
      rule({ name: 'ekart only', strategy: 'cheapest', carrierIds: ['EK'] }),
      rule({ name: 'fast', strategy: 'fastest' }),
    ],
    courier: 'BD',
    rule: 'fast',
    strategy: 'fastest',
    reason:
      "Bluedart Air delivers first of 3 serviceable, by 2026-06-17, at ₹110.00; rule 'ekart only' skipped: none of its couriers can carry this parcel",
  },
  {
    name: 'inactive rules are not tried',
    rules: [rule({ name: 'off', strategy: 'fastest', active: false })],
    courier: 'DLV',
    rule: null,
    strategy: 'cheapest',
    reason: 'the account has no active rules: Delhivery Surface, the cheapest of 3 serviceable at ₹62.00',
  },
  {
    name: 'best performance at the pincode',
    rules: [rule({ name: 'best', strategy: 'best_performance' })],
    history: history({ DLV: [6, 4], XB: [9, 1], BD: [2, 0] }),
    courier: 'XB',
    rule: 'best',
    strategy: 'best_performance',
    reason: 'Xpressbees Surface delivered 90% of 10 closed shipments to pincode 110001, the best of 3 serviceable',
  },
  {
    name: 'best performance: too few at the pincode, so the zone',
    rules: [rule({ name: 'best', strategy: 'best_performance' })],
    history: history({ XB: [4, 0] }, { DLV: [18, 2], XB: [30, 10] }),
    courier: 'DLV',
    rule: 'best',
    strategy: 'best_performance',
    reason: 'Delhivery Surface delivered 90% of 20 closed shipments to zone B, the best of 3 serviceable',
  },
  {
    name: 'best performance: no history, the cheapest',
    rules: [rule({ name: 'best', strategy: 'best_performance', carrierIds: ['XB', 'BD'] })],
    history: history({}),
    courier: 'XB',
    rule: 'best',
    strategy: 'best_performance',
    reason:
      'no courier has 5 closed shipments to pincode 110001 or zone B yet: Xpressbees Surface, the cheapest of 2 serviceable',
  },
  {
    name: 'best performance: equal records, the cheaper',
    rules: [rule({ name: 'best', strategy: 'best_performance' })],
    history: history({ BD: [8, 2], DLV: [4, 1] }),
    courier: 'DLV',
    rule: 'best',
    strategy: 'best_performance',
    reason: 'Delhivery Surface delivered 80% of 5 closed shipments to pincode 110001, the best of 3 serviceable',
  },
  {
    name: 'priority order, not list order, decides',
    rules: [
      rule({ name: 'second', strategy: 'fastest', priority: 20 }),
      rule({ name: 'first', strategy: 'cheapest', priority: 10 }),
    ],
    courier: 'DLV',
    rule: 'first',
    strategy: 'cheapest',
    reason: 'Delhivery Surface is the cheapest of 3 serviceable at ₹62.00',
  },
];

describe('allocate', () => {
  it.each(CASES)('$name', (c) => {
    const chosen = allocate(c.rules, { ...FACTS, ...c.facts }, c.candidates ?? ALL, c.history);
    expect(chosen?.courier.service.id).toBe(c.courier);
    expect(chosen?.allocation).toEqual({
      ruleId: c.rules.find((r) => r.name === c.rule)?.id ?? null,
      rule: c.rule,
      strategy: c.strategy,
      reason: c.reason,
    });
  });

  it('answers null when no service can carry the parcel', () => {
    expect(allocate([rule({ strategy: 'cheapest' })], FACTS, [])).toBeNull();
  });

  it('evaluate says why each rule does not match', () => {
    const rules = [
      rule({ name: 'z', strategy: 'cheapest', conditions: { zones: ['D', 'E'] } }),
      rule({ name: 'v', strategy: 'cheapest', conditions: { orderValueMaxPaise: 50000 } }),
      rule({ name: 's', strategy: 'cheapest', conditions: { storeNames: ['other'] } }),
    ];
    expect(evaluate(rules, FACTS, ALL).map((o) => [o.rule.name, o.matched, o.reason])).toEqual([
      ['z', false, 'zone B is not among D, E'],
      ['v', false, 'order value ₹1500.00 is outside at most 500 rupees'],
      ['s', false, 'store Acme is not listed'],
    ]);
  });

  it('needs the history only when a matching rule ranks by it', () => {
    expect(needsHistory([rule({ strategy: 'best_performance', conditions: { zones: ['E'] } })], FACTS)).toBe(false);
    expect(needsHistory([rule({ strategy: 'best_performance', conditions: { zones: ['B'] } })], FACTS)).toBe(true);
  });
});

describe('ruleWarnings', () => {
  it('warns of a rule an earlier one covers, and of overlaps', () => {
    const all = rule({ name: 'all cod', strategy: 'cheapest', conditions: { paymentMethods: ['cod'] } });
    const light = rule({
      name: 'light cod',
      strategy: 'fastest',
      conditions: { paymentMethods: ['cod'], weightMaxGrams: 500 },
    });
    const someCouriers = rule({ name: 'dlv', strategy: 'priority', carrierIds: ['DLV'], conditions: { zones: ['A'] } });
    const zoneA = rule({
      name: 'zone a',
      strategy: 'priority',
      carrierIds: ['XB'],
      conditions: { zones: ['A'], weightMinGrams: 100 },
    });
    const heavy = rule({
      name: 'heavy',
      strategy: 'cheapest',
      conditions: { weightMinGrams: 10000, paymentMethods: ['prepaid'] },
    });
    expect(ruleWarnings([all, light, someCouriers, zoneA, heavy])).toEqual([
      {
        field: light.id,
        message: `rule 'light cod' can never match: rule 'all cod' (priority ${all.priority}) matches every order it matches and may choose every courier it may`,
      },
      {
        field: someCouriers.id,
        message: `rule 'dlv' overlaps rule 'all cod' (priority ${all.priority}): orders matching both go to 'all cod'`,
      },
      {
        field: someCouriers.id,
        message: `rule 'dlv' overlaps rule 'light cod' (priority ${light.priority}): orders matching both go to 'light cod'`,
      },
      {
        field: zoneA.id,
        message: `rule 'zone a' is covered by rule 'dlv' (priority ${someCouriers.priority}): it is used only when none of that rule's couriers can carry the parcel`,
      },
      {
        field: heavy.id,
        message: `rule 'heavy' overlaps rule 'dlv' (priority ${someCouriers.priority}): orders matching both go to 'dlv'`,
      },
      {
        field: heavy.id,
        message: `rule 'heavy' overlaps rule 'zone a' (priority ${zoneA.priority}): orders matching both go to 'zone a'`,
      },
    ]);
  });
});
