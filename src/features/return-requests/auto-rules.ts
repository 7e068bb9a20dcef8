import type { AutoRule } from '../../domain/return-requests/auto-decisions.js';
import { paiseToRupees, rupeesToPaise } from '../../domain/money.js';
import type { AutoRuleBody } from './return-policy.schemas.js';
import { RETURN_REQUEST_ERRORS } from './return-requests.errors.js';

// A store's auto rules as the API writes them (snake case, rupees, conditions under `when`) and as
// the rules engine reads them (domain/return-requests/auto-decisions.ts): kept in the engine's form.

/** The rules as kept, each reject with its words; a reject without them is refused naming it. */
export function readAutoRules(rules: readonly AutoRuleBody[]): AutoRule[] {
  const unworded = rules.flatMap((rule, i) => (rule.action === 'reject' && !rule.message ? [i] : []));
  if (unworded.length > 0)
    throw RETURN_REQUEST_ERRORS.return_policy_invalid.error(
      unworded.map((i) => `auto_rules.${i}.message is required to reject: the buyer is told it`),
      unworded.map((i) => ({
        field: `auto_rules.${i}.message`,
        message: 'is required to reject: the buyer is told it',
      })),
    );
  return rules.map(({ action, message, when = {} }) => ({
    action: action as AutoRule['action'],
    message: action === 'reject' ? message!.trim() : null,
    reasons: when.reasons ?? null,
    orderValueMaxPaise: when.order_value_max === undefined ? null : rupeesToPaise(when.order_value_max),
    skus: when.skus?.map((sku) => sku.trim()) ?? null,
    pickupPincodes: when.pickup_pincodes ?? null,
    buyerReturnsMax: when.buyer_returns_max ?? null,
    buyerReturnsMin: when.buyer_returns_min ?? null,
    buyerRtoMax: when.buyer_rto_max ?? null,
    buyerRtoMin: when.buyer_rto_min ?? null,
  }));
}

/** A kept rule as the API answers it: the conditions it has, nothing for those it does not. */
export function autoRuleView(rule: AutoRule): AutoRuleBody {
  const when: NonNullable<AutoRuleBody['when']> = {
    ...(rule.reasons && { reasons: [...rule.reasons] }),
    ...(rule.orderValueMaxPaise !== null && { order_value_max: paiseToRupees(rule.orderValueMaxPaise) }),
    ...(rule.skus && { skus: [...rule.skus] }),
    ...(rule.pickupPincodes && { pickup_pincodes: [...rule.pickupPincodes] }),
    ...(rule.buyerReturnsMax !== null && { buyer_returns_max: rule.buyerReturnsMax }),
    ...(rule.buyerReturnsMin !== null && { buyer_returns_min: rule.buyerReturnsMin }),
    ...(rule.buyerRtoMax !== null && { buyer_rto_max: rule.buyerRtoMax }),
    ...(rule.buyerRtoMin !== null && { buyer_rto_min: rule.buyerRtoMin }),
  };
  return { action: rule.action, ...(rule.message !== null && { message: rule.message }), when };
}
