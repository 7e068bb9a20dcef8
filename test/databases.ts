import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { type Database, openPglite, openPostgres, queryRows } from '../src/base/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this run's databases on the PostgreSQL server (test/postgres-global-setup.ts). */
    testRunId: string;
    /** The run's migrated PostgreSQL database that each file's database is copied from. */
    postgresTemplate: string;
    /** A tarball of a migrated PGlite data directory (test/pglite-global-setup.ts). */
    pgliteTemplate: string;
  }
}

export const TEST_DATABASE_PREFIX = 'dakiya_t_';

function serverUrl(databaseName?: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  if (databaseName) url.pathname = `/${databaseName}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** This run's name for a database of the PostgreSQL server; `_` and random hex keep them apart. */
export function runDatabaseName(label: string): string {
  return `${TEST_DATABASE_PREFIX}${inject('testRunId')}_${label}${randomBytes(4).toString('hex')}`;
}

/**
 * The template's bytes, read once per worker (without isolation a worker runs many files in one
 * module graph) and handed to each database as a copy of one buffer: PGlite reads its tarball with
 * `arrayBuffer()`, which a plain Blob answers by streaming itself in chunks and joining them, a
 * third of a test database's start.
 */
class TemplateTarball extends Blob {
  readonly #tarball: ArrayBuffer;
  constructor(tarball: ArrayBuffer) {
    super([tarball], { type: 'application/x-tar' });
    this.#tarball = tarball;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#tarball.slice(0));
  }
}
let pgliteTemplate: Promise<Blob> | undefined;

/** The template tarball as a Blob that opens fast (see TemplateTarball). */
export function pgliteTemplateBlob(): Promise<Blob> {
  pgliteTemplate ??= fs
    .readFile(inject('pgliteTemplate'))
    .then((bytes) => new TemplateTarball(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
  return pgliteTemplate as Promise<Blob>;
}

/**
 * A test database lives for one file and holds a few hundred rows: 16 MB of page buffers rather
 * than PostgreSQL's 128 MB, which PGlite would clear at every start (half of a start's time).
 */
const TEST_PGLITE_SETTINGS = { shared_buffers: '16MB' };

async function openPgliteFromTemplate(): Promise<Database> {
  return openPglite(undefined, await pgliteTemplateBlob(), TEST_PGLITE_SETTINGS);
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (DAKIYA_TEST_ENGINE=postgres)
 * a database of its own on the TEST_DATABASE_URL server, dropped on close, so test files never see
 * each other's rows and the server's own database is left as it was. Both are copies of a database
 * the run migrated once (an initdb and the migrations take seconds; a copy a fraction of one).
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.DAKIYA_TEST_ENGINE !== 'postgres') return openPgliteFromTemplate();
  const name = runDatabaseName('');
  await withAdminClient((client) => client.query(`create database ${name} template ${inject('postgresTemplate')}`));
  const database = await openPostgres(serverUrl(name), 5);
  return {
    ...database,
    async close() {
      await database.close();
      await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * An empty database of its own on the TEST_DATABASE_URL server, for servers a test starts as
 * processes (they migrate it, as on a first deployment). `drop` removes it, connections and all.
 */
export async function createEmptyDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = runDatabaseName(label);
  await withAdminClient((client) => client.query(`create database ${name}`));
  return {
    url: serverUrl(name),
    drop: () =>
      withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/**
 * The suite of a `*.postgres.test.ts` file: on a PostgreSQL server only. Without one
 * (TEST_DATABASE_URL unset) it is reported skipped, the reason in its name, rather than vanishing
 * from the count.
 */
export function describePostgresOnly(name: string, options: Parameters<typeof describe>[1], body: () => void): void {
  if (process.env.TEST_DATABASE_URL) describe(name, options, body);
  else describe.skip(`${name} [skipped: needs a PostgreSQL server, and TEST_DATABASE_URL is unset]`, options, body);
}

/**
 * Waits until every event written so far is settled (src/events/events.repository.ts): on
 * PostgreSQL a transaction open in any database of the server holds them back, one of another
 * test file running beside this one say. A test that expects the log to show what it just wrote
 * reads it after this wait; on PGlite, one transaction at a time, nothing is ever held back.
 */
export async function eventsSettled(database: Database, timeoutMs = 110_000): Promise<void> {
  const unsettled = sql`select count(*)::int as n from events where txid >= pg_snapshot_xmin(pg_current_snapshot())`;
  const deadline = Date.now() + timeoutMs;
  while ((await queryRows<{ n: number }>(database.db, unsettled))[0]!.n > 0) {
    if (Date.now() > deadline)
      throw new Error(`events still unsettled after ${timeoutMs / 1000} s: a transaction on the server stays open`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
