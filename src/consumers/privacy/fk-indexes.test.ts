import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/databases.js';
import { type Database, queryRows } from '../../base/db/client.js';

// An account's deletion (issue 52) deletes children before parents; for every parent row deleted,
// PostgreSQL's foreign-key check runs `SELECT 1 FROM ONLY child WHERE fk = $1 FOR KEY SHARE` on each
// child table. Without an index led by the key's columns that is a scan of the whole child table
// (every account's rows and its dead tuples) per parent row: deleting a year's 73,000 shipments
// scanned the tables that reference shipments 73,000 times (docs/data-lifecycle.md has the figures).
// An index whose other columns come first (account_id, fk, ...) is no use to that check.

/**
 * Parents an account has one or a few rows of (its own row, its members, stores, warehouses,
 * webhook endpoints and sales channels): deleting them costs one scan of each child per row, a
 * handful for the whole account, so their keys go without an index of their own (the child's
 * reads are by account). Every other parent has rows by the thousand per account (shipments,
 * orders, returns, pickups, confirmations, remittances, ...): each key to one needs its index.
 */
const FEW_ROWS_PARENTS = ['accounts', 'members', 'sales_channels', 'stores', 'warehouses', 'webhook_endpoints'];

interface ForeignKey {
  child: string;
  parent: string;
  name: string;
  columns: string[];
  /** The columns' types, as a statement's parameters are declared. */
  types: string[];
  /** Indexes of the child led by exactly the key's columns, with their predicates (null: whole table). */
  indexes: { name: string; predicate: string | null }[] | null;
}

let database: Database;
let keys: ForeignKey[];
beforeAll(async () => {
  database = await openTestDatabase();
  keys = await queryRows<ForeignKey>(
    database.db,
    sql`select c.relname as child, p.relname as parent, k.conname as name,
          array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, o)
            join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.o) as columns,
          array(select format_type(a.atttypid, a.atttypmod) from unnest(k.conkey) with ordinality u(attnum, o)
            join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.o) as types,
          (select json_agg(json_build_object('name', i.relname, 'predicate', pg_get_expr(x.indpred, x.indrelid)) order by i.relname)
            from pg_index x join pg_class i on i.oid = x.indexrelid,
            lateral (select array_agg(u.attnum) as leading from unnest(x.indkey::int2[]) with ordinality u(attnum, o)
              where u.o <= cardinality(k.conkey)) l
            where x.indrelid = k.conrelid and x.indisvalid and l.leading @> k.conkey and l.leading <@ k.conkey) as indexes
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public'
        order by c.relname, k.conname`,
  );
});
afterAll(async () => {
  await database.close();
});

/** A partial index serves the check when its predicate is only that the key is set: `fk = $1` implies it. */
const servesTheCheck = (key: ForeignKey, predicate: string | null) =>
  predicate === null ||
  key.columns.some((column) => predicate === `(${column} IS NOT NULL)` || predicate === `("${column}" IS NOT NULL)`);

describe("the foreign keys an account's deletion checks", () => {
  it('each has an index led by its columns, unless its parent has a few rows per account', () => {
    const unindexed = keys
      .filter((key) => !FEW_ROWS_PARENTS.includes(key.parent))
      .filter((key) => !(key.indexes ?? []).some((index) => servesTheCheck(key, index.predicate)))
      .map((key) => `${key.child}(${key.columns.join(', ')}) -> ${key.parent}`);
    expect(unindexed).toEqual([]);
  });

  it('leaves out only parents that some key references', () => {
    const parents = new Set(keys.map((key) => key.parent));
    expect(FEW_ROWS_PARENTS.filter((table) => !parents.has(table))).toEqual([]);
  });

  it("has each partial one taken by the check's own statement, whatever the key's value", async () => {
    const partial = keys.flatMap((key) =>
      FEW_ROWS_PARENTS.includes(key.parent)
        ? []
        : (key.indexes ?? [])
            .filter((index) => index.predicate !== null && servesTheCheck(key, index.predicate))
            .map((index) => ({ key, index: index.name })),
    );
    expect(partial.length).toBeGreaterThan(0);
    const unused: { index: string; plan: string }[] = [];
    await database.db.transaction(async (tx) => {
      // The check's statement is prepared once and run with each key's value: a generic plan. On
      // a test's empty tables a scan would win on cost; what is asked is whether the index can serve.
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      for (const [n, { key, index }] of partial.entries()) {
        const where = key.columns.map((column, i) => `${JSON.stringify(column)} operator(pg_catalog.=) $${i + 1}`);
        await tx.execute(
          sql.raw(
            `prepare fk_check_${n} (${key.types.join(', ')}) as select 1 from only ${JSON.stringify(key.child)} x where ${where.join(' and ')} for key share of x`,
          ),
        );
        const lines = await queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql.raw(`explain (costs off) execute fk_check_${n} (${key.types.map(() => 'null').join(', ')})`),
        );
        await tx.execute(sql.raw(`deallocate fk_check_${n}`));
        const plan = lines.map((line) => line['QUERY PLAN'].trim()).join('; ');
        if (!new RegExp(`Index Scan using ${index} on |Bitmap Index Scan on ${index}\\b`).test(plan))
          unused.push({ index, plan });
      }
    });
    expect(unused).toEqual([]);
  });
});
