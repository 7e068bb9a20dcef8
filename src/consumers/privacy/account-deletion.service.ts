import { setTimeout as pause } from 'node:timers/promises';
import type { Actor } from '../../domain/access/permissions.js';
import { notFound } from '../../domain/errors.js';
import { isOwnerScope } from '../../domain/access/roles.js';
import { hourlyJob, type PrivacyJobDeps, type RunOptions } from './privacy-jobs.js';
import * as repo from './account-deletion.repository.js';
import { PRIVACY_ERRORS } from './privacy.errors.js';

const DAY_MS = 86_400_000;
/** Rows deleted per statement, each statement its own transaction: no lock held for long. */
const BATCH_ROWS = 1000;
/** Between two batches of the background job, so a large account drains without a burst. */
const PAUSE_BETWEEN_BATCHES_MS = 50;
const MAX_PASSES = 3;

/** What deleting an account removed, by table. */
export interface DeletionReport {
  accounts: number;
  deleted: Record<string, number>;
}

const view = (row: repo.Scheduled | undefined) =>
  row === undefined
    ? null
    : { requested_at: new Date(row.requested_at).toISOString(), due_at: new Date(row.due_at).toISOString() };

/**
 * An account's deletion (issue 52): asked for by its owner, who names the account to be sure, and
 * carried out ACCOUNT_DELETION_GRACE_DAYS later by a background job (or at once by the operator):
 * every row of every table that has the account's id, table by table in the order the foreign keys
 * allow, in short batches, then the account itself. A run that stops half-way is taken up by the next.
 */
export function createAccountDeletion({
  db,
  clock,
  settings,
  recordAudit,
  onError,
  removeFiles,
}: PrivacyJobDeps & {
  /** What the account keeps outside the database (its exports' archives), removed before its rows go. */
  removeFiles: (accountId: string) => Promise<void>;
}) {
  const ownerOnly = (actor: Actor) => {
    if (!isOwnerScope(actor.scopes) && actor.via !== 'operator')
      throw PRIVACY_ERRORS.account_deletion_owner_only.error("only the account's owner may delete it");
  };

  async function deleteAccount(accountId: string, { pauseMs = 0, signal }: RunOptions = {}) {
    const deleted: Record<string, number> = {};
    await repo.closeLogin(db, accountId);
    await removeFiles(accountId);
    deleted.sandbox_parcels = await repo.deleteSandboxParcels(db, accountId);
    const order = await repo.deletionOrder(db);
    // Deleting shipments makes their triggers write the counts' rows again (shipment_counts): a
    // second pass takes what the first left behind, until one deletes nothing.
    for (let pass = 0, gonePass = 1; gonePass > 0 && pass < MAX_PASSES; pass += 1) {
      gonePass = 0;
      for (const table of order) {
        for (;;) {
          const gone = await repo.deleteBatch(db, table, accountId, BATCH_ROWS);
          if (gone > 0) deleted[table] = (deleted[table] ?? 0) + gone;
          gonePass += gone;
          if (gone < BATCH_ROWS) break;
          if (signal?.aborted) return undefined;
          if (pauseMs > 0) await pause(pauseMs, undefined, { signal }).catch(() => undefined);
        }
      }
    }
    deleted.accounts = await repo.deleteAccountRow(db, accountId);
    return Object.fromEntries(Object.entries(deleted).filter(([, rows]) => rows > 0));
  }

  async function deleteDue({ pauseMs = 0, signal }: RunOptions = {}) {
    const report: DeletionReport = { accounts: 0, deleted: {} };
    for (const accountId of await repo.due(db, clock.now())) {
      const deleted = await deleteAccount(accountId, { pauseMs, signal });
      if (deleted === undefined) break;
      report.accounts += 1;
      for (const [table, rows] of Object.entries(deleted)) report.deleted[table] = (report.deleted[table] ?? 0) + rows;
    }
    return report;
  }

  const worker = hourlyJob('account-deletion', deleteDue, PAUSE_BETWEEN_BATCHES_MS, onError);

  const status = async (accountId: string) => ({ deletion: view(await repo.scheduled(db, accountId)) });

  return {
    worker,
    deleteDue,
    status,
    /** The owner's request: the account is deleted after the grace period unless taken back. */
    async request(actor: Actor, confirmName: string) {
      ownerOnly(actor);
      const name = await repo.accountName(db, actor.accountId);
      if (name === undefined || name.trim().toLowerCase() !== confirmName.trim().toLowerCase())
        throw PRIVACY_ERRORS.account_name_mismatch.error(
          "confirm_account_name must be the account's name, as the panel shows it",
          'confirm_account_name',
        );
      const now = clock.now();
      const dueAt = new Date(now.getTime() + settings.accountDeletionGraceDays * DAY_MS);
      await db.transaction(async (tx) => {
        await repo.schedule(tx, actor.accountId, now, dueAt);
        await recordAudit(tx, actor, {
          action: 'account.deletion_requested',
          objectType: 'account',
          objectId: actor.accountId,
          changes: { due_at: dueAt.toISOString() },
        });
      });
      return status(actor.accountId);
    },
    async cancel(actor: Actor) {
      ownerOnly(actor);
      await db.transaction(async (tx) => {
        if (!(await repo.unschedule(tx, actor.accountId)))
          throw PRIVACY_ERRORS.account_deletion_not_requested.error('the account has no deletion pending');
        await recordAudit(tx, actor, {
          action: 'account.deletion_cancelled',
          objectType: 'account',
          objectId: actor.accountId,
        });
      });
      return { deletion: null };
    },
    /** The operator's deletion of an account now, without the grace period. */
    async deleteNow(accountId: string): Promise<DeletionReport> {
      if ((await repo.accountName(db, accountId)) === undefined) throw notFound(`no account ${accountId}`);
      await repo.schedule(db, accountId, clock.now(), clock.now());
      const deleted = (await deleteAccount(accountId)) ?? {};
      return { accounts: 1, deleted };
    },
  };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
