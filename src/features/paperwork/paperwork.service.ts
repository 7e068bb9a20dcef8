import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import * as repo from './paperwork.repository.js';

export type PaperworkSettingsService = ReturnType<typeof createPaperworkSettingsService>;
export type EwayBillCheck = 'refuse' | 'warn';

const view = (check: EwayBillCheck) => ({ eway_bill_check: check });

/** An account's paperwork settings (docs/paperwork.md): read, and set. */
export function createPaperworkSettingsService({ db, clock }: { db: Db; clock: Clock }) {
  const record = auditRecorder(clock);
  /** What a booking does with an order that needs an e-way bill and has none: refuse until set otherwise. */
  const ewayBillCheckOf = async (ex: Executor, accountId: string): Promise<EwayBillCheck> =>
    (await repo.findSettings(ex, accountId))?.ewayBillCheck ?? 'refuse';
  return {
    ewayBillCheckOf,

    async settings(accountId: string) {
      return view(await ewayBillCheckOf(db, accountId));
    },

    async setSettings(actor: Actor, input: { eway_bill_check: EwayBillCheck }) {
      const row = await db.transaction(async (tx) => {
        await record(tx, actor, {
          action: 'paperwork_settings.set',
          objectType: 'paperwork_settings',
          objectId: null,
          changes: { eway_bill_check: input.eway_bill_check },
        });
        return repo.saveSettings(tx, actor.accountId, {
          ewayBillCheck: input.eway_bill_check,
          updatedAt: clock.now(),
        });
      });
      return view(row.ewayBillCheck);
    },
  };
}
