import { and, eq, getTableColumns, getTableName, inArray, is, SQL, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../../base/db/client.js';
import { orderItems, orders, shipmentMilestones, shipments, stores } from '../../base/db/schema.js';

export type OrderRow = typeof orders.$inferSelect;
export type ShipmentRow = typeof shipments.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
type NewOrder = Omit<typeof orders.$inferInsert, 'accountId'>;
type NewItem = Omit<typeof orderItems.$inferInsert, 'accountId' | 'orderId'>;
type NewShipment = Omit<typeof shipments.$inferInsert, 'accountId' | 'orderId'>;

/**
 * The order, its items, its shipment, the shipment's first milestones and `also` (its events, its
 * place in the tracking poller's queue), written by one statement: atomic without a transaction and
 * one round trip. The whole booking travels as a single JSON parameter that PostgreSQL unpacks with
 * jsonb_populate_record(set): building Drizzle insert queries for these wide rows cost more CPU than
 * the database spent storing them (about 1 ms a booking). Columns left out of the values take their
 * defaults, as with Drizzle's insert. Each table's CTE bears the table's name and returns its new
 * rows, so a later CTE that reads `shipments` or `order_items` (an event's snapshot) reads what this
 * statement writes, which it could not see in the tables themselves.
 */
export async function insertOrder(
  db: Executor,
  accountId: string,
  order: NewOrder & { id: string },
  items: NewItem[],
  shipment: NewShipment & { id: string },
  milestones: { milestone: string; at: Date }[],
  also: (SQL | { as: string; statement: SQL })[] = [],
): Promise<{ order: OrderRow; shipment: ShipmentRow }> {
  const owned = { accountId, orderId: order.id };
  const orderRow = rowValues(orders, order, { accountId });
  const shipmentRow = rowValues(shipments, shipment, owned, { attemptCount: 0 });
  const itemRows = items.map((item) => rowValues(orderItems, item, owned));
  const milestoneRows = milestones.map((m) =>
    rowValues(
      shipmentMilestones,
      { milestone: m.milestone, milestoneAt: m.at },
      { accountId, shipmentId: shipment.id },
    ),
  );
  const doc = {
    order: orderRow.json,
    items: itemRows.map((row) => row.json),
    shipment: shipmentRow.json,
    milestones: milestoneRows.map((row) => row.json),
  };
  // A named statement is one a later one reads (the invoice counter the invoice's number takes).
  const more = also.map((part, i) =>
    is(part, SQL)
      ? sql`, ${sql.raw(`also_${i}`)} as (${part})`
      : sql`, ${sql.identifier(part.as)} as (${part.statement})`,
  );
  await queryPreparedRows(
    db,
    sql`with doc as (select ${JSON.stringify(doc)}::jsonb as d),
    orders as (${populate(orders, Object.keys(orderRow.values), 'order', false)} returning *),
    order_items as (${populate(orderItems, keysOf(itemRows), 'items', true)} returning *),
    shipments as (${populate(shipments, Object.keys(shipmentRow.values), 'shipment', false)} returning *),
    shipment_milestones as (${populate(shipmentMilestones, keysOf(milestoneRows), 'milestones', true)} on conflict do nothing returning *)${sql.join(more)}
    select 1`,
  );
  return { order: rowOf(orders, orderRow.values), shipment: rowOf(shipments, shipmentRow.values) };
}

type AnyTable = typeof orders | typeof orderItems | typeof shipments | typeof shipmentMilestones;

const keysOf = (rows: { values: object }[]) => [...new Set(rows.flatMap((row) => Object.keys(row.values)))];

// The helpers below run for every booking over rows of up to eighty columns: plain loops, and what
// depends only on the table worked out once: a booking's CPU profile showed Drizzle's is() per column.

type ColumnInfo = { name: string; default?: unknown };
interface TableShape {
  columns: Record<string, ColumnInfo>;
  /** Each column's value when none is given: its constant default, or null (SQL defaults are always given). */
  fallbacks: [key: string, value: unknown][];
}
const shapes = new Map<AnyTable, TableShape>();
function shapeOf(table: AnyTable): TableShape {
  let shape = shapes.get(table);
  if (!shape) {
    const columns = getTableColumns(table) as Record<string, ColumnInfo>;
    const fallbacks = Object.entries(columns).map(([key, column]): [string, unknown] => [
      key,
      column.default === undefined || is(column.default, SQL) ? null : column.default,
    ]);
    shape = { columns, fallbacks };
    shapes.set(table, shape);
  }
  return shape;
}

/**
 * A row's values in one pass, as the statement and the caller want them: `values` by property name,
 * `json` by column name (`{orderDate: Date}` → `{order_date: "2026-…Z"}`, as JSON will carry them).
 * `fixed` is written over `given`, `fallback` under it. A value given as undefined is left out: as
 * with Drizzle's insert, the column takes its default.
 */
function rowValues(
  table: AnyTable,
  given: object,
  fixed: Record<string, unknown>,
  fallback: Record<string, unknown> = {},
): { values: Record<string, unknown>; json: Record<string, unknown> } {
  const { columns } = shapeOf(table);
  const values: Record<string, unknown> = {};
  const json: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value === undefined) return;
    values[key] = value;
    json[columns[key]!.name] = value;
  };
  for (const key in fallback) if (!(key in given) && !(key in fixed)) put(key, fallback[key]);
  for (const key in given) if (!(key in fixed)) put(key, (given as Record<string, unknown>)[key]);
  for (const key in fixed) put(key, fixed[key]);
  return { values, json };
}

const statementCache = new Map<string, SQL>();
/** `insert into <table> (<columns>) select <columns> from doc, jsonb_populate_record(set)(null::<table>, d-><key>)` */
function populate(table: AnyTable, keys: string[], key: string, many: boolean): SQL {
  const name = getTableName(table);
  const cacheKey = `${name}:${key}:${keys.join(',')}`;
  let statement = statementCache.get(cacheKey);
  if (!statement) {
    const { columns } = shapeOf(table);
    const list = keys.map((k) => `"${columns[k]!.name}"`).join(', ');
    const source = many ? 'jsonb_populate_recordset' : 'jsonb_populate_record';
    statement = sql.raw(
      `insert into "${name}" (${list}) select ${list} from doc, ${source}(null::"${name}", d->'${key}')`,
    );
    statementCache.set(cacheKey, statement);
  }
  return statement;
}

/**
 * The row as the database now holds it, without reading it back: the values given, and for the rest
 * the column's constant default or null. (Callers pass every column whose default is SQL.)
 */
function rowOf<T extends AnyTable>(table: T, values: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, fallback] of shapeOf(table).fallbacks) row[key] = key in values ? values[key] : fallback;
  return row as T['$inferSelect'];
}

export async function addMilestones(
  db: Executor,
  accountId: string,
  shipmentId: string,
  milestones: { milestone: string; at: Date }[],
): Promise<void> {
  if (milestones.length === 0) return;
  await db
    .insert(shipmentMilestones)
    .values(milestones.map((m) => ({ accountId, shipmentId, milestone: m.milestone, milestoneAt: m.at })))
    .onConflictDoNothing();
}

/** The shipment with its order, locked for the rest of the transaction when `forUpdate`. */
export async function findShipmentWithOrder(db: Executor, accountId: string, shipmentId: string, forUpdate = false) {
  const query = db
    .select({ shipment: shipments, order: orders })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  const [row] = await (forUpdate ? query.for('update', { of: shipments }) : query);
  return row;
}

export async function findItems(db: Executor, accountId: string, orderId: string): Promise<OrderItemRow[]> {
  return db
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.accountId, accountId), eq(orderItems.orderId, orderId)))
    .orderBy(orderItems.position);
}

export async function findStoreName(db: Executor, accountId: string, storeId: string | null) {
  if (!storeId) return null;
  const [row] = await db
    .select({
      id: stores.id,
      storeName: stores.storeName,
      brandName: stores.brandName,
      logoSha256: stores.logoSha256,
      invoicePrefix: stores.invoicePrefix,
    })
    .from(stores)
    .where(and(eq(stores.accountId, accountId), eq(stores.id, storeId)));
  return row ?? null;
}

/** Books a courier onto a shipment that has none yet; undefined when it already had one. */
export async function assignCourier(
  db: Executor,
  accountId: string,
  shipmentId: string,
  values: Pick<
    ShipmentRow,
    | 'carrierId'
    | 'awb'
    | 'freightPaise'
    | 'codChargesPaise'
    | 'rtoChargesPaise'
    | 'assignedAt'
    | 'updatedAt'
    | 'searchText'
  >,
): Promise<ShipmentRow | undefined> {
  const [row] = await db
    .update(shipments)
    .set(values)
    .where(
      and(
        eq(shipments.accountId, accountId),
        eq(shipments.id, shipmentId),
        sql`${shipments.awb} is null`,
        eq(shipments.status, 'pending'),
      ),
    )
    .returning();
  return row;
}

/** The shipment's booking facts; locked for the rest of the transaction when `forUpdate`. */
export async function findShipmentById(db: Executor, accountId: string, shipmentId: string, forUpdate = false) {
  const query = db
    .select({ id: shipments.id, awb: shipments.awb, status: shipments.status, carrierId: shipments.carrierId })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  const [row] = await (forUpdate ? query.for('update') : query);
  return row;
}

export async function findShipmentsByAwb(db: Executor, accountId: string, awbs: string[]) {
  return db
    .select({ id: shipments.id, awb: shipments.awb, status: shipments.status, carrierId: shipments.carrierId })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), inArray(shipments.awb, awbs)));
}

/**
 * The order named by the merchant's order id, with its shipment; both rows locked for the rest of
 * the transaction, so a pickup scan or a booking waits for an update (and an update for them).
 */
export async function orderIdTaken(db: Executor, accountId: string, merchantOrderId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.merchantOrderId, merchantOrderId)))
    .limit(1);
  return row !== undefined;
}

export async function findOrderForUpdate(db: Executor, accountId: string, merchantOrderId: string) {
  const [row] = await db
    .select({ order: orders, shipment: shipments })
    .from(orders)
    .innerJoin(shipments, and(eq(shipments.accountId, orders.accountId), eq(shipments.orderId, orders.id)))
    .where(and(eq(orders.accountId, accountId), eq(orders.merchantOrderId, merchantOrderId)))
    .for('update', { of: [orders, shipments] });
  return row;
}

export async function updateOrder(
  db: Executor,
  accountId: string,
  orderId: string,
  values: Partial<NewOrder>,
): Promise<OrderRow> {
  const [row] = await db
    .update(orders)
    .set(values)
    .where(and(eq(orders.accountId, accountId), eq(orders.id, orderId)))
    .returning();
  return row!;
}

export async function replaceItems(db: Executor, accountId: string, orderId: string, items: NewItem[]): Promise<void> {
  await db.delete(orderItems).where(and(eq(orderItems.accountId, accountId), eq(orderItems.orderId, orderId)));
  if (items.length > 0) await db.insert(orderItems).values(items.map((item) => ({ ...item, accountId, orderId })));
}

export async function updateShipment(
  db: Executor,
  accountId: string,
  shipmentId: string,
  values: Partial<NewShipment>,
): Promise<ShipmentRow> {
  const [row] = await db
    .update(shipments)
    .set(values)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)))
    .returning();
  return row!;
}
