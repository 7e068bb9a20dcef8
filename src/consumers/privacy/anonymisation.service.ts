import { setTimeout as pause } from 'node:timers/promises';
import type { Actor } from '../../domain/access/permissions.js';
import { noBuyerValues } from '../../domain/privacy/buyer-scrub.js';
import { hourlyJob, type PrivacyJobDeps, type RunOptions } from './privacy-jobs.js';
import * as repo from './anonymisation.repository.js';
import { scrubBuyerCopies } from './buyer-copies.js';
import { findSubjects, openParcels } from './erasure.repository.js';
import { ANONYMISE_MIN_DAYS } from './privacy.settings.js';

/** Orders and returns picked at once; each is its own transaction. */
const BATCH = 100;
/** Between two batches of the background job, so a year's backlog drains without a burst. */
const PAUSE_BETWEEN_BATCHES_MS = 200;

/** What a run anonymised: the orders' and returns' buyers scrubbed, rows changed by table, and those left for later. */
export interface AnonymisationReport {
  orders: number;
  returns: number;
  /** Picked but left: something of theirs (an exchange's new parcel) is still on its way. */
  left: number;
  erased: Record<string, number>;
}

/**
 * Anonymisation of finished shipments' buyers (issue 52): once a shipment (or a return of no
 * forward shipment) has been finished for its account's period, its buyer's copies are scrubbed as
 * an erasure scrubs them, but of that order's rows alone: the buyer's newer orders, their RTO
 * history and a store's other orders stay.
 */
export function createAnonymisation({ db, clock, settings, recordAudit, onError }: PrivacyJobDeps) {
  async function anonymiseOne(due: repo.Due): Promise<Record<string, number> | undefined> {
    return db.transaction(async (tx) => {
      const subjects = await findSubjects(tx, due.account_id, {
        ...(due.order_id && { orderRows: [due.order_id] }),
        ...(due.return_id && { returnRows: [due.return_id] }),
      });
      if ((await openParcels(tx, due.account_id, subjects)).length > 0) return undefined;
      const { erased } = await scrubBuyerCopies(tx, due.account_id, subjects, noBuyerValues(), 'anonymisation');
      await repo.markAnonymised(tx, due.account_id, subjects, clock.now());
      return erased;
    });
  }

  async function anonymiseDue({ pauseMs = 0, signal }: RunOptions = {}) {
    const report: AnonymisationReport = { orders: 0, returns: 0, left: 0, erased: {} };
    const skip: string[] = [];
    for (;;) {
      const picked = await repo.dueForAnonymisation(db, {
        now: clock.now(),
        defaultDays: settings.anonymiseAfterDays,
        floorDays: ANONYMISE_MIN_DAYS,
        limit: BATCH,
        skip,
      });
      for (const due of picked) {
        const erased = await anonymiseOne(due);
        if (erased === undefined) {
          skip.push((due.order_id ?? due.return_id)!);
          report.left += 1;
          continue;
        }
        if (due.order_id) report.orders += 1;
        else report.returns += 1;
        for (const [table, rows] of Object.entries(erased)) report.erased[table] = (report.erased[table] ?? 0) + rows;
      }
      if (picked.length < BATCH || signal?.aborted) return report;
      if (pauseMs > 0) await pause(pauseMs, undefined, { signal }).catch(() => undefined);
    }
  }

  const worker = hourlyJob('anonymisation', anonymiseDue, PAUSE_BETWEEN_BATCHES_MS, onError);

  return {
    anonymiseDue,
    worker,
    /** The account's period: its own, or the operator's default. */
    async period(accountId: string) {
      const own = await repo.accountPeriod(db, accountId);
      return { anonymise_buyers_after_days: own ?? settings.anonymiseAfterDays, default: own === null };
    },
    async setPeriod(actor: Actor, days: number) {
      await db.transaction(async (tx) => {
        await recordAudit(tx, actor, {
          action: 'privacy_settings.set',
          objectType: 'privacy_settings',
          objectId: null,
          changes: { anonymise_buyers_after_days: days },
        });
        await repo.setAccountPeriod(tx, actor.accountId, days, clock.now());
      });
      return { anonymise_buyers_after_days: days, default: false };
    },
  };
}

export type Anonymisation = ReturnType<typeof createAnonymisation>;
