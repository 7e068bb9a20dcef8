import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, pgliteDirectory, startPglite } from './client.js';
import { acquireDataDirLock, DataDirLockedError } from './lock.js';
import { migrate } from './migrate.js';

/**
 * Moving from the embedded database to PostgreSQL: `db export` writes the data directory as SQL
 * with PGlite's own pg_dump (a WebAssembly build speaking to PGlite in process), and `db import`
 * loads that file into an empty PostgreSQL database in one transaction. The dump carries the
 * whole schema, the rows, the sequences' positions and `dakiya_migrations`, so the import's
 * migration run afterwards applies only what a newer Dakiya added. Triggers and constraints are
 * created after the rows, so the listing's count triggers do not count the loaded rows twice.
 */

/** A refusal or a failure to report as it is: the message says what to do. */
export class TransferError extends Error {}

/** Rows per table of the public schema, by table name. */
export type RowCounts = Record<string, number>;

/** The last line of an export: what it holds, checked by the import. */
const TRAILER = '-- dakiya-export ';
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

export interface ExportResult {
  file: string;
  dataDir: string;
  bytes: number;
  rows: RowCounts;
}

/**
 * Dumps the embedded database in `dataDir` to `file` (created, never overwritten, readable by its
 * owner only: it holds credentials' hashes, webhook secrets and customers' addresses). Refused
 * while a server holds the directory: PGlite cannot be opened by two processes.
 */
export async function exportEmbedded(dataDir: string, file: string): Promise<ExportResult> {
  const target = path.resolve(file);
  if (!fs.existsSync(path.join(pgliteDirectory(dataDir), 'PG_VERSION'))) {
    throw new TransferError(
      `DATA_DIR ${dataDir} holds no embedded database (no ${pgliteDirectory(dataDir)}): nothing to export`,
    );
  }
  if (fs.existsSync(target)) throw new TransferError(`${file} already exists: name a new file`);
  if (!fs.existsSync(path.dirname(target))) throw new TransferError(`${path.dirname(file)}: no such directory`);
  let lock: { release(): void };
  try {
    lock = acquireDataDirLock(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new TransferError(
      `the embedded database in ${dataDir} is in use by a running Dakiya process (pid ${error.pid}): stop it, then export. ` +
        'Only one process may open the directory, and a copy of it taken while the server writes could be inconsistent',
    );
  }
  try {
    const client = await startPglite(dataDir);
    try {
      const rows = await countRows((text) =>
        client.query<{ n: number; name: string }>(text).then((result) => result.rows),
      );
      if (!('dakiya_migrations' in rows))
        throw new TransferError(`DATA_DIR ${dataDir} holds a database Dakiya never migrated: nothing to export`);
      // Loaded only here: its WebAssembly pg_dump is 0.7 MB.
      const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
      // No owners or grants: the tables belong to whoever imports them on the PostgreSQL server.
      const dump = await (await pgDump({ pg: client, args: ['--no-owner', '--no-privileges'] })).text();
      const text = `${dump.trimEnd()}\n\n${TRAILER}${JSON.stringify({ format: 1, rows })}\n`;
      const partial = `${target}.${process.pid}.partial`;
      fs.writeFileSync(partial, text, { mode: 0o600, flag: 'wx' });
      fs.renameSync(partial, target);
      return { file: target, dataDir, bytes: Buffer.byteLength(text), rows };
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
}

async function countRows(query: (text: string) => Promise<{ n: number; name: string }[]>): Promise<RowCounts> {
  const tables = await query(
    `select tablename as name, 0 as n from pg_tables where schemaname = 'public' order by tablename`,
  );
  const rows: RowCounts = {};
  for (const { name } of tables) {
    const [counted] = await query(`select count(*)::int as n, '' as name from public.${quoteIdentifier(name)}`);
    rows[name] = counted!.n;
  }
  return rows;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface ImportResult {
  file: string;
  database: string;
  loadedWith: 'psql' | 'pg';
  /** Settings of the dump's preamble that this PostgreSQL server does not know (a newer pg_dump's). */
  settingsSkipped: string[];
  rows: RowCounts;
  migrationsApplied: number;
}

/**
 * Loads an export into the empty PostgreSQL database `url` names, all or nothing: with `psql` when
 * given (pg_dump's own counterpart), else through the pg client in one multi-statement query. The rows
 * of every table are counted inside the same transaction, and a count that differs from the
 * export's rolls the whole import back. Then the migrations run, as at start-up.
 */
export async function importIntoPostgres(
  url: string,
  file: string,
  /** `env`: the environment psql runs in (the CLI's own), to which its password is added. */
  options: { psql: string | undefined; env?: Readonly<Record<string, string | undefined>> },
): Promise<ImportResult> {
  if (!fs.existsSync(file)) throw new TransferError(`${file}: no such file`);
  const text = fs.readFileSync(file, 'utf8');
  const exported = readTrailer(text, file);
  const database = new URL(url).pathname.slice(1) || 'postgres';
  const settingsSkipped: string[] = [];
  const client = new pg.Client({ connectionString: url });
  let script: string;
  try {
    await client.connect();
    const present = await client.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') order by c.relname`,
    );
    if (present.rows.length > 0) {
      const names = present.rows.slice(0, 3).map((row) => row.relname);
      throw new TransferError(
        `database ${database} is not empty (${present.rows.length} tables and sequences in its public schema: ${names.join(', ')}, …): ` +
          'import only into a new, empty database (createdb), before any Dakiya server has started on it',
      );
    }
    const known = new Set(
      (await client.query<{ name: string }>('select name from pg_settings')).rows.map((row) => row.name),
    );
    script = `${withoutUnknownSettings(text, known, settingsSkipped)}\n${REBASE_TRANSACTION_IDS}\n${countCheck(exported)}\n`;
    if (!options.psql) await loadWithClient(client, script);
  } finally {
    await client.end();
  }
  if (options.psql) await loadWithPsql(options.psql, url, script, options.env ?? {});
  const target = await openPostgres(url, 1);
  try {
    const migrationsApplied = await migrate(target.db);
    return {
      file: path.resolve(file),
      database,
      loadedWith: options.psql ? 'psql' : 'pg',
      settingsSkipped,
      rows: exported,
      migrationsApplied,
    };
  } finally {
    await target.close();
  }
}

function readTrailer(text: string, file: string): RowCounts {
  const at = text.lastIndexOf(`\n${TRAILER}`);
  let rows: unknown;
  try {
    rows = at >= 0 ? (JSON.parse(text.slice(at + 1 + TRAILER.length)) as { rows?: unknown }).rows : undefined;
  } catch {
    rows = undefined;
  }
  const valid =
    typeof rows === 'object' &&
    rows !== null &&
    'dakiya_migrations' in rows &&
    Object.entries(rows).every(([name, n]) => TABLE_NAME.test(name) && Number.isInteger(n) && (n as number) >= 0);
  if (!valid)
    throw new TransferError(
      `${file} is not a whole Dakiya export (made by npm run cli -- db export): its last line is missing or damaged`,
    );
  return rows as RowCounts;
}

/**
 * pg_dump writes its session settings first, each as `SET name = value;`. PGlite's pg_dump is
 * newer than many servers (it writes `transaction_timeout`, new in PostgreSQL 17), and a setting
 * the server does not know would stop the load; leaving it unset changes nothing, since each
 * only relaxes a limit or states a default for the load's session.
 */
function withoutUnknownSettings(text: string, known: Set<string>, skipped: string[]): string {
  return text.replace(/^SET ([a-z_]+) = [^\n]*;$/gm, (line, name: string) => {
    if (known.has(name)) return line;
    skipped.push(name);
    return `-- ${line} (not known to this server)`;
  });
}

/**
 * The event log is read in (txid, position) order, and an event counts as final once its txid is
 * below every running transaction's (events.repository.ts). The txids copied from PGlite are its
 * own counter's: on a server whose counter is behind it (a new one), the moved events would wait,
 * hidden, until the server caught up, and new events would sort before them, behind the consumers'
 * cursors, and never be delivered. So every moved event, and every cursor past one, takes the
 * import's own transaction id: lower than any transaction after the import, and final once it
 * commits. Their order is kept by position, since PGlite runs one transaction at a time, so its
 * positions already follow its txids.
 */
const REBASE_TRANSACTION_IDS = `update public.events set txid = pg_current_xact_id();
update public.event_consumers set after_txid = pg_current_xact_id() where after_txid <> '0'::xid8;`;

/** A statement that fails, rolling the import back, when a table's rows differ from the export's. */
function countCheck(rows: RowCounts): string {
  const checks = Object.entries(rows).map(
    ([name, n]) =>
      `  select count(*) into n from public.${quoteIdentifier(name)};\n` +
      `  if n <> ${n} then raise exception 'table ${name}: % rows loaded, ${n} exported', n; end if;`,
  );
  return `do $dakiya_check$\ndeclare n bigint;\nbegin\n${checks.join('\n')}\nend\n$dakiya_check$;`;
}

async function loadWithClient(client: pg.Client, script: string): Promise<void> {
  await client.query('begin');
  try {
    await client.query(script);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw new TransferError(`the import stopped, and nothing was imported: ${(error as Error).message}`);
  }
}

/** psql reads the script from its standard input; the password travels in its environment, not its arguments (visible to every user). */
async function loadWithPsql(
  psql: string,
  url: string,
  script: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const connection = new URL(url);
  const password = decodeURIComponent(connection.password);
  connection.password = '';
  const child = spawn(
    psql,
    [
      '--no-psqlrc',
      '--quiet',
      '--single-transaction',
      '--set',
      'ON_ERROR_STOP=1',
      '--dbname',
      connection.toString(),
      '--file',
      '-',
    ],
    {
      env: { ...env, ...(password && { PGPASSWORD: password }) },
      stdio: ['pipe', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  // psql stops reading at the first error; the rest of the script has nowhere to go.
  child.stdin.on('error', () => {});
  child.stdin.end(script);
  const code = await exited;
  if (code !== 0) {
    const reason =
      stderr
        .trim()
        .split('\n')
        .find((line) => /ERROR|FATAL|error:/.test(line)) ?? stderr.trim();
    throw new TransferError(`the import stopped, and nothing was imported: ${reason || `psql exited with ${code}`}`);
  }
}

/** psql on the PATH, or undefined: the import then loads through the pg client. */
export function findPsql(pathVariable: string): string | undefined {
  for (const folder of pathVariable.split(path.delimiter)) {
    if (!folder) continue;
    const candidate = path.join(folder, 'psql');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}
