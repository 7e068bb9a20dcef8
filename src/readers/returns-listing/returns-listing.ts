import { and, asc, count, desc, eq, gte, inArray, isNull, lte, ne, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { forwardInStores } from '../shipments/store-limit.js';
import type { Static } from 'typebox';
import type { Db } from '../../base/db/client.js';
import { refunds, returnItems, returns } from '../../base/db/schema.js';
import { type Zone, zoneLabel } from '../../domain/geo/zones.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { paiseToRupees } from '../../domain/money.js';
import { likePattern } from '../shipments/shipment-filters.repository.js';
import { dateRanges, storable } from '../../domain/shipment/date-bounds.js';
import { arrayFilter, pageOf } from '../shipments/shipments.service.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import {
  granularReturnStatus,
  type ReturnCondition,
  returnFilterConditions,
} from '../../domain/shipment/granular-statuses.js';
import {
  type ListReturnsBody,
  type QcFilter,
  RETURN_DATE_FIELDS,
  RETURN_STATUS_WORDS,
  type ReturnDateField,
} from './returns-listing.schemas.js';
import { findReturnEventsOf } from './return-history.repository.js';
import { exchangeLinkOf, type ReturnExchangeLink, selectReturnsWithExchange } from './return-exchange.repository.js';

type ListInput = Static<typeof ListReturnsBody>;
type ReturnRow = typeof returns.$inferSelect;
type ReturnItemRow = typeof returnItems.$inferSelect;

const DATE_COLUMNS = {
  created_at: returns.createdAt,
  order_date: returns.orderDate,
  updated_at: returns.updatedAt,
  picked_up_at: returns.pickedUpAt,
  delivered_at: returns.deliveredAt,
  cancelled_at: returns.cancelledAt,
} as const satisfies Record<ReturnDateField, unknown>;

/** `qc_status[]` on returns; the exchange listing filters its return legs by the same. */
export const QC_CONDITIONS: Record<QcFilter, SQL> = {
  passed: eq(returns.qcStatus, 'passed'),
  failed: eq(returns.qcStatus, 'failed'),
  pending: and(eq(returns.qcApplied, true), isNull(returns.qcStatus))!,
  // Not booked yet (qc_applied null) or booked without QC.
  not_applicable: sql`${returns.qcApplied} is not true`,
};

/** `granular_status[]` on returns (granular-statuses.ts); no condition (a forward-only word) matches nothing. */
function returnGranularFilter(conditions: readonly ReturnCondition[]): SQL {
  if (conditions.length === 0) return sql`false`;
  const qcFailed = eq(returns.qcStatus, 'failed');
  return or(
    ...conditions.map((c) =>
      and(
        eq(returns.status, c.status),
        c.subStatuses && inArray(returns.subStatus, [...c.subStatuses]),
        c.notSubStatuses && or(isNull(returns.subStatus), notInArray(returns.subStatus, [...c.notSubStatuses])),
        c.qcFailed === undefined
          ? undefined
          : c.qcFailed
            ? qcFailed
            : or(isNull(returns.qcStatus), ne(returns.qcStatus, 'failed')),
      ),
    ),
  )!;
}

/** The listing's filters as conditions on returns; the SKU filter alone looks at return_items. */
function conditions(accountId: string, body: ListInput): (SQL | undefined)[] {
  const values = (...names: string[]) => arrayFilter(body, ...names);
  const where: (SQL | undefined)[] = [eq(returns.accountId, accountId)];
  if (body.status) {
    const word = body.status as keyof typeof RETURN_STATUS_WORDS;
    where.push(
      inArray(
        returns.status,
        Object.hasOwn(RETURN_STATUS_WORDS, word) ? [...RETURN_STATUS_WORDS[word]] : [body.status],
      ),
    );
  }
  const granular = values('granular_status');
  if (granular) where.push(returnGranularFilter(returnFilterConditions(granular)));
  // Every return is prepaid: asking for COD returns asks for none.
  if (body.is_cod === true) where.push(sql`false`);
  const carriers = values('carrier_id', 'carrier_ids');
  if (carriers) where.push(inArray(returns.carrierId, carriers));
  const warehouses = values('warehouse_ids', 'warehouse_id');
  if (warehouses) where.push(inArray(returns.warehouseId, warehouses));
  const skus = values('sku');
  if (skus) {
    where.push(
      sql`exists (select 1 from ${returnItems} where ${returnItems.accountId} = ${returns.accountId}
                  and ${returnItems.returnId} = ${returns.id} and ${inArray(returnItems.sku, skus)})`,
    );
  }
  const qc = values('qc_status') as QcFilter[] | undefined;
  if (qc) where.push(or(...qc.map((value) => QC_CONDITIONS[value])));
  const refund = values('refund_status');
  if (refund) {
    const refunded = refund.filter((value) => value !== 'not_applicable');
    where.push(
      or(
        refunded.length > 0
          ? sql`exists (select 1 from ${refunds} where ${refunds.returnId} = ${returns.id} and ${inArray(refunds.status, refunded)})`
          : undefined,
        refund.includes('not_applicable')
          ? sql`not exists (select 1 from ${refunds} where ${refunds.returnId} = ${returns.id})`
          : undefined,
      ),
    );
  }
  const ranges = dateRanges(body, RETURN_DATE_FIELDS) ?? {};
  for (const field of RETURN_DATE_FIELDS) {
    if (ranges[field]?.from) where.push(gte(DATE_COLUMNS[field], ranges[field].from));
    if (ranges[field]?.to) where.push(lte(DATE_COLUMNS[field], ranges[field].to));
  }
  if (body.search) {
    const pattern = likePattern(body.search);
    where.push(
      or(
        ...[
          sql`lower(coalesce(${returns.awb}, ''))`,
          sql`lower(${returns.merchantOrderId})`,
          sql`lower(${returns.pickup}->>'name' || ' ' || coalesce(${returns.pickup}->>'last_name', ''))`,
          sql`(${returns.pickup}->>'phone')`,
          sql`lower(${returns.pickup}->>'city')`,
          sql`(${returns.pickup}->>'pincode')`,
        ].map((field) => sql`${field} like ${pattern}`),
      ),
    );
  }
  return where;
}

const addressOf = (a: ReturnRow['pickup']) => ({
  name: [a.name, a.last_name].filter(Boolean).join(' '),
  phone: a.phone,
  city: a.city,
  state: a.state,
  zip: a.pincode,
});

export type ReturnsListing = ReturnType<typeof createReturnsListing>;

/** `POST /returns`: the forward listing's paging (exact total, created_at/id keyset) over returns. */
export function createReturnsListing({ db, catalogue }: { db: Db; catalogue: CourierCatalogue }) {
  return {
    /** Of every store, or of the stores `reach` names (a return is its forward shipment's store's). */
    async list(accountId: string, body: ListInput, reach: readonly string[] | null = null) {
      const { page, perPage } = pageOf(body);
      const descending = (body.sort_order ?? 'desc') === 'desc';
      const where = [...conditions(accountId, body), ...forwardInStores(returns.forwardShipmentId, accountId, reach)];
      const after = body.search_after && {
        createdAt: storable(new Date(Number(body.search_after[0])), 'search_after.0'),
        id: body.search_after[1],
      };
      // A row comparison walks the (account_id, created_at, id) index straight to the cursor.
      const keyset =
        after &&
        (descending
          ? sql`(${returns.createdAt}, ${returns.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : sql`(${returns.createdAt}, ${returns.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`);
      const order = descending
        ? [desc(returns.createdAt), desc(returns.id)]
        : [asc(returns.createdAt), asc(returns.id)];
      const [rows, [counted]] = await Promise.all([
        selectReturnsWithExchange(db)
          .where(and(...where, keyset))
          .orderBy(...order)
          .limit(perPage + 1)
          .offset(after ? 0 : (page - 1) * perPage),
        db
          .select({ total: count() })
          .from(returns)
          .where(and(...where)),
      ]);
      const pageRows = rows.slice(0, perPage);
      const ids = pageRows.map((r) => r.row.id);
      const [items, events] = await Promise.all([
        ids.length === 0
          ? []
          : db
              .select()
              .from(returnItems)
              .where(and(eq(returnItems.accountId, accountId), inArray(returnItems.returnId, ids)))
              .orderBy(returnItems.position),
        findReturnEventsOf(db, accountId, ids),
      ]);
      const last = pageRows.at(-1);
      return {
        data: pageRows.map((r) => toReturnElement(r.row, items, events, catalogue, exchangeLinkOf(r), r.refundStatus)),
        meta: {
          current_page: page,
          per_page: perPage,
          total: Number(counted?.total ?? 0),
          next_search_after: rows.length > perPage && last ? [String(last.row.createdAt.getTime()), last.row.id] : null,
        },
      };
    },
  };
}

/** One return as the listing shows it (also the `data.return` of its events). */
export function toReturnElement(
  row: ReturnRow,
  items: ReturnItemRow[],
  events: Awaited<ReturnType<typeof findReturnEventsOf>>,
  catalogue: CourierCatalogue,
  exchange: ReturnExchangeLink | null,
  refundStatus: string | null,
) {
  return {
    id: row.id,
    type: 'return' as const,
    attributes: {
      tracking_number: row.awb,
      status: row.status as ReturnStatus,
      sub_status: row.subStatus,
      granular_status: granularReturnStatus({
        status: row.status as ReturnStatus,
        subStatus: row.subStatus,
        qcStatus: row.qcStatus,
      }),
      qc_enabled: row.qcApplied === true,
      qc_status: row.qcStatus,
      qc_reason: row.qcReason,
      refund_status: refundStatus,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      picked_up_at: row.pickedUpAt?.toISOString() ?? null,
      delivered_at: row.deliveredAt?.toISOString() ?? null,
      cancelled_at: row.cancelledAt?.toISOString() ?? null,
      shipment_id: row.shipmentId,
      warehouse_id: row.warehouseId,
      total_price: paiseToRupees(row.subTotalPaise),
      is_cod: false as const,
      zone: zoneLabel(row.zone as Zone),
      applied_weight: { value: row.appliedWeightGrams, metric_unit: 'g' as const },
      carrier: row.carrierId
        ? { id: row.carrierId, name: catalogue.byId.get(row.carrierId)?.name ?? row.carrierId }
        : null,
      order: { order_date: row.orderDate.toISOString(), display_id: row.merchantOrderId, channel_id: row.channelRef },
      forward_shipment_id: row.forwardShipmentId,
      is_exchange: exchange ? (1 as const) : (0 as const),
      exchange,
      items: items
        .filter((item) => item.returnId === row.id)
        .map((item) => ({
          id: item.id,
          quantity: item.units,
          price: paiseToRupees(item.sellingPricePaise),
          name: item.name,
          sku: item.sku,
          qc_enable: item.qc?.qc_enable === true,
        })),
      pickup_address: addressOf(row.pickup),
      shipping_address: addressOf(row.shipping),
      tracking_details: (events.get(row.id) ?? []).map((event) => ({
        id: event.id,
        status: event.status,
        sub_status: event.subStatus,
        last_location: event.location,
        event_date_time: event.eventTime.toISOString(),
        description: event.description,
      })),
    },
  };
}
