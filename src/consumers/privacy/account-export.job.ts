import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { LineFile, TarGzWriter } from './account-export.archive.js';
import * as repo from './account-export.repository.js';
import { SHEETS, sheetHeader, sheetLine } from './account-export.sheets.js';
import { accountTables } from './account-tables.js';
import { EXCLUDED_COLUMNS, EXCLUDED_TABLES, excludedColumn } from './export-secrets.js';

// The writing of one export (issue 52): table after table, each read in batches by its primary key
// and written as JSON lines (and, for the main tables, CSV) to a file of its own, then copied into
// the archive; a manifest last. The row's progress is written after every batch, which also renews
// the process's hold (its lease): a process that ends mid-way leaves the export to the next one.

/** The archive's layout; a reader checks it before anything else. */
export const FORMAT_VERSION = 1;
/** Rows per batch; a table with bytes (logos, photos) takes a few at a time, to keep memory small. */
const BATCH_ROWS = 1000;
const BATCH_ROWS_WITH_BYTES = 5;
/** How long a process holds an export it writes without a word: past it, another takes it up. */
export const LEASE_MS = 5 * 60_000;

export interface JobDeps {
  db: Db;
  clock: Clock;
  /** DATA_DIR/exports. */
  dir: string;
  /** How long a finished export is kept (ACCOUNT_EXPORT_KEEP_HOURS). */
  keepMs: number;
}

/** How a run goes: pauses between batches, stopped by the process's end, and (tests) a look after each batch. */
export interface ExportRunOptions {
  pauseMs?: number;
  signal?: AbortSignal;
  afterBatch?: (progress: { exportId: string; table: string; rowsWritten: number }) => Promise<void> | void;
}

/** The files of an export: the archive, and what one attempt writes on its way (its own, so a late process never touches another's). */
export const exportFiles = (dir: string, id: string, attempt = 0) => ({
  archive: path.join(dir, `${id}.tar.gz`),
  partial: path.join(dir, `${id}.${attempt}.tar.gz.part`),
  work: path.join(dir, `${id}.${attempt}.work`),
});

/** The tables an export holds, in its order: the account's own row, then every table with an account_id but those left out. */
export async function exportedTables(db: Db): Promise<string[]> {
  const tables = (await accountTables(db)).filter((table) => !Object.hasOwn(EXCLUDED_TABLES, table));
  return ['accounts', ...tables];
}

type Outcome = 'ready' | 'stopped' | 'gone';

/** What attempts before this one left (their process ended mid-way), removed: a stalled one's writes are refused anyway. */
async function removeEarlierAttempts(dir: string, id: string, attempt: number) {
  for (const name of await readdir(dir)) {
    const earlier = name.startsWith(`${id}.`) && Number(/^[^.]+\.(\d+)\./.exec(name)?.[1] ?? attempt) < attempt;
    if (earlier) await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/** The export is no longer this attempt's (found while copying a file into the archive). */
class GoneError extends Error {}

/**
 * Writes the export `row` holds (claimed by this process: attempt `row.attempts`) and records it
 * ready; or stops (the process is ending: the export is let go, for the next start to take up), or
 * finds it gone (deleted with its account, or taken up by another process after this one stalled).
 */
export async function writeExport(
  deps: JobDeps,
  row: repo.ExportRow,
  options: ExportRunOptions = {},
): Promise<Outcome> {
  const { db, clock, dir } = deps;
  const files = exportFiles(dir, row.id, row.attempts);
  await mkdir(files.work, { recursive: true, mode: 0o700 });
  await removeEarlierAttempts(dir, row.id, row.attempts);
  const tar = new TarGzWriter(files.partial, row.createdAt);
  const progress = { tablesDone: 0, rowsWritten: 0 };
  let lastWord = clock.now().getTime();
  /** Progress written and the hold renewed; false when the export is no longer this attempt's. */
  const tell = async () => {
    lastWord = clock.now().getTime();
    return repo.recordProgress(db, row.id, row.attempts, { ...progress, leaseUntil: new Date(lastWord + LEASE_MS) });
  };
  /** The process is ending: the export is let go at once, for the next process to start to take up without waiting for the lease. */
  const letGo = async (): Promise<Outcome> => {
    await repo.recordProgress(db, row.id, row.attempts, { leaseUntil: null });
    return 'stopped';
  };
  /** A long copy renews the hold now and then (a year of events is gigabytes of lines). */
  const renew = async () => {
    if (clock.now().getTime() - lastWord > LEASE_MS / 4 && !(await tell())) throw new GoneError();
  };
  let ready = false;
  try {
    const name = (await repo.accountName(db, row.accountId)) ?? '';
    const tables = await exportedTables(db);
    const shapes = await repo.tableShapes(db, tables);
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const shape = shapes.get(table);
      if (!shape) continue;
      if (options.signal?.aborted) return await letGo();
      const written = await writeTable(db, shape, row.accountId, files.work, {
        ...options,
        onBatch: async (rows) => {
          progress.rowsWritten += rows;
          if (!(await tell())) return false;
          await options.afterBatch?.({ exportId: row.id, table, rowsWritten: progress.rowsWritten });
          return true;
        },
      });
      if (written === 'stopped') return await letGo();
      // Still this attempt's: a process that stalled meanwhile finds its files taken by the next attempt.
      if (written === 'gone' || !(await tell())) return 'gone';
      counts[table] = written;
      for (const file of [`${table}.jsonl`, SHEETS[table]?.file]) {
        if (file === undefined) continue;
        await tar.addFile(file.endsWith('.jsonl') ? `tables/${file}` : file, path.join(files.work, file), renew);
        await rm(path.join(files.work, file), { force: true });
      }
      progress.tablesDone += 1;
      if (!(await tell())) return 'gone';
    }
    const about = manifest({ ...row, name }, counts);
    await tar.addBytes('manifest.json', Buffer.from(`${JSON.stringify(about, null, 2)}\n`));
    const bytes = await tar.close();
    await rename(files.partial, files.archive);
    const finishedAt = clock.now();
    ready = await repo.finish(db, row.id, row.attempts, {
      status: 'ready',
      bytes,
      finishedAt,
      expiresAt: new Date(finishedAt.getTime() + deps.keepMs),
      ...progress,
    });
    if (!ready) await rm(files.archive, { force: true });
    return ready ? 'ready' : 'gone';
  } catch (error) {
    if (error instanceof GoneError) return 'gone';
    throw error;
  } finally {
    if (!ready) await tar.abort();
    await rm(files.work, { recursive: true, force: true });
    await rm(files.partial, { force: true });
  }
}

interface TableRun extends ExportRunOptions {
  /** After each batch written, with its rows: false when the export is no longer this attempt's. */
  onBatch(rows: number): Promise<boolean>;
}

/** One table's rows to `work/<table>.jsonl` (and its sheet); how many, or why it stopped. */
async function writeTable(
  db: Db,
  shape: repo.TableShape,
  accountId: string,
  work: string,
  { pauseMs = 0, signal, onBatch }: TableRun,
): Promise<number | 'stopped' | 'gone'> {
  const columns = shape.columns.map((c) => c.name).filter((name) => !excludedColumn(shape.table, name));
  const withBytes = shape.columns.some((c) => c.type === 'bytea' && columns.includes(c.name));
  const limit = withBytes ? BATCH_ROWS_WITH_BYTES : BATCH_ROWS;
  const sheet = SHEETS[shape.table];
  const extra = Object.values(sheet?.extra ?? {});
  const names = columns.map((name) => JSON.stringify(name));
  const lines = new LineFile(path.join(work, `${shape.table}.jsonl`));
  const csv = sheet && new LineFile(path.join(work, sheet.file));
  let count = 0;
  try {
    if (csv && sheet) await csv.write(sheetHeader(sheet));
    for (let after: string[] | null = null; ; ) {
      const batch: repo.Batch = await repo.readBatch(db, shape, {
        accountId,
        columns,
        extra,
        after,
        limit,
      });
      let text = '';
      let csvText = '';
      for (const { values, extra: extraValues } of batch.rows) {
        text += `{${values.map((value, i) => `${names[i]}:${value ?? 'null'}`).join(',')}}\n`;
        if (sheet) csvText += sheetLine(sheet, new Map(columns.map((c, i) => [c, values[i] ?? null])), extraValues);
      }
      await lines.write(text);
      await csv?.write(csvText);
      count += batch.rows.length;
      if (batch.rows.length > 0 && !(await onBatch(batch.rows.length))) return 'gone';
      if (batch.rows.length < limit || batch.last === null) break;
      after = batch.last;
      if (signal?.aborted) return 'stopped';
      if (pauseMs > 0) await pause(pauseMs, undefined, { signal }).catch(() => undefined);
      if (signal?.aborted) return 'stopped';
    }
    await lines.close();
    await csv?.close();
    return count;
  } finally {
    lines.destroy();
    csv?.destroy();
  }
}

/** What the archive holds, and what it leaves out and why. */
function manifest(row: repo.ExportRow & { name: string }, counts: Record<string, number>) {
  return {
    format_version: FORMAT_VERSION,
    export_id: row.id,
    account: { id: row.accountId, name: row.name },
    created_at: row.createdAt.toISOString(),
    tables: Object.fromEntries(
      Object.entries(counts).map(([table, rows]) => [table, { file: `tables/${table}.jsonl`, rows }]),
    ),
    spreadsheets: Object.fromEntries(
      Object.entries(SHEETS)
        .filter(([table]) => Object.hasOwn(counts, table))
        .map(([table, sheet]) => [sheet.file, { table, rows: counts[table] }]),
    ),
    rows: Object.values(counts).reduce((sum, rows) => sum + rows, 0),
    left_out: { tables: EXCLUDED_TABLES, columns: EXCLUDED_COLUMNS },
  };
}
