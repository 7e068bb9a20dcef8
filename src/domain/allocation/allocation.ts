import type { Zone } from '../geo/zones.js';
import { paiseToRupees } from '../money.js';
import { formatDay } from '../calendar.js';

/*
 * Courier allocation: which courier service books an order sent without carrier_id. The account's
 * rules are tried in priority order; the first that matches the order and has a courier able to
 * carry it chooses, by its strategy, among its couriers. Pure: the caller hands in the rate quote's
 * serviceable services and, when a rule asks for it, the account's delivery history.
 */

export const STRATEGIES = ['cheapest', 'fastest', 'best_performance', 'priority'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** Closed shipments a courier needs at a pincode (else in the zone) before its record counts. */
export const MIN_HISTORY = 5;

/** Every condition left out matches every order. Ranges are inclusive at both ends. */
export interface RuleConditions {
  zones?: readonly Zone[];
  paymentMethods?: readonly ('cod' | 'prepaid')[];
  weightMinGrams?: number;
  weightMaxGrams?: number;
  orderValueMinPaise?: number;
  orderValueMaxPaise?: number;
  pincodes?: readonly string[];
  /** Lower case. */
  states?: readonly string[];
  /** Lower case. */
  storeNames?: readonly string[];
}

export interface AllocationRule {
  id: string;
  name: string;
  /** Lower first. */
  priority: number;
  active: boolean;
  conditions: RuleConditions;
  strategy: Strategy;
  /** The couriers the rule chooses among, in preference order for `priority`; empty: every service. */
  carrierIds: readonly string[];
}

/** What rules match on, of one order. */
export interface OrderFacts {
  zone: Zone;
  paymentMethod: 'cod' | 'prepaid';
  /** The applicable weight (the greater of dead and volumetric), as the quote bills it. */
  weightGrams: number;
  /** The order's sub-total. */
  orderValuePaise: number;
  pincode: string;
  state: string;
  storeName: string | null;
}

/** A serviceable courier service of the quote, cheapest first. */
export interface Candidate {
  service: { id: string; name: string };
  totalPaise: number;
  deliveryDay: number;
}

export interface CourierRecord {
  delivered: number;
  rto: number;
}

/** The account's closed shipments per carrier id: to the order's pincode, and in its zone. */
export interface DeliveryHistory {
  pincode: ReadonlyMap<string, CourierRecord>;
  zone: ReadonlyMap<string, CourierRecord>;
}

export interface Allocation {
  ruleId: string | null;
  rule: string | null;
  strategy: Strategy;
  reason: string;
}

export interface RuleOutcome<C extends Candidate> {
  rule: AllocationRule;
  matched: boolean;
  courier: C | null;
  reason: string;
}

const within = (value: number, min: number | undefined, max: number | undefined) =>
  (min === undefined || value >= min) && (max === undefined || value <= max);
const among = <T>(list: readonly T[] | undefined, value: T) => list === undefined || list.includes(value);

/** Why the rule does not match the order, or null when it does. */
export function mismatch(rule: AllocationRule, facts: OrderFacts): string | null {
  const c = rule.conditions;
  if (!among(c.zones, facts.zone)) return `zone ${facts.zone} is not among ${c.zones!.join(', ')}`;
  if (!among(c.paymentMethods, facts.paymentMethod))
    return `payment ${facts.paymentMethod} is not among ${c.paymentMethods!.join(', ')}`;
  if (!within(facts.weightGrams, c.weightMinGrams, c.weightMaxGrams))
    return `weight ${facts.weightGrams} g is outside ${range(c.weightMinGrams, c.weightMaxGrams, ' g')}`;
  if (!within(facts.orderValuePaise, c.orderValueMinPaise, c.orderValueMaxPaise)) {
    return `order value ${rupees(facts.orderValuePaise)} is outside ${range(c.orderValueMinPaise && c.orderValueMinPaise / 100, c.orderValueMaxPaise && c.orderValueMaxPaise / 100, ' rupees')}`;
  }
  if (!among(c.pincodes, facts.pincode)) return `pincode ${facts.pincode} is not listed`;
  if (!among(c.states, facts.state.toLowerCase())) return `state ${facts.state} is not listed`;
  if (
    c.storeNames !== undefined &&
    (facts.storeName === null || !c.storeNames.includes(facts.storeName.toLowerCase()))
  ) {
    return facts.storeName === null ? 'the order names no store' : `store ${facts.storeName} is not listed`;
  }
  return null;
}

function range(min: number | undefined, max: number | undefined, unit: string): string {
  if (min === undefined) return `at most ${max}${unit}`;
  if (max === undefined) return `at least ${min}${unit}`;
  return `${min}–${max}${unit}`;
}

const rupees = (paise: number) => `₹${paiseToRupees(paise).toFixed(2)}`;

/** Active rules, lowest priority first; equal priorities by id, so the order is stable. */
export function ordered(rules: readonly AllocationRule[]): AllocationRule[] {
  return rules
    .filter((r) => r.active)
    .sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A courier's delivered share, from its record at the pincode when it has enough there, else in the zone. */
function performance(
  history: DeliveryHistory | undefined,
  carrierId: string,
): { rate: number; closed: number; where: 'pincode' | 'zone' } | null {
  for (const where of ['pincode', 'zone'] as const) {
    const record = history?.[where].get(carrierId);
    const closed = record ? record.delivered + record.rto : 0;
    if (record && closed >= MIN_HISTORY) return { rate: record.delivered / closed, closed, where };
  }
  return null;
}

/** The rule's choice among the serviceable candidates (cheapest first), and why; null when none of its couriers can carry it. */
function choose<C extends Candidate>(
  rule: AllocationRule,
  facts: OrderFacts,
  candidates: readonly C[],
  history: DeliveryHistory | undefined,
): { courier: C; reason: string } | null {
  const allowed =
    rule.carrierIds.length === 0 ? [...candidates] : candidates.filter((c) => rule.carrierIds.includes(c.service.id));
  if (allowed.length === 0) return null;
  const of = `of ${allowed.length} serviceable`;
  switch (rule.strategy) {
    case 'cheapest': {
      const courier = allowed[0]!;
      return { courier, reason: `${courier.service.name} is the cheapest ${of} at ${rupees(courier.totalPaise)}` };
    }
    case 'fastest': {
      // Stable: the cheapest of those arriving first.
      const courier = allowed.reduce((best, c) => (c.deliveryDay < best.deliveryDay ? c : best));
      return {
        courier,
        reason: `${courier.service.name} delivers first ${of}, by ${formatDay(courier.deliveryDay)}, at ${rupees(courier.totalPaise)}`,
      };
    }
    case 'priority': {
      const courier = rule.carrierIds
        .map((id) => allowed.find((c) => c.service.id === id))
        .find((c) => c !== undefined)!;
      const position = rule.carrierIds.indexOf(courier.service.id) + 1;
      const skipped = position > 1 ? `; the ${position - 1} listed before it cannot carry this parcel` : '';
      return { courier, reason: `${courier.service.name} is number ${position} of the rule's priority list${skipped}` };
    }
    case 'best_performance': {
      let best: { courier: C; score: ReturnType<typeof performance> } | null = null;
      for (const courier of allowed) {
        const score = performance(history, courier.service.id);
        if (best === null || (score !== null && (best.score === null || score.rate > best.score.rate)))
          best = { courier, score };
      }
      const { courier, score } = best!;
      if (score === null) {
        return {
          courier,
          reason: `no courier has ${MIN_HISTORY} closed shipments to pincode ${facts.pincode} or zone ${facts.zone} yet: ${courier.service.name}, the cheapest ${of}`,
        };
      }
      const place = score.where === 'pincode' ? `pincode ${facts.pincode}` : `zone ${facts.zone}`;
      const percent = Math.round(score.rate * 1000) / 10;
      return {
        courier,
        reason: `${courier.service.name} delivered ${percent}% of ${score.closed} closed shipments to ${place}, the best ${of}`,
      };
    }
  }
}

/** Each active rule in order: whether it matches, and what it would choose, and why. */
export function evaluate<C extends Candidate>(
  rules: readonly AllocationRule[],
  facts: OrderFacts,
  candidates: readonly C[],
  history?: DeliveryHistory,
): RuleOutcome<C>[] {
  return ordered(rules).map((rule) => {
    const why = mismatch(rule, facts);
    if (why !== null) return { rule, matched: false, courier: null, reason: why };
    const choice = choose(rule, facts, candidates, history);
    if (choice === null)
      return { rule, matched: true, courier: null, reason: 'none of its couriers can carry this parcel on this lane' };
    return { rule, matched: true, ...choice };
  });
}

/** Whether some matching rule ranks by delivery history (so the caller reads it only then). */
export function needsHistory(rules: readonly AllocationRule[], facts: OrderFacts): boolean {
  return rules.some((r) => r.active && r.strategy === 'best_performance' && mismatch(r, facts) === null);
}

/**
 * The courier the rules choose, with the rule, strategy and reason; without a matching rule that can
 * carry the parcel, the cheapest serviceable service. Null when no service can carry it at all.
 */
export function allocate<C extends Candidate>(
  rules: readonly AllocationRule[],
  facts: OrderFacts,
  candidates: readonly C[],
  history?: DeliveryHistory,
): { courier: C; allocation: Allocation } | null {
  if (candidates.length === 0) return null;
  const outcomes = evaluate(rules, facts, candidates, history);
  // Matching rules passed over for want of a serviceable courier are named in the reason.
  const passed: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.courier !== null) {
      const reason = [outcome.reason, ...passed].join('; ');
      return {
        courier: outcome.courier,
        allocation: { ruleId: outcome.rule.id, rule: outcome.rule.name, strategy: outcome.rule.strategy, reason },
      };
    }
    if (outcome.matched) passed.push(`rule '${outcome.rule.name}' skipped: none of its couriers can carry this parcel`);
  }
  const courier = candidates[0]!;
  const lead = outcomes.length === 0 ? 'the account has no active rules' : 'no rule matched';
  return {
    courier,
    allocation: {
      ruleId: null,
      rule: null,
      strategy: 'cheapest',
      reason: [
        `${lead}: ${courier.service.name}, the cheapest of ${candidates.length} serviceable at ${rupees(courier.totalPaise)}`,
        ...passed,
      ].join('; '),
    },
  };
}
