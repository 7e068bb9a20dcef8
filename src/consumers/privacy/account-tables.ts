import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';

// Which tables hold an account's rows, read from the database's own catalogue: what an account's
// deletion deletes from and its export reads, so a table added later is in both without a line here.

/** Every table of the public schema with an `account_id` column, by name. */
export async function accountTables(db: Executor): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'account_id' order by table_name`,
  );
  return rows.map((row) => row.table_name);
}
