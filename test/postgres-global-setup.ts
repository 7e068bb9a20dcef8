import { TEST_DATABASE_PREFIX, withAdminClient } from './databases.js';

/** Drops databases that an earlier, interrupted run left behind, and this run's at the end. */
async function dropTestDatabases() {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like '${TEST_DATABASE_PREFIX}%'`,
    );
    for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
  });
}

export async function setup() {
  await dropTestDatabases();
  return dropTestDatabases;
}
