import { and, arrayOverlaps, type Column, eq, gte, inArray, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { orderConfirmations, orders, shipmentMilestones, shipments, stores } from '../../base/db/schema.js';
import { UUID } from '../../base/uuid.js';
import { normalizeIndianPhone } from '../../domain/geo/phone.js';
import type { DateRange } from '../../domain/shipment/date-bounds.js';
import type { StatusCondition } from '../../domain/shipment/granular-statuses.js';
import { MILESTONE_NAMES } from '../../domain/shipment/status-machine.js';
import type { DateField } from './shipments.schemas.js';
import { SHIPMENT_STATUS_COLUMNS, statusFilter } from './status-filter.js';

// The listing's filters as conditions on the shipments table, and the names among them (stores,
// the merchant's order ids) resolved to the account's ids before any query.

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
  /** The shipments a search's whole key named (withSearchKeys), in place of the search. */
  shipmentIds?: string[];
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
export function conditions(accountId: string, f: ShipmentFilters): SQL[] {
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
  const confirmed = (
    column: typeof orderConfirmations.outcome | typeof orderConfirmations.codToPrepaid,
    values: string[],
  ) =>
    sql`exists (select 1 from ${orderConfirmations} where ${orderConfirmations.accountId} = ${shipments.accountId} and ${orderConfirmations.shipmentId} = ${shipments.id} and ${inArray(column, values)})`;
  if (f.confirmationOutcomes) where.push(confirmed(orderConfirmations.outcome, f.confirmationOutcomes));
  if (f.codToPrepaid) where.push(confirmed(orderConfirmations.codToPrepaid, f.codToPrepaid));
  if (f.labelGenerated !== undefined)
    where.push(f.labelGenerated ? isNotNull(shipments.carrierId) : isNull(shipments.carrierId));
  if (f.manifested !== undefined) where.push(f.manifested ? isNotNull(shipments.pickupId) : isNull(shipments.pickupId));
  if (f.pickupId !== undefined) where.push(UUID.test(f.pickupId) ? eq(shipments.pickupId, f.pickupId) : sql`false`);
  // The trigram index finds the candidates (the city is in search_text); the order says which are that city.
  if (f.city) {
    where.push(sql`${shipments.searchText} like ${likePattern(f.city)}`);
    where.push(
      sql`exists (select 1 from ${orders} where ${orders.id} = ${shipments.orderId} and lower(${orders.shippingCity}) = ${f.city.toLowerCase()})`,
    );
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
  if (f.shipmentIds) where.push(inArray(shipments.id, f.shipmentIds));
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

/**
 * A search that is a whole key of the account's shipments, in any case (an AWB, the merchant's
 * order id, the order's id) or a buyer's phone in any notation, finds those shipments through
 * their unique indexes: what an operator pastes, answered in a few index lookups where the
 * trigram index reads the long posting lists of a sequential series' common trigrams (`000`,
 * the courier's prefix). Anything else, and a key nothing has, stays a substring search.
 */
export async function withSearchKeys(db: Executor, accountId: string, f: ShipmentFilters): Promise<ShipmentFilters> {
  const term = f.search?.trim();
  if (!term) return f;
  const ids = await queryRows<{ id: string }>(db, searchKeyStatement(accountId, term));
  return ids.length > 0 ? { ...f, search: undefined, shipmentIds: ids.map((row) => row.id) } : f;
}

function searchKeyStatement(accountId: string, term: string): SQL {
  // The key columns keep the case they were given in; the term's three spellings are index
  // probes, the lower() comparison what makes a match.
  const spellings = sql`(${term}, ${term.toUpperCase()}, ${term.toLowerCase()})`;
  const byOrders = (condition: SQL) =>
    sql`select s.id from ${orders} o join ${shipments} s on s.account_id = o.account_id and s.order_id = o.id
        where o.account_id = ${accountId} and ${condition}`;
  const parts = [
    sql`select id from ${shipments} where awb in ${spellings} and lower(awb) = ${term.toLowerCase()} and account_id = ${accountId}`,
    byOrders(sql`o.merchant_order_id in ${spellings} and lower(o.merchant_order_id) = ${term.toLowerCase()}`),
  ];
  const phone = normalizeIndianPhone(term);
  if (phone) parts.push(byOrders(sql`o.shipping_phone = ${phone}`));
  if (UUID.test(term))
    parts.push(
      sql`select id from ${shipments} where account_id = ${accountId} and order_id = ${term.toLowerCase()}::uuid`,
    );
  return sql.join(parts, sql` union `);
}
