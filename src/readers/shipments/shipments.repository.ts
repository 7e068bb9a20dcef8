import { type Column, and, arrayOverlaps, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../../base/db/client.js';
import { orders, shipmentCounts, shipmentFacetCounts, shipments, stores } from '../../base/db/schema.js';
import { BOOKING_MILESTONES, MILESTONE_NAMES, SHIPMENT_STATUSES } from '../../domain/shipment/status-machine.js';
import type { DateField } from './shipments.schemas.js';
import type { StatusCondition } from '../../domain/shipment/velocity-statuses.js';

import type { DateRange } from '../../domain/shipment/date-bounds.js';

export type { DateRange };

export interface ShipmentFilters {
  /** The listing's `status` as conditions, any of which a shipment meets (see velocity-statuses.ts). */
  statuses?: readonly StatusCondition[];
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
  /** The ids of storeNames in the account (see withStoreIds); an empty list matches nothing. */
  storeIds?: string[];
  /** The merchant's order ids (display_id); resolved to orderIds before any query (see withOrderIds). */
  displayIds?: string[];
  /** The order ids of displayIds in the account; an empty list matches nothing. */
  orderIds?: string[];
  weightMin?: number;
  weightMax?: number;
  attemptsMin?: number;
  attemptsMax?: number;
  /** Only fields with a bound. */
  dateRanges?: Partial<Record<DateField, DateRange>>;
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
export const likePattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The columns a status condition reads, in shipments or in shipment_counts ('' there for none). */
interface StatusColumns {
  status: Column;
  subStatus: Column;
  courierBooked: (booked: boolean) => SQL;
  rtoStarted?: SQL;
}

/**
 * A status filter as SQL. Plain statuses become one `status in (...)`, which the
 * (account_id, status, created_at, id) index serves; only words with more conditions need an OR.
 */
function statusFilter(conditions: readonly StatusCondition[], columns: StatusColumns): SQL | undefined {
  const plain = (c: StatusCondition) => c.subStatuses === undefined && c.courierBooked === undefined && !c.rtoStarted;
  if (conditions.every(plain)) return inArray(columns.status, conditions.map((c) => c.status));
  return or(
    ...conditions.map((c) =>
      and(
        eq(columns.status, c.status),
        c.subStatuses && inArray(columns.subStatus, [...c.subStatuses]),
        c.courierBooked === undefined ? undefined : columns.courierBooked(c.courierBooked),
        c.rtoStarted && columns.rtoStarted,
      ),
    ),
  );
}

const SHIPMENT_STATUS_COLUMNS: StatusColumns = {
  status: shipments.status,
  subStatus: shipments.subStatus,
  courierBooked: (booked) => (booked ? isNotNull(shipments.carrierId) : isNull(shipments.carrierId)),
  rtoStarted: isNotNull(shipments.rtoInitiatedAt),
};

/** Every filter is a condition on the shipments table itself (see the schema), never a join. */
function conditions(accountId: string, f: ShipmentFilters): SQL[] {
  const where: (SQL | undefined)[] = [eq(shipments.accountId, accountId)];
  const anyOf = <T>(column: Parameters<typeof inArray>[0], values: T[] | undefined) =>
    values ? inArray(column, values as unknown[]) : undefined;
  if (f.statuses) where.push(statusFilter(f.statuses, SHIPMENT_STATUS_COLUMNS));
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
  if (f.storeIds) where.push(f.storeIds.length > 0 ? inArray(shipments.storeId, f.storeIds) : sql`false`);
  if (f.orderIds) where.push(f.orderIds.length > 0 ? inArray(shipments.orderId, f.orderIds) : sql`false`);
  if (f.weightMin !== undefined) where.push(gte(shipments.appliedWeightGrams, f.weightMin));
  if (f.weightMax !== undefined) where.push(lte(shipments.appliedWeightGrams, f.weightMax));
  if (f.attemptsMin !== undefined) where.push(gte(shipments.attemptCount, f.attemptsMin));
  if (f.attemptsMax !== undefined) where.push(lte(shipments.attemptCount, f.attemptsMax));
  for (const [field, range] of Object.entries(f.dateRanges ?? {}) as [DateField, DateRange][]) {
    if (range.from) where.push(gte(DATE_COLUMNS[field], range.from));
    if (range.to) where.push(lte(DATE_COLUMNS[field], range.to));
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
  activeFilters(f).every((key) => COUNTED_FILTERS.has(key)) && !f.statuses?.some((c) => c.rtoStarted);

const COUNTER_STATUS_COLUMNS: StatusColumns = {
  status: shipmentCounts.status,
  subStatus: shipmentCounts.subStatus,
  courierBooked: (booked) => (booked ? ne(shipmentCounts.carrierId, '') : eq(shipmentCounts.carrierId, '')),
};

/** The exact count from shipment_counts, when every filter is one of its columns. */
function countedTotal(db: Executor, accountId: string, f: ShipmentFilters) {
  const c = shipmentCounts;
  const where: (SQL | undefined)[] = [
    eq(c.accountId, accountId),
    f.statuses && statusFilter(f.statuses, COUNTER_STATUS_COLUMNS),
    f.subStatuses && inArray(c.subStatus, f.subStatuses),
    f.channels && inArray(c.channel, f.channels),
    f.zones && inArray(c.zone, f.zones),
    f.isCod === undefined ? undefined : eq(c.isCod, f.isCod),
    f.carrierIds && inArray(c.carrierId, f.carrierIds),
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
  if (filters.storeIds?.length === 0 || filters.orderIds?.length === 0) return 0;
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
export async function findPage(db: Executor, accountId: string, filters: ShipmentFilters, page: PageRequest): Promise<PageRow[]> {
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
  return queryPreparedRows<PageRow>(
    db,
    sql`select ${ELEMENT_COLUMNS}, page_ids.matching, (${total}) as total
        from (${pageIds}) page_ids
        join shipments s on s.account_id = ${accountId} and s.id = page_ids.id
        join orders o on o.id = s.order_id
        left join stores st on st.id = s.store_id
        order by s.created_at ${page.descending ? sql.raw('desc') : sql.raw('asc')}, s.id ${page.descending ? sql.raw('desc') : sql.raw('asc')}`,
  );
}

/** A shipment as the database writes its listing element; the service adds what only it knows. */
export interface ElementRow {
  id: string;
  /** created_at in milliseconds, as the keyset cursor carries it. */
  created_ms: string;
  carrier_id: string | null;
  awb: string | null;
  status: string;
  /** The secret of the customer's tracking link. */
  track_token: string;
  /** The attributes the database knows, as one JSON object's text (see ATTRIBUTES). */
  attributes: string;
}

/** These shipments as the listing writes them, by the same statement's columns (event snapshots). */
export function findElements(db: Executor, accountId: string, shipmentIds: string[]): Promise<ElementRow[]> {
  if (shipmentIds.length === 0) return Promise.resolve([]);
  return queryPreparedRows<ElementRow>(
    db,
    sql`select ${ELEMENT_COLUMNS}
        from shipments s
        join orders o on o.id = s.order_id
        left join stores st on st.id = s.store_id
        where s.account_id = ${accountId} and s.id = any(${`{${shipmentIds.join(',')}}`}::uuid[])`,
  );
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

const MILESTONE_ORDER = `'{${[...BOOKING_MILESTONES, ...SHIPMENT_STATUSES.map((status) => MILESTONE_NAMES[status])].join(',')}}'`;

/** A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** Paise as rupees, the division JavaScript does (paiseToRupees): double precision, shortest form. */
const rupees = (column: string) => `${column}::float8 / 100`;

/**
 * A listing element's attributes, written by the database from the page's row (s: shipment, o: its
 * order, st: its store). The fields only the API process knows (the courier's name from the
 * catalogue; signed or per-request links) are added by the service in its one pass over the rows.
 */
const ATTRIBUTES = sql.raw(`json_build_object(
  'tracking_number', s.awb,
  'status', s.status,
  'sub_status', s.sub_status,
  'created_at', ${iso('s.created_at')},
  'expected_delivery_date', s.expected_delivery_date,
  'warehouse_id', s.warehouse_id,
  'total_price', ${rupees('s.total_price_paise')},
  'cod_amount', ${rupees('s.cod_amount_paise')},
  'is_cod', s.is_cod,
  'zone', 'zone_' || lower(s.zone),
  'applied_weight', json_build_object('value', s.applied_weight_grams, 'metric_unit', 'g'),
  'attempt_count', s.attempt_count,
  'return', (
    -- At most one live return per shipment (returns_forward_shipment_key): it is shown over
    -- cancelled ones, else the latest.
    select json_build_object('return_id', r.id, 'awb_code', r.awb, 'status', r.status)
      from returns r where r.account_id = s.account_id and r.forward_shipment_id = s.id
     order by r.status <> 'return_cancelled' desc, r.created_at desc limit 1),
  'order', json_build_object(
    'id', o.id,
    'order_date', ${iso('o.order_date')},
    'channel', o.channel,
    'display_id', o.merchant_order_id,
    'external_id', o.merchant_order_id,
    'store_name', st.store_name,
    'channel_id', o.channel_ref,
    'vendor_details', o.vendor_details),
  'items', coalesce((
    select json_agg(json_build_object('id', i.id, 'quantity', i.units, 'price', ${rupees('i.selling_price_paise')}, 'name', i.name, 'sku', i.sku)
                    order by i.position)
      from order_items i where i.account_id = s.account_id and i.order_id = o.id), '[]'),
  'shipping_address', json_build_object(
    'name', concat_ws(' ', nullif(o.shipping_name, ''), nullif(o.shipping_last_name, '')),
    'phone', o.shipping_phone,
    'city', o.shipping_city,
    'state', o.shipping_state,
    'zip', o.shipping_pincode),
  'shipment_milestones', coalesce((
    -- Booking milestones share instants (order_created and courier_assigned; the two promised
    -- dates): lifecycle order breaks the tie.
    select json_agg(json_build_object('milestone', m.milestone, 'milestone_at', ${iso('m.milestone_at')})
                    order by m.milestone_at, array_position(${MILESTONE_ORDER}::text[], m.milestone))
      from shipment_milestones m where m.account_id = s.account_id and m.shipment_id = s.id), '[]'),
  'ndr_actions', coalesce((
    select json_agg(json_build_object('id', a.id, 'action', a.action, 'requested_by', a.requested_by,
                                      'requested_at', ${iso('a.created_at')}, 'acknowledged_at', ${iso('a.acknowledged_at')},
                                      'details', a.payload)
                    order by a.created_at, a.id)
      from shipment_actions a where a.account_id = s.account_id and a.shipment_id = s.id), '[]'),
  'tracking_details', coalesce((
    select json_agg(json_build_object('id', e.id, 'status', e.status, 'last_location', e.location,
                                      'event_date_time', ${iso('e.event_time')}, 'description', e.description)
                    order by e.event_time, e.received_at)
      from tracking_events e where e.account_id = s.account_id and e.shipment_id = s.id), '[]'))`);

const ELEMENT_COLUMNS = sql`s.id, floor(extract(epoch from s.created_at) * 1000)::bigint::text as created_ms, s.carrier_id, s.awb, s.status, s.track_token,
  ${ATTRIBUTES}::text as attributes`;
