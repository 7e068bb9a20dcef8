import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { queryRows } from './client.js';
import * as schema from './schema.js';

// The schema the code queries against (src/base/db/schema/) and the database the migrations make
// agree: every table, its indexes and its foreign keys, by name. drizzle-kit writes the migrations
// from the schema; this catches a schema edited without its migration, or a migration edited by hand.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

/** A name as PostgreSQL keeps it: at most 63 bytes (NAMEDATALEN), the rest cut off. */
const identifier = (name: string | undefined) =>
  Buffer.from(name ?? '')
    .subarray(0, 63)
    .toString();

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));

it('has every table, index and foreign key of the schema in the migrated database, and no other', async () => {
  const declared = tables.map((table) => {
    const config = getTableConfig(table);
    return {
      table: config.name,
      // A unique constraint is an index of the database too.
      indexes: [
        ...config.indexes.map((index) => index.config.name),
        ...config.uniqueConstraints.map((unique) => unique.getName()),
        ...config.columns.filter((column) => column.isUnique).map((column) => column.uniqueName),
      ]
        .map(identifier)
        .sort(),
      foreignKeys: config.foreignKeys.map((fk) => identifier(fk.getName())).sort(),
    };
  });
  const migrated = await queryRows<{ table: string; indexes: string[] | null; foreign_keys: string[] | null }>(
    ctx.database.db,
    sql`select c.relname as table,
          (select array_agg(i.relname::text order by i.relname) from pg_index x join pg_class i on i.oid = x.indexrelid
            where x.indrelid = c.oid and not x.indisprimary) as indexes,
          (select array_agg(k.conname::text order by k.conname) from pg_constraint k where k.conrelid = c.oid and k.contype = 'f') as foreign_keys
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and c.relname <> 'dakiya_migrations'
        order by c.relname`,
  );
  expect(
    migrated.map((row) => ({ table: row.table, indexes: row.indexes ?? [], foreignKeys: row.foreign_keys ?? [] })),
  ).toEqual(declared.sort((a, b) => a.table.localeCompare(b.table)));
});
