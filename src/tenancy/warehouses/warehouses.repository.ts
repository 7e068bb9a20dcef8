import { and, asc, eq, sql } from 'drizzle-orm';
import { builtOnce, type Executor } from '../../base/db/client.js';
import { warehouses } from '../../base/db/schema.js';

export type WarehouseRow = typeof warehouses.$inferSelect;

export async function insertWarehouse(
  db: Executor,
  accountId: string,
  values: Omit<typeof warehouses.$inferInsert, 'accountId'>,
): Promise<WarehouseRow> {
  const [row] = await db
    .insert(warehouses)
    .values({ ...values, accountId })
    .returning();
  return row!;
}

export async function listWarehouses(db: Executor, accountId: string): Promise<WarehouseRow[]> {
  return db
    .select()
    .from(warehouses)
    .where(eq(warehouses.accountId, accountId))
    .orderBy(asc(warehouses.createdAt), asc(warehouses.id));
}

const findWarehouseQuery = builtOnce((db) =>
  db
    .select()
    .from(warehouses)
    .where(and(eq(warehouses.accountId, sql.placeholder('accountId')), eq(warehouses.id, sql.placeholder('id'))))
    .prepare('find_warehouse'),
);

/** A named prepared statement, built once: every booking reads its warehouse (builtOnce). */
export async function findWarehouse(db: Executor, accountId: string, id: string): Promise<WarehouseRow | undefined> {
  const [row] = await findWarehouseQuery(db).execute({ accountId, id });
  return row;
}

/** Warehouses whose name is `name` ignoring case and surrounding spaces (names need not be unique). */
export async function findWarehousesByName(db: Executor, accountId: string, name: string): Promise<WarehouseRow[]> {
  return db
    .select()
    .from(warehouses)
    .where(and(eq(warehouses.accountId, accountId), sql`lower(btrim(${warehouses.name})) = lower(btrim(${name}))`))
    .orderBy(asc(warehouses.createdAt), asc(warehouses.id))
    .limit(2);
}
