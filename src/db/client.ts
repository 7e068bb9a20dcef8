import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
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

/** Embedded PostgreSQL in WASM; in memory when no directory is given (tests). */
export async function openPglite(dataDir?: string): Promise<Database> {
  // Options must travel in the first argument: PGlite ignores a second one when the first is undefined.
  const client = new PGlite({ ...(dataDir && { dataDir: path.join(dataDir, 'pglite') }), extensions: { pg_trgm } });
  await client.waitReady;
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    engine: 'pglite',
    close: () => client.close(),
  };
}

export async function openPostgres(connectionString: string, maxConnections = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle client losing its server must not crash the process; the next query reports the error.
  pool.on('error', () => {});
  return {
    db: drizzlePostgres(pool, { schema }) as unknown as Db,
    engine: 'postgres',
    close: () => pool.end(),
  };
}

/**
 * Runs work in the caller's transaction when there is one (an idempotent request's, which must
 * commit the work together with its stored answer), else in a transaction of its own.
 */
export function inTransaction<T>(db: Db, outer: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
  return outer ? work(outer) : db.transaction(work);
}

/** Rows of a raw SQL query; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
