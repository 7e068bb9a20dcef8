import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { isDatabaseUnavailable, isUniqueViolation } from '../../base/db/errors.js';
import { formatDay, indiaDayOf } from '../../domain/calendar.js';
import { type Actor, operatorFor, PERMISSION_NAMES } from '../../domain/access/permissions.js';
import { notFound } from '../../domain/errors.js';
import { createWorker } from '../../events/worker.js';
import type { RecordAudit } from '../../tenancy/audit/audit.js';
import { type ExportRunOptions, exportedTables, exportFiles, LEASE_MS, writeExport } from './account-export.job.js';
import * as repo from './account-export.repository.js';
import { hourlyJob } from './privacy-jobs.js';
import { PRIVACY_ERRORS } from './privacy.errors.js';

const HOUR_MS = 3_600_000;
/** Between two batches of the background job, so a large account is read without a burst. */
const PAUSE_BETWEEN_BATCHES_MS = 50;
/** How often the process that runs the timers looks for an export to write (a request wakes it at once). */
const EXPORT_POLL_MS = 10_000;
/** Starts of one export (processes that ended while writing it) before it is given up as failed. */
const MAX_ATTEMPTS = 5;

export interface ExportDeps {
  db: Db;
  clock: Clock;
  /** Where the archives are written: DATA_DIR/exports. */
  dir: string;
  keepHours: number;
  recordAudit: RecordAudit;
  onError: (error: unknown) => void;
}

/** An export as its routes answer it. */
export interface ExportView {
  id: string;
  status: 'running' | 'ready' | 'failed';
  tables_total: number;
  tables_done: number;
  rows_total: number;
  rows_written: number;
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
  bytes: number | null;
  error: string | null;
}

const view = (row: repo.ExportRow): ExportView => ({
  id: row.id,
  status: row.status as ExportView['status'],
  tables_total: row.tablesTotal,
  tables_done: row.tablesDone,
  rows_total: Number(row.rowsTotal),
  rows_written: Number(row.rowsWritten),
  created_at: row.createdAt.toISOString(),
  finished_at: row.finishedAt?.toISOString() ?? null,
  expires_at: row.expiresAt?.toISOString() ?? null,
  bytes: row.bytes === null ? null : Number(row.bytes),
  error: row.error,
});

/** The archive's name as a browser saves it: the account and the India date it was asked for. */
export const archiveName = (row: repo.ExportRow) =>
  `dakiya-export-${row.accountId}-${formatDay(indiaDayOf(row.createdAt))}.tar.gz`;

/**
 * An account's export (issue 52): everything the account holds, as one archive of JSON lines per
 * table and CSV for the main ones, credentials left out (export-secrets.ts). Asked for by the owner
 * or an admin; written in the background by the process that runs the timers, in batches with
 * pauses; kept ACCOUNT_EXPORT_KEEP_HOURS, then deleted by an hourly job. One at a time per account.
 */
export function createAccountExports({ db, clock, dir, keepHours, recordAudit, onError }: ExportDeps) {
  const keepMs = keepHours * HOUR_MS;
  /** The archive holds everything, buyers unmasked: only a credential that may read everything takes it. */
  const ownerOrAdmin = (actor: Actor) => {
    const everything = actor.scopes === null || PERMISSION_NAMES.every((p) => actor.scopes!.includes(p));
    if (!everything && actor.via !== 'operator')
      throw PRIVACY_ERRORS.account_export_owner_or_admin.error(
        "only the account's owner or an admin may export the account",
      );
  };
  const running = (row: repo.ExportRow) =>
    PRIVACY_ERRORS.account_export_running.error(
      `export ${row.id} of the account is being written (${row.tablesDone} of ${row.tablesTotal} tables): wait for it`,
    );
  const found = async (accountId: string, id: string) => {
    const row = await repo.exportOf(db, accountId, id, clock.now());
    if (!row) throw PRIVACY_ERRORS.account_export_not_found.error(`no export ${id} of the account`);
    return row;
  };

  /**
   * Writes the exports waiting (asked for, or left by a process that ended), one after another, or
   * only the export `only`; what became of them.
   */
  async function runPending(options: ExportRunOptions & { only?: string } = {}) {
    const done = { ready: 0, failed: 0, stopped: 0, gone: 0 };
    while (!options.signal?.aborted) {
      const now = clock.now();
      const row = await repo.claimNext(db, now, new Date(now.getTime() + LEASE_MS), options.only);
      if (!row) break;
      if (row.attempts > MAX_ATTEMPTS) {
        const why = `stopped ${MAX_ATTEMPTS} times before it was written (the server restarted or ran out of memory)`;
        done[(await fail(row, why)) ? 'failed' : 'gone'] += 1;
        continue;
      }
      try {
        const outcome = await writeExport({ db, clock, dir, keepMs }, row, options);
        done[outcome] += 1;
        if (outcome === 'stopped') break;
      } catch (error) {
        // The database away: the export waits for its lease to pass, and is written again then.
        if (isDatabaseUnavailable(error)) throw error;
        // Failed, unless it was no longer this process's (another took it up, its files with it).
        const failed = await fail(row, 'the archive could not be written: the server log says why');
        if (failed) onError(error);
        done[failed ? 'failed' : 'gone'] += 1;
      }
    }
    return done;
  }

  /** Records the export failed, if `row`'s attempt still holds it. */
  async function fail(row: repo.ExportRow, error: string): Promise<boolean> {
    const finishedAt = clock.now();
    const expiresAt = new Date(finishedAt.getTime() + keepMs);
    return repo.finish(db, row.id, row.attempts, { status: 'failed', error, finishedAt, expiresAt });
  }

  /** Deletes the exports past their time and their archives, and any file of the folder no export owns. */
  async function pruneExpired() {
    const expired = await repo.deleteExpired(db, clock.now());
    const known = await repo.knownIds(db);
    let files = 0;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const id = /^([0-9a-f-]{36})\./.exec(name)?.[1];
      if (id === undefined || known.has(id)) continue;
      await rm(path.join(dir, name), { recursive: true, force: true });
      files += 1;
    }
    return { exports: expired.length, files };
  }

  /** The archives of exports whose rows are gone (an erasure withdrew them). */
  async function removeArchives(ids: string[]) {
    for (const id of ids) await rm(exportFiles(dir, id).archive, { force: true });
  }

  /** An account's archives, removed as the account is deleted (its rows go with the account's). */
  async function removeFilesOf(accountId: string) {
    for (const id of await repo.idsOfAccount(db, accountId)) await rm(exportFiles(dir, id).archive, { force: true });
  }

  /** Starts an export of the actor's account, unless one is being written. */
  async function start(actor: Actor): Promise<ExportView> {
    ownerOrAdmin(actor);
    const { accountId } = actor;
    const already = await repo.runningExport(db, accountId);
    if (already) throw running(already);
    const tables = await exportedTables(db);
    let rowsTotal = 0;
    for (const table of tables) rowsTotal += await repo.countRows(db, table, accountId);
    const row = await db
      .transaction(async (tx) => {
        const made = await repo.insertExport(tx, {
          accountId,
          tablesTotal: tables.length,
          rowsTotal,
          createdAt: clock.now(),
        });
        await recordAudit(tx, actor, {
          action: 'account.exported',
          objectType: 'account_export',
          objectId: made.id,
          changes: { tables: tables.length, rows: rowsTotal },
        });
        return made;
      })
      .catch(async (error: unknown) => {
        // Two asked at once: the other one is being written.
        const other = isUniqueViolation(error) ? await repo.runningExport(db, accountId) : undefined;
        throw other ? running(other) : error;
      });
    worker.wake();
    return view(row);
  }

  const worker = createWorker(
    [
      {
        name: 'account-export',
        run: async (signal) => {
          await runPending({ pauseMs: PAUSE_BETWEEN_BATCHES_MS, signal });
          return false;
        },
      },
    ],
    { pollIntervalMs: EXPORT_POLL_MS, onError: (_task, error) => onError(error) },
  );
  const expiry = hourlyJob('account-export-expiry', pruneExpired, 0, onError);

  return {
    worker,
    expiry,
    runPending,
    pruneExpired,
    removeFilesOf,
    removeArchives,
    /** The operator's export of an account, written now by this process (the CLI): the export and its archive's path. */
    async exportNow(accountId: string) {
      if ((await repo.accountName(db, accountId)) === undefined) throw notFound(`no account ${accountId}`);
      const { id } = await start(operatorFor(accountId));
      await runPending({ only: id });
      const row = (await repo.exportOf(db, accountId, id, clock.now()))!;
      if (row.status !== 'ready') throw new Error(`export ${id} ${row.status}: ${row.error ?? 'it was not written'}`);
      return { ...view(row), file: exportFiles(dir, id).archive };
    },
    start,
    async get(actor: Actor, id: string): Promise<ExportView> {
      ownerOrAdmin(actor);
      return view(await found(actor.accountId, id));
    },
    async list(actor: Actor): Promise<ExportView[]> {
      ownerOrAdmin(actor);
      return (await repo.exportsOf(db, actor.accountId, clock.now())).map(view);
    },
    /** The archive of a ready export: its file, size and name; each download is in the audit log. */
    async archive(actor: Actor, id: string) {
      ownerOrAdmin(actor);
      const row = await found(actor.accountId, id);
      if (row.status !== 'ready')
        throw PRIVACY_ERRORS.export_not_ready.error(
          row.status === 'running'
            ? `export ${id} is still being written (${row.tablesDone} of ${row.tablesTotal} tables): ask again once its status is ready`
            : `export ${id} failed (${row.error ?? 'no reason kept'}): start another`,
        );
      const file = exportFiles(dir, id).archive;
      const bytes = await stat(file).then(
        (s) => s.size,
        () => undefined,
      );
      if (bytes === undefined)
        throw PRIVACY_ERRORS.account_export_not_found.error(
          `export ${id}'s archive is not on this server (DATA_DIR/exports): it was deleted, or written by a server with another DATA_DIR`,
        );
      await db.transaction((tx) =>
        recordAudit(tx, actor, {
          action: 'account.export_downloaded',
          objectType: 'account_export',
          objectId: id,
          changes: { bytes },
        }),
      );
      return { file, bytes, filename: archiveName(row) };
    },
  };
}

export type AccountExports = ReturnType<typeof createAccountExports>;
