import { and, eq } from 'drizzle-orm';
import { systemActor } from '../../domain/access/permissions.js';
import type { Executor, Tx } from '../../base/db/client.js';
import { orders } from '../../base/db/schema.js';
import { type AutoDecisionFacts, type AutoRule, autoDecision } from '../../domain/return-requests/auto-decisions.js';
import type { ReturnRequestView } from '../../shipment-records/return-request-view.js';
import { buyerHistories } from './buyer-history.js';
import type { ReturnRequestDecisions } from './return-request-decisions.js';
import * as policies from './return-policy.repository.js';

// A request decided by the store's auto rules as it comes in (docs/returns.md), in its creation's
// transaction: an approval books the return there and then. A decision that cannot be carried out
// (no courier books the return) is undone alone, and the request waits in the queue.

/** What the rules see of a request: its reason, items, order value, pickup pincode and the buyer's history. */
async function factsOf(ex: Executor, accountId: string, made: ReturnRequestView): Promise<AutoDecisionFacts> {
  // One after another: in the request's transaction, one connection takes one query at a time.
  const [order] = await ex
    .select({ value: orders.subTotalPaise })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.id, made.order_id)));
  const histories = await buyerHistories(ex, accountId, [made]);
  const history = histories.get(made.id)!;
  return {
    reason: made.reason,
    orderValuePaise: order?.value ?? 0,
    skus: made.items.map((item) => item.sku),
    pickupPincode: made.pickup_address.pincode,
    buyerReturns: history.other_returns_approved,
    buyerRto: history.rto,
  };
}

export type AutoDecide = (tx: Tx, accountId: string, made: ReturnRequestView) => Promise<ReturnRequestView>;

export function createAutoDecide(decisions: ReturnRequestDecisions): AutoDecide {
  return async (tx, accountId, made) => {
    const policy = await policies.findPolicy(tx, accountId, made.store_id);
    const rules = (policy?.autoRules ?? []) as AutoRule[];
    if (rules.length === 0) return made;
    const decided = autoDecision(rules, await factsOf(tx, accountId, made));
    if (!decided) return made;
    const byRule = systemActor(accountId, `the store's return rule ${decided.rule}`);
    try {
      // A savepoint: a decision refused is undone alone, the request kept.
      return await tx.transaction((decide) =>
        decided.action === 'approve'
          ? decisions.approve(byRule, made.id, decide, { rule: decided.rule })
          : decisions.reject(byRule, made.id, decided.message ?? '', decide, decided.rule),
      );
    } catch {
      // Rolled back to the savepoint (both drivers do, whatever was thrown): the request is kept,
      // pending in the queue, where the merchant's own approval says why it cannot be booked.
      return made;
    }
  };
}
