import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/databases.js';
import { type Database, queryRows } from '../../base/db/client.js';
import { DELETED_TABLES, NOT_PERSONAL, PERSONAL_TABLES } from './personal-columns.js';

// The register of where buyers are written, held against the database's own catalogue: a text,
// JSON or bytes column added anywhere fails here until it is placed, as a buyer's copy (erased),
// or kept with the reason it holds none.

let database: Database;
let columns: Map<string, string[]>;
beforeAll(async () => {
  database = await openTestDatabase();
  const rows = await queryRows<{ table_name: string; column_name: string }>(
    database.db,
    sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'bytea')
        order by table_name, column_name`,
  );
  columns = new Map();
  for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
});
afterAll(async () => {
  await database.close();
});

describe('the register of buyers’ copies', () => {
  it('places every table with text, JSON or bytes once', () => {
    const placed = [
      ...PERSONAL_TABLES.map((t) => t.table),
      ...Object.keys(DELETED_TABLES),
      ...Object.keys(NOT_PERSONAL),
    ];
    expect(new Set(placed).size).toBe(placed.length);
    expect([...placed].sort()).toEqual([...columns.keys()].sort());
  });

  it.each(PERSONAL_TABLES.map((t) => [t.table, t] as const))(
    '%s: every such column erased or kept with a reason',
    (name, table) => {
      const placed = [...(table.text ?? []), ...(table.json ?? []), ...(table.clear ?? []), ...Object.keys(table.kept)];
      expect(new Set(placed).size).toBe(placed.length);
      expect([...placed].sort()).toEqual(columns.get(name));
    },
  );
});
