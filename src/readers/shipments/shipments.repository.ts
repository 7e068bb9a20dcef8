import { and, asc, count, desc, eq, gte, inArray, lte, ne, SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRowsByKey, queryRows } from '../../base/db/client.js';
import {
  shipmentCounts,
  shipmentDailyTotals,
  shipmentFacetCounts,
  shipmentMonthlyTotals,
  shipments,
} from '../../base/db/schema.js';
import { type DayRange, formatDay, planDayTotals, splitIntoMonths } from '../../domain/calendar.js';
import { ELEMENT_COLUMNS, ELEMENT_JOINS, type ElementRow } from './shipment-element.repository.js';
import { conditions, type ShipmentFilters } from './shipment-filters.repository.js';
import { COUNTER_STATUS_COLUMNS, needsRows, statusFilter } from './status-filter.js';

// The listing's counts and pages: how many shipments match the filters (from the counters where
// they can answer), and one page of them in one statement.

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

const activeFilters = (f: ShipmentFilters) =>
  (Object.keys(f) as (keyof ShipmentFilters)[]).filter((key) => f[key] !== undefined);

/**
 * Whether shipment_counts can answer: every filter is one of its columns. Each shipment is in
 * exactly one of its rows, so a status word's OR of conditions sums each shipment once.
 */
const countable = (f: ShipmentFilters) =>
  activeFilters(f).every((key) => COUNTED_FILTERS.has(key)) &&
  !f.statuses?.some(needsRows) &&
  !f.granular?.some(needsRows);

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

/** The widest instants a created_at range without a bound stands for. */
const EARLIEST = new Date(0);
const LATEST = new Date('9999-12-30T00:00:00Z');

/**
 * The exact count of a created_at range (with or without a store filter, nothing else): its whole
 * India calendar months summed from shipment_monthly_totals and its other whole India days from
 * shipment_daily_totals, the parts of days at its ends counted on the account's created_at index
 * (or their days summed and the rest of those days counted off, when that is less to count: a
 * range that ends `now` counts off the empty rest of today), so a year's range reads a dozen
 * months' and about a month of days' rows rather than a year's index.
 */
function createdRangeTotal(db: Executor, accountId: string, f: ShipmentFilters, now: Date): SQLWrapper | undefined {
  const active = activeFilters(f).filter((key) => key !== 'storeIds');
  const range = f.dateRanges?.created_at;
  if (active.length !== 1 || active[0] !== 'dateRanges' || !range || Object.keys(f.dateRanges!).length !== 1)
    return undefined;
  const { days, add, subtract } = planDayTotals({ from: range.from ?? EARLIEST, to: range.to ?? LATEST }, now);
  // The totals key a store by its id as text ('' for none), which the ids compare equal to.
  const inStores = (column: Parameters<typeof inArray>[0]) => (f.storeIds ? [inArray(column, f.storeIds)] : []);
  const counted = (part: { from: Date; to: Date }) =>
    sql`(${db
      .select({ n: count() })
      .from(shipments)
      .where(
        and(
          eq(shipments.accountId, accountId),
          gte(shipments.createdAt, part.from),
          lte(shipments.createdAt, part.to),
          ...inStores(shipments.storeId),
        ),
      )})`;
  const parts = add.map(counted);
  if (days) {
    const { months, days: rest } = splitIntoMonths(days);
    const summed = (
      t: typeof shipmentMonthlyTotals | typeof shipmentDailyTotals,
      key: typeof shipmentMonthlyTotals.month | typeof shipmentDailyTotals.day,
      r: DayRange,
    ) =>
      sql`(${db
        .select({ n: sql`coalesce(sum(${t.shipments}), 0)` })
        .from(t)
        .where(
          and(
            eq(t.accountId, accountId),
            gte(key, formatDay(r.first)),
            lte(key, formatDay(r.last)),
            ...inStores(t.storeId),
          ),
        )})`;
    if (months) parts.push(summed(shipmentMonthlyTotals, shipmentMonthlyTotals.month, months));
    for (const r of rest) parts.push(summed(shipmentDailyTotals, shipmentDailyTotals.day, r));
  }
  const sum = parts.length === 0 ? sql`0` : sql.join(parts, sql` + `);
  return sql`select ${sum}${sql.join(
    subtract.map((part) => sql` - ${counted(part)}`),
    sql``,
  )} as total`;
}

/**
 * The query that counts the shipments matching the filters, or 0 when nothing can match (store
 * names or order ids the account does not have). Equality filters (and attempt ranges) are
 * answered from the counters the triggers keep, at a cost independent of the account's size; the
 * rest count matching rows through the account's indexes.
 */
function countQuery(db: Executor, accountId: string, filters: ShipmentFilters, now: Date): SQLWrapper | 0 {
  if (filters.storeIds?.length === 0 || filters.orderIds?.length === 0 || filters.unkept) return 0;
  const active = activeFilters(filters);
  return (
    (countable(filters) && countedTotal(db, accountId, filters)) ||
    (active.length === 1 && facetTotal(db, accountId, filters, active[0]!)) ||
    createdRangeTotal(db, accountId, filters, now) ||
    db
      .select({ total: count() })
      .from(shipments)
      .where(and(...conditions(accountId, filters)))
  );
}

/** The exact number of shipments matching the filters, as of `now` (see createdRangeTotal). */
export async function countShipments(
  db: Executor,
  accountId: string,
  filters: ShipmentFilters,
  now: Date,
): Promise<number> {
  const query = countQuery(db, accountId, filters, now);
  if (query === 0) return 0;
  // A query builder, or createdRangeTotal's plain statement.
  const [row] =
    query instanceof SQL
      ? await queryRows<{ total: string | number }>(db, query)
      : await (query as unknown as Promise<{ total: string | number }[]>);
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
  /** The time the total is taken at: a created_at range's whole days hold nothing after it. Absent: no such bound. */
  countedAt?: Date;
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
export function findPage(
  db: Executor,
  accountId: string,
  filters: ShipmentFilters,
  page: PageRequest,
): Promise<PageRow[]> {
  // The filters and page are plain data (dates as their ISO text): their JSON names the statement.
  // The time of the count changes it only with a created_at range, whose statement is its own anyway.
  const { countedAt, ...rest } = page;
  const at = filters.dateRanges?.created_at && countedAt ? `|${countedAt.toISOString()}` : '';
  const key = `shipments.findPage|${accountId}|${JSON.stringify(filters)}|${JSON.stringify(rest)}${at}`;
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
  const matches = page.countMatches
    ? matchesCountedPage(db, where, direction)
    : db
        .select({ id: shipments.id, matching: sql<null>`null`.as('matching') })
        .from(shipments)
        .where(and(...where))
        .orderBy(direction(shipments.createdAt), direction(shipments.id));
  const pageIds = sql`${matches} ${pageBounds(page)}`;
  const total = page.countMatches ? sql`null` : countQuery(db, accountId, filters, page.countedAt ?? LATEST);
  return sql`select ${ELEMENT_COLUMNS}, page_ids.matching, (${total}) as total
        from (${pageIds}) page_ids
        join shipments s on s.account_id = ${accountId} and s.id = page_ids.id
        ${ELEMENT_JOINS}
        order by s.created_at ${page.descending ? sql.raw('desc') : sql.raw('asc')}, s.id ${page.descending ? sql.raw('desc') : sql.raw('asc')}`;
}

/**
 * The page's ids with the number of all matching rows, from one pass over the matches: the
 * matches are a CTE read twice (counted, and sorted for the page), which PostgreSQL materialises,
 * so they are found once, by the best plan for finding them (the trigram index for a search). A
 * window count (`count(*) over ()`) would do the same in principle, but PostgreSQL 15 costs it as
 * if the LIMIT could stop it early and may walk the whole account in created_at order instead.
 */
function matchesCountedPage(db: Executor, where: SQL[], direction: typeof asc) {
  const matches = db.$with('matches').as(
    db
      .select({ id: shipments.id, createdAt: shipments.createdAt })
      .from(shipments)
      .where(and(...where)),
  );
  return db
    .with(matches)
    .select({ id: matches.id, matching: sql<string | number>`(select count(*) from ${matches})`.as('matching') })
    .from(matches)
    .orderBy(direction(matches.createdAt), direction(matches.id));
}

/**
 * The page's LIMIT as a literal, and its OFFSET too when there is none. With either a parameter,
 * PostgreSQL costs the statement's generic plan as if the page held a tenth of the account's rows
 * (7,300 of a year's): under plan_cache_mode auto it then planned the statement anew at every
 * execution (3.5 ms of planning at a year, as much as running it), and the generic plan itself
 * hash-joined the whole account (1.5 s). Knowing the bounds, it keeps a generic plan that walks
 * the index to the page. A LIMIT takes few values (per_page + 1), so the statements stay few; a
 * later page's OFFSET stays a parameter, so paging deeper does not prepare a statement per page
 * (those pages are planned at each execution, as every page was before).
 */
function pageBounds(page: PageRequest): SQL {
  if (!Number.isSafeInteger(page.limit) || page.limit < 0) throw new RangeError(`page limit ${page.limit}`);
  const limit = sql.raw(`limit ${page.limit}`);
  return page.offset ? sql`${limit} offset ${page.offset}` : limit;
}
