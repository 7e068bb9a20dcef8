import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, type DedicatedSession, dedicatedSession, queryRows } from './client.js';

/**
 * One import per account at a time (issue 46, decision 134), whichever the kind (a remittance file,
 * a weight report) and whichever process of a cluster takes it. In this process a map decides at
 * once; on PostgreSQL the account's advisory lock decides between processes. The lock is a session
 * lock on a connection the import keeps for its whole run (its upload, its parse and its
 * transaction run on it), so a process that dies mid-import loses the lock with its connection:
 * nothing to expire, nothing left behind. The `running_imports` row says what runs, for the answer
 * the next import gets; the lock, not the row, says whether it still runs.
 */

export interface RunningImport {
  id: string;
  kind: string;
  fileName: string | null;
  startedAt: Date;
}

/** An import holding its account's slot: the database it must run on, and the release. */
export interface ImportSlot {
  readonly running: RunningImport;
  /** The import's own connection (on PGlite, the database): its transaction runs here. */
  readonly db: Db;
  release(): Promise<void>;
}

/** Another import of the account runs; `running` is it, when it could be told (null while it is still starting). */
export class ImportBusy extends Error {
  constructor(readonly running: RunningImport | null) {
    super('another import of this account is running');
    this.name = 'ImportBusy';
  }
}

export type ImportSlots = ReturnType<typeof createImportSlots>;

const lockKey = (accountId: string) => sql`hashtextextended('import:' || ${accountId}::text, 0)`;

interface RunningRow {
  id: string;
  kind: string;
  fileName: string | null;
  startedAt: Date | string;
}

const asRunning = (row: RunningRow): RunningImport => ({ ...row, startedAt: new Date(row.startedAt) });

export function createImportSlots(db: Db) {
  const local = new Map<string, RunningImport>();

  /** Takes the lock and writes the row in one statement; null when another session holds the lock. */
  async function lock(session: DedicatedSession, accountId: string, running: RunningImport): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      session.db,
      sql`with lock as (select pg_try_advisory_lock(${lockKey(accountId)}) as held)
      insert into running_imports (account_id, id, kind, file_name, started_at, holder_pid)
      select ${accountId}, ${running.id}, ${running.kind}, ${running.fileName}, ${running.startedAt.toISOString()}::timestamptz,
        pg_backend_pid()
      from lock where held
      on conflict (account_id) do update set id = excluded.id, kind = excluded.kind, file_name = excluded.file_name,
        started_at = excluded.started_at, holder_pid = excluded.holder_pid
      returning id`,
    );
    return rows.length > 0;
  }

  /** What another process runs for the account: the row its live session wrote. */
  async function runningElsewhere(accountId: string): Promise<RunningImport | null> {
    const [row] = await queryRows<RunningRow>(
      db,
      sql`select id, kind, file_name as "fileName", started_at as "startedAt" from running_imports
      where account_id = ${accountId} and holder_pid in (select pid from pg_stat_activity)`,
    );
    return row ? asRunning(row) : null;
  }

  return {
    /**
     * Takes the account's slot for an import of `kind`, or throws ImportBusy naming the one that
     * holds it. The caller must release the slot however the import ends.
     */
    async take(accountId: string, kind: string, fileName: string | null, now: Date): Promise<ImportSlot> {
      const held = local.get(accountId);
      if (held) throw new ImportBusy(held);
      const running: RunningImport = { id: randomUUID(), kind, fileName, startedAt: now };
      // Set before the first await: two requests of this process decide here, in order.
      local.set(accountId, running);
      let session: DedicatedSession | undefined;
      try {
        session = await dedicatedSession(db);
        if (session.engine === 'postgres' && !(await lock(session, accountId, running))) {
          session.release();
          session = undefined;
          throw new ImportBusy(await runningElsewhere(accountId));
        }
      } catch (error) {
        // A failed statement may have left the session lock held: the connection is closed, not reused.
        session?.release(true);
        local.delete(accountId);
        throw error;
      }
      const taken = session;
      let released = false;
      return {
        running,
        db: taken.db,
        async release() {
          if (released) return;
          released = true;
          try {
            if (taken.engine === 'postgres') {
              await queryRows(
                taken.db,
                sql`with gone as (delete from running_imports where account_id = ${accountId} and id = ${running.id})
                select pg_advisory_unlock(${lockKey(accountId)})`,
              );
            }
            taken.release();
          } catch {
            // The connection failed: closing it ends its session, and the lock with it.
            taken.release(true);
          } finally {
            local.delete(accountId);
          }
        },
      };
    },

    /** The import this process runs for the account, if any. */
    running: (accountId: string): RunningImport | undefined => local.get(accountId),
  };
}
