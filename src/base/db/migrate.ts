import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type Db, queryRows } from './client.js';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../migrations', import.meta.url));
// Any constant works; it only has to be the same for every process that migrates this database.
const MIGRATION_LOCK_KEY = 7_240_031_113;

/**
 * Applies the committed migrations that this database has not seen, in one transaction. The
 * advisory lock makes several API processes starting at once against one PostgreSQL server take
 * turns instead of racing to create the same tables. Returns how many were applied.
 */
export async function migrate(db: Db): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(sql`
      create table if not exists dakiya_migrations (
        hash text primary key,
        created_at bigint not null,
        applied_at timestamptz not null default now()
      )`);
    const applied = await queryRows<{ hash: string }>(tx, sql`select hash from dakiya_migrations`);
    const seen = new Set(applied.map((row) => row.hash));
    let count = 0;
    for (const migration of migrations) {
      if (seen.has(migration.hash)) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into dakiya_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
      count += 1;
    }
    return count;
  });
}
