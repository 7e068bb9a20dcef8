import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Db } from '../../base/db/client.js';
import { type NdrRule, ruleProblems } from '../../domain/rto/ndr-automation.js';
import { DEFAULT_THRESHOLDS, thresholdProblems } from '../../domain/rto/risk.js';
import { rupeesToPaise } from '../../domain/money.js';
import * as repo from './rto.repository.js';
import { RTO_ERRORS } from './rto.errors.js';
import type { RulesInput, ThresholdsInput } from './rto.schemas.js';

export type RtoSettingsService = ReturnType<typeof createRtoSettingsService>;

const thresholdsView = (t: { medium: number; high: number; high_value_paise: number } | null) => ({
  medium: t?.medium ?? DEFAULT_THRESHOLDS.medium,
  high: t?.high ?? DEFAULT_THRESHOLDS.high,
  high_value_cod: (t?.high_value_paise ?? DEFAULT_THRESHOLDS.highValuePaise) / 100,
  default: t === null,
});

/** An account's risk thresholds and NDR rules (docs/rto.md): read, and replaced whole. */
export function createRtoSettingsService({ db, clock }: { db: Db; clock: Clock }) {
  const record = auditRecorder(clock);
  return {
    async thresholds(accountId: string) {
      return thresholdsView((await repo.findSettings(db, accountId))?.thresholds ?? null);
    },

    async setThresholds(actor: Actor, input: ThresholdsInput) {
      const { accountId } = actor;
      const highValuePaise = rupeesToPaise(input.high_value_cod);
      const problems = thresholdProblems({ medium: input.medium, high: input.high, highValuePaise });
      if (problems.length > 0)
        throw RTO_ERRORS.rto_thresholds_invalid.error(
          problems.map((p) => p.message),
          problems,
        );
      const thresholds = { medium: input.medium, high: input.high, high_value_paise: highValuePaise };
      const row = await db.transaction(async (tx) => {
        await record(tx, actor, {
          action: 'rto_thresholds.set',
          objectType: 'rto_settings',
          objectId: null,
          changes: thresholds,
        });
        return repo.saveSettings(tx, accountId, { thresholds, updatedAt: clock.now() });
      });
      return thresholdsView(row.thresholds);
    },

    async rules(accountId: string) {
      return { rules: ((await repo.findSettings(db, accountId))?.ndrRules ?? []) as NdrRule[] };
    },

    async setRules(actor: Actor, input: RulesInput) {
      const { accountId } = actor;
      const rules = input.rules as NdrRule[];
      const problems = ruleProblems(rules);
      if (problems.length > 0)
        throw RTO_ERRORS.ndr_rules_invalid.error(
          problems.map((p) => p.message),
          problems,
        );
      const row = await db.transaction(async (tx) => {
        await record(tx, actor, {
          action: 'ndr_rules.set',
          objectType: 'ndr_rules',
          objectId: null,
          changes: { rules: rules.map((rule) => rule.name) },
        });
        return repo.saveSettings(tx, accountId, { ndrRules: rules, updatedAt: clock.now() });
      });
      return { rules: row.ndrRules as NdrRule[] };
    },
  };
}
