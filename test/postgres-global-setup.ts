import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/base/db/client.js';
import { migrate } from '../src/base/db/migrate.js';
import { TEST_DATABASE_PREFIX, withAdminClient } from './databases.js';

/** Runs interrupted this long ago are over; their databases are left-overs. */
const STALE_AFTER_SECONDS = 6 * 60 * 60;

async function dropDatabases(match: (name: string) => boolean) {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like '${TEST_DATABASE_PREFIX}%'`,
    );
    for (const { datname } of rows) {
      if (match(datname)) await client.query(`drop database if exists ${datname} with (force)`);
    }
  });
}

/**
 * Each run names its databases `dakiya_t_<run start, base 36>_<random>`, so it drops only its
 * own at the end, and at the start only those of runs that died hours ago: two runs against one
 * server (two developers, or CI beside a developer) never pull databases from under each other.
 * It migrates one database, the template every test file's database is created from.
 */
export async function setup(project: TestProject) {
  // Without a server the project holds only PostgreSQL-only files, which report themselves skipped.
  if (!process.env.TEST_DATABASE_URL) return;
  const started = Math.floor(Date.now() / 1000);
  const runId = `${started.toString(36)}${Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`;
  project.provide('testRunId', runId);
  await dropDatabases((name) => {
    const stamp = Number.parseInt(name.slice(TEST_DATABASE_PREFIX.length, TEST_DATABASE_PREFIX.length + 6), 36);
    return Number.isFinite(stamp) && started - stamp > STALE_AFTER_SECONDS;
  });
  const dropOwn = () => dropDatabases((name) => name.startsWith(`${TEST_DATABASE_PREFIX}${runId}_`));

  const template = `${TEST_DATABASE_PREFIX}${runId}_template`;
  await withAdminClient((client) => client.query(`create database ${template}`));
  try {
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${template}`;
    // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
    const database = await openPostgres(url.toString(), 1);
    try {
      await migrate(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    await dropOwn();
    throw error;
  }
  project.provide('postgresTemplate', template);
  return dropOwn;
}
