import { type SQL, sql } from 'drizzle-orm';
import { type DayRange, formatDay, planDayTotals, splitIntoMonths } from '../../domain/calendar.js';
import { andAll, forwardInStores, ownStoreIn } from '../shipments/store-limit.js';
import { type Executor, queryPreparedRows, queryRows } from '../../base/db/client.js';

export interface StatusTotals {
  status: string;
  isCod: boolean;
  shipments: number;
  valuePaise: number;
}

/**
 * Forward shipments whose order was created in [from, to], by status and payment type. The whole
 * India calendar months inside the range are summed from shipment_monthly_totals, its other whole
 * India days from shipment_daily_totals (both kept by one trigger, migration 0084), and the parts
 * left at its ends counted on shipments through shipments_account_created_report_idx (an
 * index-only scan: every column read is in the index), or their days summed and the rest of those
 * days counted off when that is less (planDayTotals: a range that ends `now` counts off the empty
 * rest of today). A year reads eleven or twelve months' rows and about a month of days' rather
 * than 365 days' rows (each up to 16 shards until retention folds them), let alone its shipments.
 */
export async function forwardTotals(
  db: Executor,
  accountId: string,
  from: Date,
  to: Date,
  reach: readonly string[] | null,
  now: Date,
): Promise<StatusTotals[]> {
  const { days, add, subtract } = planDayTotals({ from, to }, now);
  const counted = (part: { from: Date; to: Date }, sign: '' | '-') =>
    sql`select status, is_cod, ${sql.raw(sign)}count(*) as shipments, ${sql.raw(sign)}sum(total_price_paise) as value_paise
          from shipments
         where account_id = ${accountId} and created_at >= ${part.from.toISOString()} and created_at <= ${part.to.toISOString()}
               ${andAll(ownStoreIn(sql`store_id`, reach))}
         group by status, is_cod`;
  const parts: SQL[] = [...add.map((part) => counted(part, '')), ...subtract.map((part) => counted(part, '-'))];
  if (days) {
    const { months, days: rest } = splitIntoMonths(days);
    const summed = (key: 'month' | 'day', r: DayRange) =>
      sql`select status, is_cod, sum(shipments) as shipments, sum(value_paise) as value_paise
            from ${sql.raw(key === 'month' ? 'shipment_monthly_totals' : 'shipment_daily_totals')}
           where account_id = ${accountId} and ${sql.raw(key)} >= ${formatDay(r.first)}::date and ${sql.raw(key)} <= ${formatDay(r.last)}::date
                 ${andAll(storeKeyIn(reach))}
           group by status, is_cod`;
    if (months) parts.push(summed('month', months));
    for (const r of rest) parts.push(summed('day', r));
  }
  if (parts.length === 0) return [];
  // Prepared: planning each edge's count cost more than running it (1.6 ms against 0.2 at a year,
  // the shipments table's indexes and the range's end probed past the statistics), and a range's
  // few shapes (which edges, months and days at either end, a store limit) each get their own statement.
  const rows = await queryPreparedRows<{
    status: string;
    is_cod: boolean;
    shipments: number | string;
    value_paise: string;
  }>(
    db,
    sql`select status, is_cod, sum(shipments)::int as shipments, sum(value_paise)::text as value_paise
          from (${sql.join(parts, sql` union all `)}) parts
         group by status, is_cod
        having sum(shipments) > 0`,
  );
  return rows.map((row) => ({
    status: row.status,
    isCod: row.is_cod,
    shipments: Number(row.shipments),
    valuePaise: Number(row.value_paise),
  }));
}

/** A store-limited credential's condition on the totals' store key (the store's id as text, '' for none). */
const storeKeyIn = (reach: readonly string[] | null): SQL[] =>
  reach === null ? [] : [sql`store_id = any(${`{${reach.join(',')}}`}::text[])`];

/**
 * Returns created in [from, to], by status; all prepaid (a return is never cash on delivery). The
 * value is the return's sub_total, as the forward entries carry the order's. Walks
 * returns_account_created_idx over the range.
 */
export async function returnTotals(
  db: Executor,
  accountId: string,
  from: Date,
  to: Date,
  reach: readonly string[] | null = null,
): Promise<StatusTotals[]> {
  const rows = await queryRows<{ status: string; shipments: number | string; value_paise: string }>(
    db,
    sql`select status, count(*)::int as shipments, sum(sub_total_paise)::text as value_paise
          from returns
         where account_id = ${accountId} and created_at >= ${from.toISOString()} and created_at <= ${to.toISOString()}
               ${andAll(forwardInStores(sql`forward_shipment_id`, accountId, reach))}
         group by status`,
  );
  return rows.map((row) => ({
    status: row.status,
    isCod: false,
    shipments: Number(row.shipments),
    valuePaise: Number(row.value_paise),
  }));
}
