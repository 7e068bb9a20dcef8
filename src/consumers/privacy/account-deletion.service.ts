import { setTimeout as pause } from 'node:timers/promises';
import type { Actor } from '../../domain/access/permissions.js';
import { isForeignKeyViolation } from '../../base/db/errors.js';
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
/** Passes over the tables before a run gives up on an account still being written to (the next run takes it up). */
const MAX_PASSES = 10;
const PAUSE_AFTER_OVERTAKEN_MS = 100;

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

  /**
   * One pass over the tables, adding what it deletes to `deleted`: how many rows it deleted, or
   * whether a table was refused because a row referencing it was written after its own table's
   * turn (the app's senders and sweeps keep writing for the account's events and shipments until
   * those are gone).
   */
  async function deletePass(accountId: string, order: string[], deleted: Record<string, number>, options: RunOptions) {
    let gonePass = 0;
    for (const table of order) {
      for (;;) {
        let gone: number;
        try {
          gone = await repo.deleteBatch(db, table, accountId, BATCH_ROWS);
        } catch (error) {
          if (isForeignKeyViolation(error)) return { gone: gonePass, overtaken: true };
          throw error;
        }
        if (gone > 0) deleted[table] = (deleted[table] ?? 0) + gone;
        gonePass += gone;
        if (gone < BATCH_ROWS) break;
        if (options.signal?.aborted) return undefined;
        if (options.pauseMs) await pause(options.pauseMs, undefined, { signal: options.signal }).catch(() => undefined);
      }
    }
    return { gone: gonePass, overtaken: false };
  }

  async function deleteAccount(accountId: string, options: RunOptions = {}) {
    const deleted: Record<string, number> = {};
    await repo.closeLogin(db, accountId);
    await removeFiles(accountId);
    deleted.sandbox_parcels = await repo.deleteSandboxParcels(db, accountId);
    const order = await repo.deletionOrder(db);
    // Deleting shipments makes their triggers write the counts' rows again (shipment_counts), and
    // a writer may add a row after its table's turn: passes go on until one deletes nothing and
    // the account's own row goes.
    for (let pass = 1; ; pass += 1) {
      const outcome = await deletePass(accountId, order, deleted, options);
      if (outcome === undefined) return undefined;
      let { overtaken } = outcome;
      if (!overtaken && outcome.gone === 0) {
        try {
          const last = await db.transaction((tx) => repo.deleteAccountRow(tx, accountId));
          deleted.account_deletions = last.schedules;
          deleted.accounts = last.accounts;
          break;
        } catch (error) {
          if (!isForeignKeyViolation(error)) throw error;
          overtaken = true;
        }
      }
      if (pass === MAX_PASSES)
        throw new Error(`account ${accountId} was still being written to after ${MAX_PASSES} passes of its deletion`);
      // Lets the writer that got ahead finish its transaction before the next pass.
      if (overtaken)
        await pause(PAUSE_AFTER_OVERTAKEN_MS, undefined, { signal: options.signal }).catch(() => undefined);
    }
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
