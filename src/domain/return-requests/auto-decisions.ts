// A store's rules that decide a buyer's return request as it comes in (issue 50: "approve when the
// reason, order value, SKU, pincode or the buyer's RTO/return history match; reject with a reason;
// otherwise a queue"). Pure: the rules in order, the first whose every condition holds decides;
// none holding leaves the request to the merchant's queue.

export interface AutoRule {
  action: 'approve' | 'reject';
  /** A rejection's words, as the buyer is told them. */
  message: string | null;
  /** Conditions, all of which must hold; one left out holds for any request. */
  reasons: readonly string[] | null;
  orderValueMaxPaise: number | null;
  /** Every item asked for is one of these SKUs. */
  skus: readonly string[] | null;
  pickupPincodes: readonly string[] | null;
  buyerReturnsMax: number | null;
  buyerReturnsMin: number | null;
  buyerRtoMax: number | null;
  buyerRtoMin: number | null;
}

/** What the rules see of a request. */
export interface AutoDecisionFacts {
  reason: string;
  orderValuePaise: number;
  skus: readonly string[];
  pickupPincode: string;
  /** The buyer's earlier approved returns and RTOs with this account (by their phone). */
  buyerReturns: number;
  buyerRto: number;
}

export interface AutoDecision {
  action: 'approve' | 'reject';
  /** Its place in the store's rules, from 0. */
  rule: number;
  message: string | null;
}

const within = (value: number, min: number | null, max: number | null) =>
  (min === null || value >= min) && (max === null || value <= max);

function holds(rule: AutoRule, facts: AutoDecisionFacts): boolean {
  return (
    (rule.reasons === null || rule.reasons.includes(facts.reason)) &&
    (rule.orderValueMaxPaise === null || facts.orderValuePaise <= rule.orderValueMaxPaise) &&
    (rule.skus === null || facts.skus.every((sku) => rule.skus!.includes(sku))) &&
    (rule.pickupPincodes === null || rule.pickupPincodes.includes(facts.pickupPincode)) &&
    within(facts.buyerReturns, rule.buyerReturnsMin, rule.buyerReturnsMax) &&
    within(facts.buyerRto, rule.buyerRtoMin, rule.buyerRtoMax)
  );
}

/** The first rule that holds, or undefined: the request waits in the queue. */
export function autoDecision(rules: readonly AutoRule[], facts: AutoDecisionFacts): AutoDecision | undefined {
  const rule = rules.findIndex((r) => holds(r, facts));
  if (rule < 0) return undefined;
  const { action, message } = rules[rule]!;
  return { action, rule, message };
}
