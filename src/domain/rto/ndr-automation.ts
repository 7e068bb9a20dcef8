import type { FieldError } from '../errors.js';
import { NDR_REASONS } from '../shipment/status-machine.js';

/**
 * A merchant's rules for failed deliveries: when an NDR is raised, the first rule whose conditions
 * the NDR meets acts (reattempt on the next working day, RTO, or ask the buyer, with an RTO if the
 * buyer does not answer in time). Pure: the matching and its checks; the NDR module carries the
 * action out through the same path as a merchant's request.
 */

export const RULE_ACTIONS = ['reattempt', 'rto', 'message_buyer'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
/** What was done on a shipment's NDRs, by anyone (shipments.ndr_outcomes; the listing's ndr_all_outcomes[]). */
export const NDR_OUTCOMES = ['reattempt', 'rto', 'buyer_message'] as const;
export const MAX_RULES = 20;
export const MAX_ATTEMPT = 10;
/** A week: couriers hold a parcel at the hub about that long before returning it anyway. */
export const MAX_FALLBACK_HOURS = 168;

export interface NdrRule {
  name: string;
  when: {
    /** Any of these reasons; absent: any reason. */
    ndr_reasons?: string[];
    payment?: 'cod' | 'prepaid';
    /** The NDR's place among the shipment's failed attempts (1 for the first). */
    attempt_min?: number;
    attempt_max?: number;
  };
  action: RuleAction;
  /** message_buyer only: RTO when the buyer has not answered (no reattempt asked) after this many hours. */
  rto_after_hours?: number;
}

export interface NdrFacts {
  ndrReason: string | null;
  cod: boolean;
  /** attempt_count after the NDR: 1 on the first failed attempt. */
  attempt: number;
}

/** The first rule the NDR meets, with its place in the list (0-based); undefined when none does. */
export function matchRule(rules: readonly NdrRule[], facts: NdrFacts): { rule: NdrRule; index: number } | undefined {
  const index = rules.findIndex(({ when }) => {
    if (
      when.ndr_reasons &&
      when.ndr_reasons.length > 0 &&
      !(facts.ndrReason !== null && when.ndr_reasons.includes(facts.ndrReason))
    )
      return false;
    if (when.payment && (when.payment === 'cod') !== facts.cod) return false;
    if (when.attempt_min !== undefined && facts.attempt < when.attempt_min) return false;
    if (when.attempt_max !== undefined && facts.attempt > when.attempt_max) return false;
    return true;
  });
  return index < 0 ? undefined : { rule: rules[index]!, index };
}

/** Every problem of a rule list the schema cannot see, each naming its field (rules.N.…). */
export function ruleProblems(rules: readonly NdrRule[]): FieldError[] {
  const problems: FieldError[] = [];
  const names = new Set<string>();
  rules.forEach((rule, i) => {
    const at = `rules.${i}`;
    if (names.has(rule.name)) problems.push({ field: `${at}.name`, message: `rule name '${rule.name}' is used twice` });
    names.add(rule.name);
    for (const reason of rule.when.ndr_reasons ?? []) {
      if (!(NDR_REASONS as readonly string[]).includes(reason)) {
        problems.push({
          field: `${at}.when.ndr_reasons`,
          message: `ndr_reasons must each be one of ${NDR_REASONS.join(', ')}; '${reason}' is not`,
        });
      }
    }
    const { attempt_min: min, attempt_max: max } = rule.when;
    if (min !== undefined && max !== undefined && min > max) {
      problems.push({ field: `${at}.when.attempt_min`, message: 'attempt_min must not be above attempt_max' });
    }
    if (rule.rto_after_hours !== undefined && rule.action !== 'message_buyer') {
      problems.push({
        field: `${at}.rto_after_hours`,
        message: 'rto_after_hours belongs to the message_buyer action only',
      });
    }
  });
  return problems;
}

/** The rules a new account starts with: none. A merchant opts in, since each rule sends couriers instructions. */
export const EXAMPLE_RULES: NdrRule[] = [
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
