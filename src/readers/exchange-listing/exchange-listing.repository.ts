import { and, asc, count, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Executor } from '../../base/db/client.js';
import { exchanges, orderItems, orders, returnItems, returns, shipments, stores } from '../../base/db/schema.js';
import { dateRanges } from '../../domain/shipment/date-bounds.js';
import type { ExchangeStatus } from '../../domain/shipment/exchange-status.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import { QC_CONDITIONS } from '../returns-listing/returns-listing.js';
import { type QcFilter, RETURN_STATUS_WORDS } from '../returns-listing/returns-listing.schemas.js';
import { likePattern } from '../shipments/shipment-filters.repository.js';
import { arrayFilter } from '../shipments/shipments.service.js';
import { SHIPMENT_STATUS_COLUMNS, statusFilter } from '../shipments/status-filter.js';
import { type ListingStatus, statusConditions } from '../shipments/velocity-statuses.js';
import { exchangeStatusSql } from './exchange-status-sql.js';
import { EXCHANGE_DATE_FIELDS, type ExchangeArrayFilter, type ListExchangesBody } from './exchange-listing.schemas.js';

// The exchange listing's statements. An exchange is read with its two legs, one row each, joined
// on their primary keys (exchanges names them): `exchanges`, the replacement's `shipments` row and
// its `orders` row, and the old item's `returns` row. Every filter is a condition on that join, so
// the page and the exact count are each one statement, whatever the account's size.

type ListInput = Static<typeof ListExchangesBody>;

/** The exchange's status as its listing shows it, in SQL (exchange-status-sql.ts). */
export const EXCHANGE_STATUS = exchangeStatusSql({
  forward: shipments.status,
  return: returns.status,
  qcStatus: returns.qcStatus,
  replacementHeld: exchanges.replacementHeld,
});

/** An exchange changes when it or either leg does: the latest of the three rows' updated_at. */
const UPDATED_AT = sql`greatest(${exchanges.updatedAt}, ${shipments.updatedAt}, ${returns.updatedAt})`;

const DATE_EXPRESSIONS = { created_at: sql`${exchanges.createdAt}`, updated_at: UPDATED_AT } as const;

/** The return statuses a return_status[] word stands for (the return listing's words). */
const returnStatuses = (words: string[]) =>
  words.flatMap((word) =>
    Object.hasOwn(RETURN_STATUS_WORDS, word)
      ? [...RETURN_STATUS_WORDS[word as keyof typeof RETURN_STATUS_WORDS]]
      : [word as ReturnStatus],
  );

/** The filters as conditions on the joined row; OR within a filter, AND across them. */
export function conditions(accountId: string, body: ListInput): (SQL | undefined)[] {
  const values = (...names: ExchangeArrayFilter[]) => arrayFilter(body, ...names);
  const where: (SQL | undefined)[] = [eq(exchanges.accountId, accountId)];
  const statuses = values('status');
  if (statuses) where.push(inArray(EXCHANGE_STATUS, statuses as ExchangeStatus[]));
  const displayIds = values('display_id');
  if (displayIds) where.push(inArray(exchanges.displayId, displayIds));
  const returnDisplayIds = values('return_display_id');
  if (returnDisplayIds) where.push(inArray(returns.merchantOrderId, returnDisplayIds));
  const warehouses = values('warehouse_id', 'warehouse_ids');
  if (warehouses) where.push(or(inArray(shipments.warehouseId, warehouses), inArray(returns.warehouseId, warehouses)));
  const channels = values('channel');
  if (channels) where.push(inArray(exchanges.channel, channels));
  const carriers = values('carrier_ids', 'carrier_id');
  if (carriers) where.push(or(inArray(shipments.carrierId, carriers), inArray(returns.carrierId, carriers)));
  const storeNames = values('store_name');
  if (storeNames) {
    where.push(
      sql`exists (select 1 from ${stores} where ${stores.id} = ${orders.storeId} and ${stores.accountId} = ${accountId}
                  and ${inArray(
                    sql`lower(${stores.storeName})`,
                    storeNames.map((n) => n.toLowerCase()),
                  )})`,
    );
  }
  const skus = values('sku');
  if (skus) {
    where.push(
      or(
        sql`exists (select 1 from ${orderItems} where ${orderItems.accountId} = ${exchanges.accountId}
                    and ${orderItems.orderId} = ${orders.id} and ${inArray(orderItems.sku, skus)})`,
        sql`exists (select 1 from ${returnItems} where ${returnItems.accountId} = ${exchanges.accountId}
                    and ${returnItems.returnId} = ${returns.id} and ${inArray(returnItems.sku, skus)})`,
      ),
    );
  }
  const zones = values('zone')?.map((zone) => zone.slice(-1).toUpperCase());
  if (zones) where.push(or(inArray(shipments.zone, zones), inArray(returns.zone, zones)));
  // Dakiya makes no refunds: no exchange has a refund status, so asking for any matches none.
  if (values('refund_status')) where.push(sql`false`);
  const qc = values('qc_status') as QcFilter[] | undefined;
  if (qc) where.push(or(...qc.map((value) => QC_CONDITIONS[value])));
  // A Dakiya order has one shipment and a return is its own shipment: each pair filters the same
  // status, and both sent must both match (AND across fields, as every other pair of filters).
  for (const name of ['return_status', 'return_shipment_status'] as const) {
    const words = values(name);
    if (words) where.push(inArray(returns.status, returnStatuses(words)));
  }
  for (const name of ['forward_status', 'forward_shipment_status'] as const) {
    const words = values(name);
    if (words)
      where.push(
        statusFilter(
          words.flatMap((word) => statusConditions(word as ListingStatus)),
          SHIPMENT_STATUS_COLUMNS,
        ),
      );
  }
  const ranges = dateRanges(body, EXCHANGE_DATE_FIELDS) ?? {};
  for (const field of EXCHANGE_DATE_FIELDS) {
    const from = ranges[field]?.from;
    const to = ranges[field]?.to;
    if (from) where.push(sql`${DATE_EXPRESSIONS[field]} >= ${from.toISOString()}::timestamptz`);
    if (to) where.push(sql`${DATE_EXPRESSIONS[field]} <= ${to.toISOString()}::timestamptz`);
  }
  if (body.search) {
    const pattern = likePattern(body.search);
    where.push(
      or(
        ...[
          sql`lower(${exchanges.displayId})`,
          sql`lower(${exchanges.uniqueId})`,
          sql`lower(coalesce(${shipments.awb}, ''))`,
          sql`lower(coalesce(${returns.awb}, ''))`,
          sql`${orders.shippingPhone}`,
          sql`${orders.billingPhone}`,
          sql`(${returns.pickup}->>'phone')`,
          sql`lower(concat_ws(' ', ${orders.shippingName}, ${orders.shippingLastName}))`,
          sql`lower(concat_ws(' ', ${orders.billingName}, ${orders.billingLastName}))`,
          sql`lower(concat_ws(' ', ${returns.pickup}->>'name', ${returns.pickup}->>'last_name'))`,
        ].map((field) => sql`${field} like ${pattern}`),
      ),
    );
  }
  return where;
}

export interface ExchangePageRequest {
  limit: number;
  offset: number;
  sortBy: 'created_at' | 'updated_at';
  descending: boolean;
}

/** One page of the filtered exchanges with their legs, ordered by the sort field then id. */
export function findExchangePage(db: Executor, where: (SQL | undefined)[], page: ExchangePageRequest) {
  const direction = page.descending ? desc : asc;
  return db
    .select({ exchange: exchanges, forward: shipments, ret: returns, order: orders, storeName: stores.storeName })
    .from(exchanges)
    .innerJoin(shipments, eq(shipments.id, exchanges.forwardShipmentId))
    .innerJoin(returns, eq(returns.id, exchanges.returnId))
    .innerJoin(orders, eq(orders.id, exchanges.forwardOrderId))
    .leftJoin(stores, eq(stores.id, orders.storeId))
    .where(and(...where))
    .orderBy(direction(page.sortBy === 'created_at' ? exchanges.createdAt : UPDATED_AT), direction(exchanges.id))
    .limit(page.limit)
    .offset(page.offset);
}

export type ExchangePageRow = Awaited<ReturnType<typeof findExchangePage>>[number];

/** The exact number of exchanges matching the filters. */
export async function countExchanges(db: Executor, where: (SQL | undefined)[]): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(exchanges)
    .innerJoin(shipments, eq(shipments.id, exchanges.forwardShipmentId))
    .innerJoin(returns, eq(returns.id, exchanges.returnId))
    .innerJoin(orders, eq(orders.id, exchanges.forwardOrderId))
    .where(and(...where));
  return Number(row?.total ?? 0);
}

/** The items of the page's replacement orders and returns, in their positions. */
export async function findLegItems(db: Executor, accountId: string, orderIds: string[], returnIds: string[]) {
  if (orderIds.length === 0) return { orderItems: [], returnItems: [] };
  const [forward, back] = await Promise.all([
    db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.accountId, accountId), inArray(orderItems.orderId, orderIds)))
      .orderBy(orderItems.position),
    db
      .select()
      .from(returnItems)
      .where(and(eq(returnItems.accountId, accountId), inArray(returnItems.returnId, returnIds)))
      .orderBy(returnItems.position),
  ]);
  return { orderItems: forward, returnItems: back };
}
