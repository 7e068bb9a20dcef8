import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/databases.js';
import { type Database, queryRows } from '../../base/db/client.js';
import { SHEETS } from './account-export.sheets.js';
import { accountTables } from './account-tables.js';
import { EXCLUDED_COLUMNS, EXCLUDED_TABLES, SAFE_COLUMNS, SECRET_NAME } from './export-secrets.js';

// The register of what an account's export leaves out, held against the database's own catalogue:
// a column whose name speaks of a secret, added to any table the export reads, fails here until it
// is placed, as left out or as safe with the reason it holds no secret; an entry naming a table or
// column that no longer exists fails too.

let database: Database;
let columns: Map<string, string[]>;
let exported: string[];
beforeAll(async () => {
  database = await openTestDatabase();
  const tables = ['accounts', ...(await accountTables(database.db))];
  const rows = await queryRows<{ table_name: string; column_name: string }>(
    database.db,
    sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and table_name = any(${`{${tables.join(',')}}`}::text[])
        order by table_name, ordinal_position`,
  );
  columns = new Map();
  for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
  exported = tables.filter((table) => !Object.hasOwn(EXCLUDED_TABLES, table));
});
afterAll(async () => {
  await database.close();
});

describe('what an export leaves out', () => {
  it('names only tables the export would read', () => {
    expect(Object.keys(EXCLUDED_TABLES).filter((table) => !columns.has(table))).toEqual([]);
    for (const register of [EXCLUDED_COLUMNS, SAFE_COLUMNS])
      expect(Object.keys(register).filter((table) => !exported.includes(table))).toEqual([]);
  });

  it('names only columns that exist, each once', () => {
    const stale: string[] = [];
    for (const [table, named] of [...Object.entries(EXCLUDED_COLUMNS), ...Object.entries(SAFE_COLUMNS)])
      for (const column of Object.keys(named))
        if (!columns.get(table)?.includes(column)) stale.push(`${table}.${column}`);
    expect(stale).toEqual([]);
    for (const table of Object.keys(EXCLUDED_COLUMNS))
      expect(Object.keys(EXCLUDED_COLUMNS[table]!).filter((c) => Object.hasOwn(SAFE_COLUMNS[table] ?? {}, c))).toEqual(
        [],
      );
  });

  it('places every column whose name speaks of a secret, with a reason', () => {
    const unplaced: string[] = [];
    for (const table of exported)
      for (const column of columns.get(table) ?? []) {
        if (!SECRET_NAME.test(column)) continue;
        const reason = EXCLUDED_COLUMNS[table]?.[column] ?? SAFE_COLUMNS[table]?.[column];
        if (!reason?.trim()) unplaced.push(`${table}.${column}`);
      }
    expect(unplaced).toEqual([]);
    // The check is not empty: the password hashes are among the columns it places.
    expect(EXCLUDED_COLUMNS.accounts?.password_hash).toMatch(/credential/);
  });

  it('puts in each spreadsheet only columns its table has and the export keeps', () => {
    const wrong: string[] = [];
    for (const [table, sheet] of Object.entries(SHEETS))
      for (const column of sheet.columns)
        if (!columns.get(table)?.includes(column) || Object.hasOwn(EXCLUDED_COLUMNS[table] ?? {}, column))
          wrong.push(`${table}.${column}`);
    expect(wrong).toEqual([]);
    expect(Object.keys(SHEETS).filter((table) => !exported.includes(table))).toEqual([]);
  });
});
