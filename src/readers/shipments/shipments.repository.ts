import { and, arrayOverlaps, asc, type Column, count, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRowsByKey } from '../../base/db/client.js';
import { orderConfirmations, orders, shipmentCounts, shipmentMilestones, shipmentFacetCounts, shipments, stores } from '../../base/db/schema.js';
import type { DateField } from './shipments.schemas.js';
import type { StatusCondition } from '../../domain/shipment/granular-statuses.js';
import { MILESTONE_NAMES } from '../../domain/shipment/status-machine.js';
import { COUNTER_STATUS_COLUMNS, needsRows, SHIPMENT_STATUS_COLUMNS, statusFilter } from './status-filter.js';

import type { DateRange } from '../../domain/shipment/date-bounds.js';
import { ELEMENT_COLUMNS, type ElementRow } from './shipment-element.repository.js';
import { UUID } from '../../base/uuid.js';

export type { DateRange };


export interface ShipmentFilters {
  /** The listing's `status` as conditions, any of which a shipment meets (see velocity-statuses.ts). */
  statuses?: readonly StatusCondition[];
  /** `granular_status[]` as conditions (granular-statuses.ts); an empty list matches nothing. */
  granular?: readonly StatusCondition[];
  /** `sub_status[]`: the sub-status itself. */
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
  /** rto_risk[], address_validity[] and ndr_all_outcomes[] (docs/rto.md). */
  rtoRisks?: string[];
  addressValidities?: string[];
  ndrOutcomes?: string[];
  /** Lower-cased. */
  storeNames?: string[];
  /** The ids of storeNames in the account (see withStoreIds); an empty list matches nothing. */
  storeIds?: string[];
  /** The merchant's order ids (display_id); resolved to orderIds before any query (see withOrderIds). */
  displayIds?: string[];
  /** The order ids of displayIds in the account; an empty list matches nothing. */
  orderIds?: string[];
  /** Order-confirmation outcomes (order_confirmations, written by buyer messaging). */
  confirmationOutcomes?: string[];
  /** COD-to-prepaid states of the confirmation: offered, paid. */
  codToPrepaid?: string[];
  /** A courier is booked (AWB and label made): carrier_id is set with the AWB. */
  labelGenerated?: boolean;
  /** On a pickup's manifest (features/pickups) or not. */
  manifested?: boolean;
  /** On this pickup; text that is not a pickup id matches nothing. */
  pickupId?: string;
  /** The shipping city, whole, case-insensitive. */
  city?: string;
  /** A filter on data Dakiya does not keep (unkeptFilter): nothing matches. */
  unkept?: string;
  weightMin?: number;
  weightMax?: number;
  attemptsMin?: number;
  attemptsMax?: number;
  /** Only fields with a bound. */
  dateRanges?: Partial<Record<DateField, DateRange>>;
  search?: string;
}

/** Velocity's date fields that are milestones (shipment_milestones), by milestone name. */
const MILESTONE_DATES = {
  ndr_raised_at: MILESTONE_NAMES.ndr_raised,
  expected_delivery_date_at: 'expected_delivery_date',
  original_expected_delivery_date_at: 'original_expected_delivery_date',
} as const satisfies Partial<Record<DateField, string>>;

const DATE_COLUMNS: Record<Exclude<DateField, keyof typeof MILESTONE_DATES>, Column> = {
  ready_for_pickup_at: shipments.assignedAt,
  in_transit_at: shipments.pickedUpAt,
  order_date: shipments.orderDate,
  created_at: shipments.createdAt,
  updated_at: shipments.updatedAt,
  picked_up_at: shipments.pickedUpAt,
  delivered_at: shipments.deliveredAt,
  cancelled_at: shipments.cancelledAt,
  rto_initiated_at: shipments.rtoInitiatedAt,
  rto_delivered_at: shipments.rtoDeliveredAt,
};

/**
 * A milestone's date range: the shipments whose milestone falls in it, found through the
 * milestones' (account_id, milestone, milestone_at) index rather than by each row's milestones.
 */
function milestoneInRange(milestone: string, range: DateRange): SQL {
  const m = shipmentMilestones;
  return inArray(
    shipments.id,
    sql`(select ${m.shipmentId} from ${m} where ${and(
      eq(m.accountId, shipments.accountId),
      eq(m.milestone, milestone),
      range.from && gte(m.milestoneAt, range.from),
      range.to && lte(m.milestoneAt, range.to),
    )})`,
  );
}

/** LIKE treats % _ and \ specially; a search for them means the characters themselves. */
export const likePattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every filter is a condition on the shipments table itself (see the schema), never a join. */
function conditions(accountId: string, f: ShipmentFilters): SQL[] {
  const where: (SQL | undefined)[] = [eq(shipments.accountId, accountId)];
  const anyOf = <T>(column: Parameters<typeof inArray>[0], values: T[] | undefined) =>
    values ? inArray(column, values as unknown[]) : undefined;
  if (f.statuses) where.push(statusFilter(f.statuses, SHIPMENT_STATUS_COLUMNS));
  if (f.granular) where.push(statusFilter(f.granular, SHIPMENT_STATUS_COLUMNS));
  where.push(anyOf(shipments.subStatus, f.subStatuses));
  where.push(anyOf(shipments.carrierId, f.carrierIds));
  where.push(anyOf(shipments.warehouseId, f.warehouseIds));
  where.push(anyOf(shipments.channel, f.channels));
  where.push(anyOf(shipments.zone, f.zones));
  where.push(anyOf(shipments.ndrReason, f.ndrReasons));
  where.push(anyOf(shipments.rtoReason, f.rtoReasons));
  where.push(anyOf(shipments.rtoRisk, f.rtoRisks));
  where.push(anyOf(shipments.addressValidity, f.addressValidities));
  if (f.ndrOutcomes) where.push(arrayOverlaps(shipments.ndrOutcomes, f.ndrOutcomes));
  if (f.isCod !== undefined) where.push(eq(shipments.isCod, f.isCod));
  if (f.skus) where.push(arrayOverlaps(shipments.skus, f.skus));
  if (f.tags) where.push(arrayOverlaps(shipments.tags, f.tags));
  if (f.storeIds) where.push(f.storeIds.length > 0 ? inArray(shipments.storeId, f.storeIds) : sql`false`);
  if (f.orderIds) where.push(f.orderIds.length > 0 ? inArray(shipments.orderId, f.orderIds) : sql`false`);
  if (f.weightMin !== undefined) where.push(gte(shipments.appliedWeightGrams, f.weightMin));
  if (f.weightMax !== undefined) where.push(lte(shipments.appliedWeightGrams, f.weightMax));
  if (f.attemptsMin !== undefined) where.push(gte(shipments.attemptCount, f.attemptsMin));
  if (f.attemptsMax !== undefined) where.push(lte(shipments.attemptCount, f.attemptsMax));
  if (f.unkept) where.push(sql`false`);
  const confirmed = (column: typeof orderConfirmations.outcome | typeof orderConfirmations.codToPrepaid, values: string[]) =>
    sql`exists (select 1 from ${orderConfirmations} where ${orderConfirmations.accountId} = ${shipments.accountId} and ${orderConfirmations.shipmentId} = ${shipments.id} and ${inArray(column, values)})`;
  if (f.confirmationOutcomes) where.push(confirmed(orderConfirmations.outcome, f.confirmationOutcomes));
  if (f.codToPrepaid) where.push(confirmed(orderConfirmations.codToPrepaid, f.codToPrepaid));
  if (f.labelGenerated !== undefined) where.push(f.labelGenerated ? isNotNull(shipments.carrierId) : isNull(shipments.carrierId));
  if (f.manifested !== undefined) where.push(f.manifested ? isNotNull(shipments.pickupId) : isNull(shipments.pickupId));
  if (f.pickupId !== undefined) where.push(UUID.test(f.pickupId) ? eq(shipments.pickupId, f.pickupId) : sql`false`);
  // The trigram index finds the candidates (the city is in search_text); the order says which are that city.
  if (f.city) {
    where.push(sql`${shipments.searchText} like ${likePattern(f.city)}`);
    where.push(sql`exists (select 1 from ${orders} where ${orders.id} = ${shipments.orderId} and lower(${orders.shippingCity}) = ${f.city.toLowerCase()})`);
  }
  for (const [field, range] of Object.entries(f.dateRanges ?? {}) as [DateField, DateRange][]) {
    if (field in MILESTONE_DATES) {
      where.push(milestoneInRange(MILESTONE_DATES[field as keyof typeof MILESTONE_DATES], range));
      continue;
    }
    const column = DATE_COLUMNS[field as keyof typeof DATE_COLUMNS];
    if (range.from) where.push(gte(column, range.from));
    if (range.to) where.push(lte(column, range.to));
  }
  if (f.search) where.push(sql`${shipments.searchText} like ${likePattern(f.search)}`);
  return where.filter((c): c is SQL => c !== undefined);
}

/**
 * Store names become the account's store ids before any query: a list of constants lets the
 * planner walk the (account_id, store_id, created_at, id) index or the created_at one, where a
 * subquery made it join and sort every matching row.
 */
export async function withStoreIds(db: Executor, accountId: string, f: ShipmentFilters): Promise<ShipmentFilters> {
  if (!f.storeNames) return f;
  const found = await db
    .select({ id: stores.id })
    .from(stores)
    .where(and(eq(stores.accountId, accountId), inArray(sql`lower(${stores.storeName})`, f.storeNames)));
  return { ...f, storeNames: undefined, storeIds: found.map((row) => row.id) };
}

/**
 * Merchant order ids become the account's order ids, through orders' unique (account_id,
 * merchant_order_id) index, for the same reason: shipments has no merchant order id, and its
 * (account_id, order_id) index then finds each one.
 */
export async function withOrderIds(db: Executor, accountId: string, f: ShipmentFilters): Promise<ShipmentFilters> {
  if (!f.displayIds) return f;
  const found = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), inArray(orders.merchantOrderId, f.displayIds)));
  return { ...f, displayIds: undefined, orderIds: found.map((row) => row.id) };
}

/** The filters shipment_counts has a column for; any combination of them is a sum over its rows. */
const COUNTED_FILTERS = new Set<keyof ShipmentFilters>([
  'statuses',
  'granular',
  'labelGenerated',
  'subStatuses',
  'channels',
  'zones',
  'isCod',
  'carrierIds',
  'attemptsMin',
  'attemptsMax',
  'ndrReasons',
  'rtoReasons',
]);

const activeFilters = (f: ShipmentFilters) => (Object.keys(f) as (keyof ShipmentFilters)[]).filter((key) => f[key] !== undefined);

/**
 * Whether shipment_counts can answer: every filter is one of its columns. Each shipment is in
 * exactly one of its rows, so a status word's OR of conditions sums each shipment once.
 */
const countable = (f: ShipmentFilters) =>
  activeFilters(f).every((key) => COUNTED_FILTERS.has(key)) && !f.statuses?.some(needsRows) && !f.granular?.some(needsRows);


/** The exact count from shipment_counts, when every filter is one of its columns. */
function countedTotal(db: Executor, accountId: string, f: ShipmentFilters) {
  const c = shipmentCounts;
  const where: (SQL | undefined)[] = [
    eq(c.accountId, accountId),
    f.statuses && statusFilter(f.statuses, COUNTER_STATUS_COLUMNS),
    f.granular && statusFilter(f.granular, COUNTER_STATUS_COLUMNS),
    f.subStatuses && inArray(c.subStatus, f.subStatuses),
    f.channels && inArray(c.channel, f.channels),
    f.zones && inArray(c.zone, f.zones),
    f.isCod === undefined ? undefined : eq(c.isCod, f.isCod),
    f.carrierIds && inArray(c.carrierId, f.carrierIds),
    f.labelGenerated === undefined ? undefined : f.labelGenerated ? ne(c.carrierId, '') : eq(c.carrierId, ''),
    f.attemptsMin === undefined ? undefined : gte(c.attemptCount, f.attemptsMin),
    f.attemptsMax === undefined ? undefined : lte(c.attemptCount, f.attemptsMax),
    f.ndrReasons && inArray(c.ndrReason, f.ndrReasons),
    f.rtoReasons && inArray(c.rtoReason, f.rtoReasons),
  ];
  return db
    .select({ total: sql<string | number>`coalesce(sum(${c.shipments}), 0)` })
    .from(c)
    .where(and(...where));
}

/**
 * The exact count from shipment_facet_counts, for a filter on its own that it counts exactly:
 * warehouses or stores (one value each per shipment, so the counts add up), or a single SKU or tag
 * (a shipment with two of several asked-for tags would be counted twice, so not several).
 */
function facetTotal(db: Executor, accountId: string, f: ShipmentFilters, key: keyof ShipmentFilters) {
  const c = shipmentFacetCounts;
  const of = (facet: string, values: string[]) =>
    db
      .select({ total: sql<string | number>`coalesce(sum(${c.shipments}), 0)` })
      .from(c)
      .where(and(eq(c.accountId, accountId), eq(c.facet, facet), inArray(c.value, values)));
  if (key === 'warehouseIds') return of('warehouse', f.warehouseIds!);
  if (key === 'storeIds') return of('store', f.storeIds!);
  if (key === 'skus' && f.skus!.length === 1) return of('sku', f.skus!);
  if (key === 'tags' && f.tags!.length === 1) return of('tag', f.tags!);
  return undefined;
}

/**
 * The query that counts the shipments matching the filters, or 0 when nothing can match (store
 * names or order ids the account does not have). Equality filters (and attempt ranges) are
 * answered from the counters the triggers keep, at a cost independent of the account's size; the
 * rest count matching rows through the account's indexes.
 */
function countQuery(db: Executor, accountId: string, filters: ShipmentFilters): SQLWrapper | 0 {
  if (filters.storeIds?.length === 0 || filters.orderIds?.length === 0 || filters.unkept) return 0;
  const active = activeFilters(filters);
  return (
    (countable(filters) && countedTotal(db, accountId, filters)) ||
    (active.length === 1 && facetTotal(db, accountId, filters, active[0]!)) ||
    db
      .select({ total: count() })
      .from(shipments)
      .where(and(...conditions(accountId, filters)))
  );
}

/** The exact number of shipments matching the filters. */
export async function countShipments(db: Executor, accountId: string, filters: ShipmentFilters): Promise<number> {
  const query = countQuery(db, accountId, filters);
  if (query === 0) return 0;
  const [row] = (await (query as unknown as Promise<{ total: string | number }[]>));
  return Number(row!.total);
}

export interface PageRequest {
  limit: number;
  descending: boolean;
  /** Keyset: rows strictly after this one in the sort order. */
  after?: { createdAt: Date; id: string };
  offset?: number;
  /**
   * Also count every matching row (`matching` on each row returned), in the same scan. For a
   * search, whose matches are found and sorted anyway, this saves a second pass over them.
   */
  countMatches?: boolean;
}

/** A listing row as the database writes it: the element's attributes already JSON text. */
export interface PageRow extends ElementRow {
  /** With countMatches: every match of the filters. */
  matching: string | number | null;
  /** Without countMatches: the exact count of the filters' matches. */
  total: string | number | null;
}

/**
 * One page of the listing in one statement: the page's ids (filtered and ordered on shipments
 * alone, an index-only walk when unfiltered), those rows joined to their orders and stores, their
 * items, milestones, NDR actions, events and live return aggregated by the database into each
 * row's attributes as JSON text, and the exact total as a scalar subquery evaluated once. The API
 * process parses a few short columns per row and copies the text into the answer.
 */
export function findPage(db: Executor, accountId: string, filters: ShipmentFilters, page: PageRequest): Promise<PageRow[]> {
  // The filters and page are plain data (dates as their ISO text): their JSON names the statement.
  const key = `shipments.findPage|${accountId}|${JSON.stringify(filters)}|${JSON.stringify(page)}`;
  return queryPreparedRowsByKey<PageRow>(db, key, () => pageStatement(db, accountId, filters, page));
}

/** The page's statement, as findPage runs it (exported for the listing benchmark's bare baseline, which runs the same SQL). */
export function pageStatement(db: Executor, accountId: string, filters: ShipmentFilters, page: PageRequest): SQL {
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
  const pageIds = page.countMatches
    ? matchesCountedPage(db, where, direction, page)
    : db
        .select({ id: shipments.id, matching: sql<null>`null`.as('matching') })
        .from(shipments)
        .where(and(...where))
        .orderBy(direction(shipments.createdAt), direction(shipments.id))
        .limit(page.limit)
        .offset(page.offset ?? 0);
  const total = page.countMatches ? sql`null` : countQuery(db, accountId, filters);
  return sql`select ${ELEMENT_COLUMNS}, page_ids.matching, (${total}) as total
        from (${pageIds}) page_ids
        join shipments s on s.account_id = ${accountId} and s.id = page_ids.id
        join orders o on o.id = s.order_id
        left join stores st on st.id = s.store_id
        order by s.created_at ${page.descending ? sql.raw('desc') : sql.raw('asc')}, s.id ${page.descending ? sql.raw('desc') : sql.raw('asc')}`;
}

/**
 * The page's ids with the number of all matching rows, from one pass over the matches: the
 * matches are a CTE read twice (counted, and sorted for the page), which PostgreSQL materialises,
 * so they are found once, by the best plan for finding them (the trigram index for a search). A
 * window count (`count(*) over ()`) would do the same in principle, but PostgreSQL 15 costs it as
 * if the LIMIT could stop it early and may walk the whole account in created_at order instead.
 */
function matchesCountedPage(db: Executor, where: SQL[], direction: typeof asc, page: PageRequest) {
  const matches = db
    .$with('matches')
    .as(db.select({ id: shipments.id, createdAt: shipments.createdAt }).from(shipments).where(and(...where)));
  return db
    .with(matches)
    .select({ id: matches.id, matching: sql<string | number>`(select count(*) from ${matches})`.as('matching') })
    .from(matches)
    .orderBy(direction(matches.createdAt), direction(matches.id))
    .limit(page.limit)
    .offset(page.offset ?? 0);
}
