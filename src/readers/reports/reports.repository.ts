import { sql } from 'drizzle-orm';
import { andAll, forwardInStores, ownStoreIn } from '../shipments/store-limit.js';
import { type Executor, queryRows } from '../../base/db/client.js';

export interface StatusTotals {
  status: string;
  isCod: boolean;
  shipments: number;
  valuePaise: number;
}

/**
 * Forward shipments whose order was created in [from, to], by status and payment type. An index-only
 * scan of shipments_account_created_report_idx: every column read is in the index.
 */
export async function forwardTotals(
  db: Executor,
  accountId: string,
  from: Date,
  to: Date,
  reach: readonly string[] | null = null,
): Promise<StatusTotals[]> {
  const rows = await queryRows<{ status: string; is_cod: boolean; shipments: number | string; value_paise: string }>(
    db,
    sql`select status, is_cod, count(*)::int as shipments, sum(total_price_paise)::text as value_paise
          from shipments
         where account_id = ${accountId} and created_at >= ${from.toISOString()} and created_at <= ${to.toISOString()}
               ${andAll(ownStoreIn(sql`store_id`, reach))}
         group by status, is_cod`,
  );
  return rows.map((row) => ({
    status: row.status,
    isCod: row.is_cod,
    shipments: Number(row.shipments),
    valuePaise: Number(row.value_paise),
  }));
}

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
