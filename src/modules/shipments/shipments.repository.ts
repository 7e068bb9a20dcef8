import { and, arrayOverlaps, asc, count, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orderItems, orders, shipmentMilestones, shipments, stores } from '../../db/schema.js';
import { findEventsOf } from '../tracking/tracking.repository.js';
import type { DateField } from './shipments.schemas.js';

export interface ShipmentFilters {
  status?: string;
  subStatuses?: string[];
  carrierIds?: string[];
  warehouseIds?: string[];
  channels?: string[];
  /** Zone letters, A to E. */
  zones?: string[];
  isCod?: boolean;
  skus?: string[];
  tags?: string[];
  ndrReasons?: string[];
  rtoReasons?: string[];
  /** Lower-cased. */
  storeNames?: string[];
  weightMin?: number;
  weightMax?: number;
  attemptsMin?: number;
  attemptsMax?: number;
  dateField?: DateField;
  from?: Date;
  to?: Date;
  search?: string;
}

const DATE_COLUMNS = {
  order_date: shipments.orderDate,
  created_at: shipments.createdAt,
  updated_at: shipments.updatedAt,
  picked_up_at: shipments.pickedUpAt,
  delivered_at: shipments.deliveredAt,
  cancelled_at: shipments.cancelledAt,
  rto_initiated_at: shipments.rtoInitiatedAt,
  rto_delivered_at: shipments.rtoDeliveredAt,
} as const;

/** LIKE treats % _ and \ specially; a search for them means the characters themselves. */
const likePattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every filter is a condition on the shipments table itself (see the schema), never a join. */
function conditions(accountId: string, f: ShipmentFilters): SQL[] {
  const where: (SQL | undefined)[] = [eq(shipments.accountId, accountId)];
  const anyOf = <T>(column: Parameters<typeof inArray>[0], values: T[] | undefined) =>
    values ? inArray(column, values as unknown[]) : undefined;
  if (f.status) where.push(eq(shipments.status, f.status));
  where.push(anyOf(shipments.subStatus, f.subStatuses));
  where.push(anyOf(shipments.carrierId, f.carrierIds));
  where.push(anyOf(shipments.warehouseId, f.warehouseIds));
  where.push(anyOf(shipments.channel, f.channels));
  where.push(anyOf(shipments.zone, f.zones));
  where.push(anyOf(shipments.ndrReason, f.ndrReasons));
  where.push(anyOf(shipments.rtoReason, f.rtoReasons));
  if (f.isCod !== undefined) where.push(eq(shipments.isCod, f.isCod));
  if (f.skus) where.push(arrayOverlaps(shipments.skus, f.skus));
  if (f.tags) where.push(arrayOverlaps(shipments.tags, f.tags));
  if (f.storeNames) {
    where.push(
      inArray(
        shipments.storeId,
        sql`(select ${stores.id} from ${stores} where ${stores.accountId} = ${accountId} and lower(${stores.storeName}) in ${f.storeNames})`,
      ),
    );
  }
  if (f.weightMin !== undefined) where.push(gte(shipments.appliedWeightGrams, f.weightMin));
  if (f.weightMax !== undefined) where.push(lte(shipments.appliedWeightGrams, f.weightMax));
  if (f.attemptsMin !== undefined) where.push(gte(shipments.attemptCount, f.attemptsMin));
  if (f.attemptsMax !== undefined) where.push(lte(shipments.attemptCount, f.attemptsMax));
  const dateColumn = DATE_COLUMNS[f.dateField ?? 'created_at'];
  if (f.from) where.push(gte(dateColumn, f.from));
  if (f.to) where.push(lte(dateColumn, f.to));
  if (f.search) where.push(sql`${shipments.searchText} like ${likePattern(f.search)}`);
  return where.filter((c): c is SQL => c !== undefined);
}

export async function countShipments(db: Executor, accountId: string, filters: ShipmentFilters): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(shipments)
    .where(and(...conditions(accountId, filters)));
  return Number(row!.total);
}

export interface PageRequest {
  limit: number;
  descending: boolean;
  /** Keyset: rows strictly after this one in the sort order. */
  after?: { createdAt: Date; id: string };
  offset?: number;
}

export async function findShipmentPage(db: Executor, accountId: string, filters: ShipmentFilters, page: PageRequest) {
  const where = conditions(accountId, filters);
  if (page.after) {
    const { createdAt, id } = page.after;
    // A row comparison walks the (account_id, created_at, id) index straight to the cursor.
    where.push(
      page.descending
        ? sql`(${shipments.createdAt}, ${shipments.id}) < (${createdAt.toISOString()}::timestamptz, ${id}::uuid)`
        : sql`(${shipments.createdAt}, ${shipments.id}) > (${createdAt.toISOString()}::timestamptz, ${id}::uuid)`,
    );
  }
  const direction = page.descending ? desc : asc;
  return db
    .select({ shipment: shipments, order: orders, storeName: stores.storeName })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .leftJoin(stores, eq(stores.id, shipments.storeId))
    .where(and(...where))
    .orderBy(direction(shipments.createdAt), direction(shipments.id))
    .limit(page.limit)
    .offset(page.offset ?? 0);
}

/** Items, milestones and events of one page of shipments: three queries, whatever the page size. */
export async function findPageDetails(db: Executor, accountId: string, orderIds: string[], shipmentIds: string[]) {
  const [items, milestones, events] = await Promise.all([
    db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.accountId, accountId), inArray(orderItems.orderId, orderIds)))
      .orderBy(asc(orderItems.position)),
    db
      .select()
      .from(shipmentMilestones)
      .where(and(eq(shipmentMilestones.accountId, accountId), inArray(shipmentMilestones.shipmentId, shipmentIds)))
      .orderBy(asc(shipmentMilestones.milestoneAt)),
    findEventsOf(db, accountId, shipmentIds),
  ]);
  return { items, milestones, events };
}
