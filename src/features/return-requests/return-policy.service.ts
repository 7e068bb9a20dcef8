import type { Db } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Clock } from '../../base/clock.js';
import { paiseToRupees, rupeesToPaise } from '../../domain/money.js';
import { RETURN_REASONS } from '../../domain/return-requests/return-reasons.js';
import { STORE_ERRORS } from '../../tenancy/stores/stores.errors.js';
import { findStore } from '../../tenancy/stores/stores.repository.js';
import type { AutoRule } from '../../domain/return-requests/auto-decisions.js';
import { autoRuleView, readAutoRules } from './auto-rules.js';
import * as repo from './return-policy.repository.js';
import type { ReturnPolicyBody } from './return-policy.schemas.js';

// Each store's return policy (docs/returns.md): what its buyers may ask to send back, and when.

const view = (storeId: string, row: repo.PolicyRow | undefined) => ({
  store_id: storeId,
  window_days: row?.windowDays ?? 0,
  reasons: row?.reasons ?? [...RETURN_REASONS],
  non_returnable_skus: row?.nonReturnableSkus ?? [],
  non_returnable_categories: row?.nonReturnableCategories ?? [],
  refund_deduction_percent: row?.refundDeductionPercent ?? 0,
  return_shipping_fee: paiseToRupees(row?.returnShippingFeePaise ?? 0),
  refund_release: row?.refundRelease ?? 'warehouse',
  store_credit: row?.storeCredit ?? false,
  auto_rules: ((row?.autoRules ?? []) as AutoRule[]).map(autoRuleView),
  updated_at: row?.updatedAt.toISOString() ?? null,
});

export type ReturnPolicyService = ReturnType<typeof createReturnPolicyService>;

export function createReturnPolicyService({ db, clock }: { db: Db; clock: Clock }) {
  const record = auditRecorder(clock);
  async function requireStore(accountId: string, storeId: string) {
    if (!(await findStore(db, accountId, storeId))) throw STORE_ERRORS.store_not_found.error('Store not found');
  }
  return {
    /** The store's policy; a store never given one takes no requests. */
    async policy(accountId: string, storeId: string) {
      await requireStore(accountId, storeId);
      return view(storeId, await repo.findPolicy(db, accountId, storeId));
    },

    async savePolicy(actor: Actor, storeId: string, input: ReturnPolicyBody) {
      const { accountId } = actor;
      await requireStore(accountId, storeId);
      const saved = await db.transaction(async (tx) => {
        await record(tx, actor, {
          action: 'return_policy.set',
          objectType: 'store',
          objectId: storeId,
          changes: { window_days: input.window_days, refund_release: input.refund_release ?? 'warehouse' },
        });
        return repo.savePolicy(tx, {
          storeId,
          accountId,
          windowDays: input.window_days,
          reasons: input.reasons,
          nonReturnableSkus: [...new Set(input.non_returnable_skus.map((sku) => sku.trim()))],
          nonReturnableCategories: [...new Set(input.non_returnable_categories.map((category) => category.trim()))],
          refundDeductionPercent: input.refund_deduction_percent ?? 0,
          returnShippingFeePaise: rupeesToPaise(input.return_shipping_fee ?? 0),
          refundRelease: input.refund_release ?? 'warehouse',
          storeCredit: input.store_credit ?? false,
          autoRules: readAutoRules(input.auto_rules ?? []),
          updatedAt: clock.now(),
        });
      });
      return view(storeId, saved);
    },
  };
}
