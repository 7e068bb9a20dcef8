import type { FieldError } from '../errors.js';
import { type AllocationRule, type RuleConditions, ordered } from './allocation.js';

/*
 * Warnings about a set of rules, which are saved anyway: two rules whose conditions some order meets
 * both (the earlier wins), and a rule an earlier one covers entirely. A covered rule is unreachable
 * when the earlier one may choose every courier it may (whenever the earlier finds none that can
 * carry the parcel, neither can it); otherwise it is reached only in that case.
 */

type Lists = 'zones' | 'paymentMethods' | 'pincodes' | 'states' | 'storeNames';
const LISTS: readonly Lists[] = ['zones', 'paymentMethods', 'pincodes', 'states', 'storeNames'];
const RANGES = [
  ['weightMinGrams', 'weightMaxGrams'],
  ['orderValueMinPaise', 'orderValueMaxPaise'],
] as const;

/** Some value is in both lists (a missing list holds every value). */
const listsMeet = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  !a || !b || a.some((v) => b.includes(v));
/** Every value of `inner` is in `outer`. */
const listCovers = (outer: readonly string[] | undefined, inner: readonly string[] | undefined) =>
  !outer || (!!inner && inner.every((v) => outer.includes(v)));

function rangesMeet(a: RuleConditions, b: RuleConditions, [min, max]: (typeof RANGES)[number]): boolean {
  const low = Math.max(a[min] ?? -Infinity, b[min] ?? -Infinity);
  const high = Math.min(a[max] ?? Infinity, b[max] ?? Infinity);
  return low <= high;
}

function rangeCovers(outer: RuleConditions, inner: RuleConditions, [min, max]: (typeof RANGES)[number]): boolean {
  return (outer[min] ?? -Infinity) <= (inner[min] ?? -Infinity) && (outer[max] ?? Infinity) >= (inner[max] ?? Infinity);
}

export function conditionsMeet(a: RuleConditions, b: RuleConditions): boolean {
  return LISTS.every((k) => listsMeet(a[k], b[k])) && RANGES.every((r) => rangesMeet(a, b, r));
}

export function conditionsCover(outer: RuleConditions, inner: RuleConditions): boolean {
  return LISTS.every((k) => listCovers(outer[k], inner[k])) && RANGES.every((r) => rangeCovers(outer, inner, r));
}

/** `field` names the later rule by its id. */
export function ruleWarnings(rules: readonly AllocationRule[]): FieldError[] {
  const active = ordered(rules);
  const warnings: FieldError[] = [];
  active.forEach((later, index) => {
    for (const earlier of active.slice(0, index)) {
      const label = `rule '${earlier.name}' (priority ${earlier.priority})`;
      if (conditionsCover(earlier.conditions, later.conditions)) {
        const unreachable =
          earlier.carrierIds.length === 0 ||
          (later.carrierIds.length > 0 && later.carrierIds.every((id) => earlier.carrierIds.includes(id)));
        const message = unreachable
          ? `rule '${later.name}' can never match: ${label} matches every order it matches and may choose every courier it may`
          : `rule '${later.name}' is covered by ${label}: it is used only when none of that rule's couriers can carry the parcel`;
        warnings.push({ field: later.id, message });
        // The first covering rule says it all.
        return;
      }
    }
    for (const earlier of active.slice(0, index)) {
      if (conditionsMeet(earlier.conditions, later.conditions)) {
        warnings.push({
          field: later.id,
          message: `rule '${later.name}' overlaps rule '${earlier.name}' (priority ${earlier.priority}): orders matching both go to '${earlier.name}'`,
        });
      }
    }
  });
  return warnings;
}
