import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';

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

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (DAKIYA_TEST_ENGINE=postgres)
 * a database of its own on the TEST_DATABASE_URL server, dropped on close, so test files never see
 * each other's rows and the server's own database is left as it was.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.DAKIYA_TEST_ENGINE !== 'postgres') {
    const database = await openPglite();
    await migrate(database.db);
    return database;
  }
  const name = `${TEST_DATABASE_PREFIX}${inject('testRunId')}_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const database = await openPostgres(serverUrl(name), 5);
  await migrate(database.db);
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
  const name = `${TEST_DATABASE_PREFIX}${inject('testRunId')}_${label}${randomBytes(3).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  return {
    url: serverUrl(name),
    drop: () => withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
