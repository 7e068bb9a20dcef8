import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { andAll, ownStoreIn } from '../shipments/store-limit.js';

// The return reports' counts, over the cohort of shipments delivered in the range: of what was
// delivered then, how much was asked back, approved, rejected or is still waiting.

export interface Cohort {
  accountId: string;
  from: Date;
  to: Date;
  storeId?: string | undefined;
  /** A store-limited credential's stores; null: every store. */
  reach: readonly string[] | null;
}

export interface CountRow {
  key: string;
  delivered: number | null;
  requested: number;
  approved: number;
  rejected: number;
  pending: number;
}

const delivered = (c: Cohort): SQL => sql`
  select s.id, s.order_id from shipments s
  where s.account_id = ${c.accountId} and s.delivered_at >= ${c.from.toISOString()}::timestamptz
    and s.delivered_at < ${c.to.toISOString()}::timestamptz
    ${c.storeId === undefined ? sql`` : sql`and s.store_id = ${c.storeId}`}
    ${andAll(ownStoreIn(sql`s.store_id`, c.reach))}`;

const counted = (what: SQL) => sql`
  coalesce(sum(${what}) filter (where r.status = 'approved'), 0)::int as approved,
  coalesce(sum(${what}) filter (where r.status = 'rejected'), 0)::int as rejected,
  coalesce(sum(${what}) filter (where r.status = 'pending'), 0)::int as pending,
  coalesce(sum(${what}) filter (where r.status <> 'withdrawn'), 0)::int as requested`;

/** Per SKU: units delivered, and units asked back. */
export function bySku(ex: Executor, c: Cohort) {
  return queryRows<CountRow>(
    ex,
    sql`with d as (${delivered(c)}),
      sent as (
        select oi.sku, sum(oi.units)::int as units from order_items oi join d on d.order_id = oi.order_id
        where oi.account_id = ${c.accountId} group by oi.sku),
      asked as (
        select ri.sku, ${counted(sql`ri.units`)}
        from return_request_items ri join return_requests r on r.id = ri.request_id join d on d.id = r.shipment_id
        where ri.account_id = ${c.accountId} group by ri.sku)
      select sent.sku as key, sent.units as delivered, coalesce(asked.requested, 0) as requested,
        coalesce(asked.approved, 0) as approved, coalesce(asked.rejected, 0) as rejected, coalesce(asked.pending, 0) as pending
      from sent left join asked on asked.sku = sent.sku
      order by requested desc, key`,
  );
}

/** Per delivery pincode: shipments delivered, and requests made of them. */
export function byPincode(ex: Executor, c: Cohort) {
  return queryRows<CountRow>(
    ex,
    sql`with d as (${delivered(c)}),
      sent as (
        select o.shipping_pincode as pincode, count(*)::int as shipments from d join orders o on o.id = d.order_id
        group by o.shipping_pincode),
      asked as (
        select o.shipping_pincode as pincode, ${counted(sql`1`)}
        from return_requests r join d on d.id = r.shipment_id join orders o on o.id = d.order_id
        where r.account_id = ${c.accountId} group by o.shipping_pincode)
      select sent.pincode as key, sent.shipments as delivered, coalesce(asked.requested, 0) as requested,
        coalesce(asked.approved, 0) as approved, coalesce(asked.rejected, 0) as rejected, coalesce(asked.pending, 0) as pending
      from sent left join asked on asked.pincode = sent.pincode
      order by requested desc, key`,
  );
}

/** Per reason: the requests made of the cohort. */
export function byReason(ex: Executor, c: Cohort) {
  return queryRows<CountRow>(
    ex,
    sql`with d as (${delivered(c)})
      select r.reason as key, null as delivered, ${counted(sql`1`)}
      from return_requests r join d on d.id = r.shipment_id
      where r.account_id = ${c.accountId} group by r.reason
      order by requested desc, key`,
  );
}

export interface OutstandingRow {
  bucket: 'waiting_on_return' | 'due' | 'initiated' | 'failed';
  count: number;
  amount_paise: number;
}

/** The refunds still owed (neither completed nor cancelled with their return), by what they wait on. */
export function outstandingRefunds(
  ex: Executor,
  accountId: string,
  storeId: string | undefined,
  reach: readonly string[] | null,
) {
  return queryRows<OutstandingRow>(
    ex,
    sql`select case when status = 'pending' and released_at is null then 'waiting_on_return'
                    when status = 'pending' then 'due' else status end as bucket,
          count(*)::int as count, coalesce(sum(amount_paise), 0)::bigint as amount_paise
        from refunds
        where account_id = ${accountId} and status not in ('completed', 'cancelled')
          ${storeId === undefined ? sql`` : sql`and store_id = ${storeId}`}
          ${andAll(ownStoreIn(sql`store_id`, reach))}
        group by 1`,
  );
}
