import { createHash } from 'node:crypto';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What a repository function runs its queries on: the database, or the service's transaction. */
export type Executor = Db | Tx;

export interface Database {
  readonly db: Db;
  readonly engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * Embedded PostgreSQL in WASM; in memory when no directory is given (tests), started from a
 * `dumpDataDir()` tarball when one is (tests copy a database migrated once per run). `settings`:
 * server settings for this start (`-c name=value`), such as a smaller `shared_buffers` for a
 * short-lived test database, whose start would otherwise clear 128 MB of page buffers.
 */
export async function openPglite(dataDir?: string, from?: Blob, settings?: Record<string, string>): Promise<Database> {
  const client = await startPglite(dataDir, from, settings);
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    engine: 'pglite',
    close: () => client.close(),
  };
}

/**
 * The write-ahead log's old segments are removed, not renamed for reuse, so that the storage
 * compaction after an erasure (compaction.ts) leaves no copy of the erased rows in the data
 * directory; a new segment is then made without writing its zeros first, as the reuse saved.
 */
const EMBEDDED_SETTINGS: Record<string, string> = { wal_recycle: 'off', wal_init_zero: 'off' };

/** Where a DATA_DIR keeps the embedded database's files. */
export const pgliteDirectory = (dataDir: string) => path.join(dataDir, 'pglite');

/** The PGlite instance itself, for what goes around Drizzle (the export's pg_dump). */
export async function startPglite(dataDir?: string, from?: Blob, settings?: Record<string, string>): Promise<PGlite> {
  // Options must travel in the first argument: PGlite ignores a second one when the first is undefined.
  const client = new PGlite({
    ...(dataDir && { dataDir: pgliteDirectory(dataDir) }),
    ...(from && { loadDataDir: from }),
    startParams: [
      ...PGlite.defaultStartParams,
      ...Object.entries({ ...EMBEDDED_SETTINGS, ...settings }).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ],
    extensions: { pg_trgm },
    // A bigint as the server's driver (`pg`) answers it: text, exact past 2^53 (arrays of them
    // follow their element). Drizzle already takes dates, times and intervals as text from both,
    // and the bytea column type makes a Buffer of either; so a query's rows are the same values
    // on both engines, and code that a test runs on one engine runs alike on the other
    // (driver-types.test.ts, decision 168).
    parsers: { [types.INT8]: (text: string) => text },
  });
  await client.waitReady;
  return client;
}

/** Where a pool reports a connection it lost (the process's log); silent when not given. */
export type ConnectionErrorLog = (error: Error, message: string) => void;

export async function openPostgres(
  connectionString: string,
  maxConnections = 10,
  onConnectionError?: ConnectionErrorLog,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  const report = onConnectionError ?? (() => {});
  // A client that loses its server emits 'error'. The pool listens only while the client is idle
  // (and then drops it); a client checked out for a transaction has no listener of its own, and an
  // unheard 'error' event ends the process. So every client gets one for its whole life: the
  // query in flight fails by itself (the request answers 503), and on release the pool sees the
  // client is no longer queryable and discards it. The next checkout connects afresh.
  pool.on('connect', (client) => {
    client.on('error', (error) => report(error, 'database connection lost'));
  });
  // The pool re-emits an idle client's error, already reported by the client's own listener.
  pool.on('error', () => {});
  return {
    db: pooledDatabase(pool),
    engine: 'postgres',
    close: () => pool.end(),
  };
}

/**
 * The database on `pool`, each transaction on a client of the pool that goes back to it whatever
 * happens. Drizzle's own (0.45) checks a client out and sends BEGIN before the try/finally that
 * releases it (drizzle-orm issues 6023, 6241): a BEGIN that fails, as it does on a connection
 * whose backend was terminated while it sat idle in the pool, never gives its client back. Each
 * such failure cost the pool a client for good; once all were gone, every statement waited for a
 * client forever, and `npm run worker`, with nothing else open while its rounds waited, ended
 * (exit code 0, nothing logged) as PostgreSQL's backends were terminated again and again. Here
 * the transaction runs through Drizzle on the checked-out client (its BEGIN, COMMIT, ROLLBACK and
 * savepoints as before) and the client is released in a finally; one whose connection failed is
 * released with the error, so that the pool closes it rather than hand it out again.
 */
export function pooledDatabase(pool: pg.Pool): Db {
  const db = drizzlePostgres(pool, { schema }) as unknown as Db;
  // A client lives as long as its connection: one Drizzle instance on each, made on its first transaction.
  const onClient = new WeakMap<pg.PoolClient, Db>();
  const transaction: Db['transaction'] = async (work, config) => {
    const client = await pool.connect();
    let failure: unknown;
    try {
      let session = onClient.get(client);
      if (session === undefined) {
        session = drizzlePostgres(client, { schema }) as unknown as Db;
        onClient.set(client, session);
      }
      return await session.transaction(work, config);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      client.release(isDatabaseUnavailable(failure) ? (failure as Error) : undefined);
    }
  };
  db.transaction = transaction;
  return db;
}

const poolOf = (db: Db) => {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
};

/** Whether `db` is the embedded database, which only this process can open: nothing else writes to it. */
export const isEmbedded = (db: Db) => (db as unknown as { $client?: unknown }).$client instanceof PGlite;

/** A connection of its own, for work that holds a session-level lock across statements and transactions. */
export interface DedicatedSession {
  /** The database on that one connection (its transactions run there). */
  db: Db;
  engine: Database['engine'];
  /** Gives the connection back; after an error on it, closes it instead. */
  release(failed?: boolean): void;
}

/**
 * One connection taken from the pool for as long as the caller needs it: on PostgreSQL, a pooled
 * client checked out and wrapped (a session lock taken on it lasts until it is released, or until
 * the connection dies with its process); PGlite is one session already, so it is itself.
 */
export async function dedicatedSession(db: Db): Promise<DedicatedSession> {
  const client = poolOf(db);
  if (!client) return { db, engine: 'pglite', release: () => {} };
  const connection = await client.connect();
  return {
    db: drizzlePostgres(connection, { schema }) as unknown as Db,
    engine: 'postgres',
    release: (failed = false) => connection.release(failed),
  };
}

/**
 * Runs work in the caller's transaction when there is one (an idempotent request's, which must
 * commit the work together with its stored answer), else in a transaction of its own.
 */
export function inTransaction<T>(db: Db, outer: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
  return outer ? work(outer) : db.transaction(work);
}

/** Whether the executor is a transaction (a statement on it commits with the transaction, not alone). */
export const isTransaction = (ex: Executor): ex is Tx => typeof (ex as Partial<Tx>).rollback === 'function';

/**
 * A Drizzle query built once per database (or transaction) object, its inputs placeholders
 * (`sql.placeholder`) given at each execution. Building a select through Drizzle's query builder
 * costs about 90 µs of CPU (its field mapping over every column), more than the database spends
 * answering a read by key: the reads every booking or tracking request makes are built once.
 */
export function builtOnce<Query>(build: (db: Executor) => Query): (db: Executor) => Query {
  const built = new WeakMap<Executor, Query>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

/** Rows of a raw SQL query; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

interface PreparingSession {
  prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: false): { execute(): Promise<unknown> };
}

/**
 * Names by text, found through a short fingerprint of the text: a Map keyed by the text itself
 * hashed all of a freshly built text at every lookup (V8 hashes strings of up to 16 K characters
 * whole), 50 µs of a booking's CPU for its 12 K insert. The fingerprint costs a copy; the texts in
 * its bucket are then compared whole, which is a memory comparison.
 */
const statementNames = new Map<string, { text: string; name: string }[]>();
let rememberedNames = 0;
/** Past this many distinct texts (filter combinations of the listing), names are not remembered. */
const MAX_REMEMBERED_NAMES = 500;
const FINGERPRINT_ENDS = 64;

function statementName(text: string): string {
  const fingerprint =
    text.length <= 2 * FINGERPRINT_ENDS
      ? text
      : `${text.length}:${text.slice(0, FINGERPRINT_ENDS)}${text.slice(-FINGERPRINT_ENDS)}`;
  const bucket = statementNames.get(fingerprint);
  const known = bucket?.find((entry) => entry.text === text);
  if (known) return known.name;
  const name = `dk_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
  if (rememberedNames < MAX_REMEMBERED_NAMES) {
    rememberedNames++;
    if (bucket) bucket.push({ text, name });
    else statementNames.set(fingerprint, [{ text, name }]);
  }
  return name;
}

/**
 * Rows of a raw SQL query, run on PostgreSQL as a named prepared statement: each connection parses
 * and plans it once, then only binds and executes. For the hot statements with large, fixed texts
 * (the listing's element columns, a booking's insert), planning cost the server more than running
 * them (1.7 ms of 2.8 for a booking's event snapshot). The name is derived from the text, so a
 * statement whose text varies (the listing's filters) gets one name per variant. PGlite, in
 * process, ignores the name.
 */
export async function queryPreparedRows<T>(db: Executor, query: SQL): Promise<T[]> {
  return runPrepared<T>(db, internals(db).dialect.sqlToQuery(query));
}

interface BuiltQuery {
  sql: string;
  params: unknown[];
}

// Drizzle's own path for `.prepare(name)` on a query builder, taken for raw SQL: these are
// internal members of the database and transaction objects, present on both drivers.
const internals = (db: Executor) =>
  db as unknown as { session: PreparingSession; dialect: { sqlToQuery(query: SQL): BuiltQuery } };

async function runPrepared<T>(db: Executor, built: BuiltQuery): Promise<T[]> {
  const result = (await internals(db)
    .session.prepareQuery(built, undefined, statementName(built.sql), false)
    .execute()) as { rows: T[] };
  return result.rows;
}

const builtByKey = new Map<string, BuiltQuery>();
/** Past this many distinct keys, the oldest built query is forgotten first. */
const MAX_REMEMBERED_BUILT = 1_000;

/**
 * queryPreparedRows for a statement asked for again and again with the same inputs (a listing's
 * page as a dashboard refreshes it): `key` must name everything `build` reads, so the same key
 * always builds the same text and values. Building a large statement through Drizzle's query
 * builder cost the listing a fifth of its CPU per request; a remembered one costs a map lookup.
 * Every database here has the same dialect (Drizzle's PostgreSQL one, default settings), so one
 * memory serves them all.
 */
export async function queryPreparedRowsByKey<T>(db: Executor, key: string, build: () => SQL): Promise<T[]> {
  let built = builtByKey.get(key);
  if (built === undefined) {
    built = internals(db).dialect.sqlToQuery(build());
    if (builtByKey.size >= MAX_REMEMBERED_BUILT) builtByKey.delete(builtByKey.keys().next().value as string);
    builtByKey.set(key, built);
  }
  return runPrepared<T>(db, built);
}
