import { type SQL, sql } from 'drizzle-orm';
import { forwardInStores } from '../shipments/store-limit.js';
import { type Executor, queryRows } from '../../base/db/client.js';

// The COD ledger's read side: listings newest first with keyset paging, and the reconciliation
// summary. Every statement is the account's.

/** Where a page starts: the sort value and id of the last row of the page before. */
export interface Keyset {
  at: string;
  id: string;
}

const and = (parts: SQL[]) => sql.join(parts, sql` and `);

/** A store-limited credential's stores (null: every store). */
export interface InStores {
  reach?: readonly string[] | null;
}

export interface ReceivableFilter extends InStores {
  state?: string;
  carrierId?: string;
  utr?: string;
  deliveredFrom?: string;
  deliveredTo?: string;
  expectedFrom?: string;
  expectedTo?: string;
}

export interface ReceivableRow {
  id: string;
  shipmentId: string;
  awb: string;
  carrierId: string;
  amountPaise: number;
  deliveredAt: Date;
  expectedDate: string;
  state: 'pending' | 'remitted' | 'reconciled';
  receivedPaise: number;
  utr: string | null;
  remittanceDate: string | null;
}

/** The instant India's calendar day `day` (YYYY-MM-DD) begins, plus `days` days: filters by the day a merchant reads on a report. */
const indiaMidnight = (day: string, days = 0) =>
  new Date(Date.parse(`${day}T00:00:00+05:30`) + days * 86_400_000).toISOString();

export async function listReceivables(
  ex: Executor,
  accountId: string,
  filter: ReceivableFilter,
  after: Keyset | null,
  limit: number,
): Promise<ReceivableRow[]> {
  const where: SQL[] = [
    sql`account_id = ${accountId}`,
    ...forwardInStores(sql`shipment_id`, accountId, filter.reach ?? null),
  ];
  if (filter.state) where.push(sql`state = ${filter.state}`);
  if (filter.carrierId) where.push(sql`carrier_id = ${filter.carrierId}`);
  if (filter.utr) where.push(sql`utr = ${filter.utr}`);
  if (filter.deliveredFrom) where.push(sql`delivered_at >= ${indiaMidnight(filter.deliveredFrom)}::timestamptz`);
  if (filter.deliveredTo) where.push(sql`delivered_at < ${indiaMidnight(filter.deliveredTo, 1)}::timestamptz`);
  if (filter.expectedFrom) where.push(sql`expected_date >= ${filter.expectedFrom}::date`);
  if (filter.expectedTo) where.push(sql`expected_date <= ${filter.expectedTo}::date`);
  if (after) where.push(sql`(delivered_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  const rows = await queryRows<ReceivableRow & { deliveredAt: Date | string }>(
    ex,
    sql`select id, shipment_id as "shipmentId", awb, carrier_id as "carrierId", amount_paise::float8 as "amountPaise", delivered_at as "deliveredAt",
      expected_date::text as "expectedDate", state, received_paise::float8 as "receivedPaise", utr, remittance_date::text as "remittanceDate"
    from cod_receivables where ${and(where)}
    order by delivered_at desc, id desc limit ${limit}`,
  );
  return rows.map((row) => ({ ...row, deliveredAt: new Date(row.deliveredAt) }));
}

export interface RemittanceFilter extends InStores {
  carrierId?: string;
  utr?: string;
  awb?: string;
  from?: string;
  to?: string;
}

export interface RemittanceRow {
  id: string;
  importId: string;
  awb: string;
  shipmentId: string;
  receivableId: string | null;
  carrierId: string;
  utr: string;
  amountPaise: number;
  remittanceDate: string;
  createdAt: Date;
}

export async function listRemittances(
  ex: Executor,
  accountId: string,
  filter: RemittanceFilter,
  after: Keyset | null,
  limit: number,
): Promise<RemittanceRow[]> {
  const where: SQL[] = [
    sql`account_id = ${accountId}`,
    ...forwardInStores(sql`shipment_id`, accountId, filter.reach ?? null),
  ];
  if (filter.carrierId) where.push(sql`carrier_id = ${filter.carrierId}`);
  if (filter.utr) where.push(sql`utr = ${filter.utr}`);
  if (filter.awb) where.push(sql`awb = ${filter.awb}`);
  if (filter.from) where.push(sql`remittance_date >= ${filter.from}::date`);
  if (filter.to) where.push(sql`remittance_date <= ${filter.to}::date`);
  if (after) where.push(sql`(remittance_date, id) < (${after.at}::date, ${after.id}::uuid)`);
  const rows = await queryRows<RemittanceRow & { createdAt: Date | string }>(
    ex,
    sql`select id, import_id as "importId", awb, shipment_id as "shipmentId", receivable_id as "receivableId", carrier_id as "carrierId", utr,
      amount_paise::float8 as "amountPaise", remittance_date::text as "remittanceDate", created_at as "createdAt"
    from cod_remittances where ${and(where)}
    order by remittance_date desc, id desc limit ${limit}`,
  );
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
}

export interface DiscrepancyFilter extends InStores {
  kind?: string;
  carrierId?: string;
  from?: string;
  to?: string;
}

import type { CodDiscrepancyRow as DiscrepancyListRow } from '../../domain/cod-discrepancy.js';

export type { DiscrepancyListRow };

export async function listDiscrepancies(
  ex: Executor,
  accountId: string,
  filter: DiscrepancyFilter,
  after: Keyset | null,
  limit: number,
): Promise<DiscrepancyListRow[]> {
  const where: SQL[] = [
    sql`account_id = ${accountId}`,
    ...forwardInStores(sql`shipment_id`, accountId, filter.reach ?? null),
  ];
  if (filter.kind) where.push(sql`kind = ${filter.kind}`);
  if (filter.carrierId) where.push(sql`carrier_id = ${filter.carrierId}`);
  if (filter.from) where.push(sql`detected_at >= ${indiaMidnight(filter.from)}::timestamptz`);
  if (filter.to) where.push(sql`detected_at < ${indiaMidnight(filter.to, 1)}::timestamptz`);
  if (after) where.push(sql`(detected_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  const rows = await queryRows<DiscrepancyListRow & { detectedAt: Date | string }>(
    ex,
    sql`select id, kind, awb, carrier_id as "carrierId", shipment_id as "shipmentId", receivable_id as "receivableId", remittance_id as "remittanceId",
      expected_paise::float8 as "expectedPaise", received_paise::float8 as "receivedPaise", expected_date::text as "expectedDate", detected_at as "detectedAt"
    from cod_discrepancies where ${and(where)}
    order by detected_at desc, id desc limit ${limit}`,
  );
  return rows.map((row) => ({ ...row, detectedAt: new Date(row.detectedAt) }));
}

export interface CycleRow {
  carrierId: string;
  expectedDate: string;
  receivables: number;
  expectedPaise: number;
  receivedPaise: number;
  pending: number;
  remitted: number;
  reconciled: number;
  discrepancies: number;
}

/**
 * One row per remittance cycle: a courier's payout day (the receivables due that day), with what
 * was expected, what came, and how many receivables are in each state or have a discrepancy.
 * Sums are numeric in the database and exact as text, then whole paise in JavaScript.
 */
export async function reconciliation(
  ex: Executor,
  accountId: string,
  filter: { carrierId?: string; from?: string; to?: string } & InStores,
): Promise<CycleRow[]> {
  const where: SQL[] = [
    sql`r.account_id = ${accountId}`,
    ...forwardInStores(sql`r.shipment_id`, accountId, filter.reach ?? null),
  ];
  if (filter.carrierId) where.push(sql`r.carrier_id = ${filter.carrierId}`);
  if (filter.from) where.push(sql`r.expected_date >= ${filter.from}::date`);
  if (filter.to) where.push(sql`r.expected_date <= ${filter.to}::date`);
  const rows = await queryRows<Record<keyof CycleRow, string | number>>(
    ex,
    sql`select r.carrier_id as "carrierId", r.expected_date::text as "expectedDate", count(*)::int as receivables,
      sum(r.amount_paise)::text as "expectedPaise", sum(r.received_paise)::text as "receivedPaise",
      count(*) filter (where r.state = 'pending')::int as pending, count(*) filter (where r.state = 'remitted')::int as remitted,
      count(*) filter (where r.state = 'reconciled')::int as reconciled,
      count(*) filter (where exists (select 1 from cod_discrepancies d where d.account_id = r.account_id and d.receivable_id = r.id))::int as discrepancies
    from cod_receivables r where ${and(where)}
    group by r.carrier_id, r.expected_date
    order by r.expected_date desc, r.carrier_id`,
  );
  return rows.map((row) => ({
    carrierId: String(row.carrierId),
    expectedDate: String(row.expectedDate),
    receivables: Number(row.receivables),
    expectedPaise: Number(row.expectedPaise),
    receivedPaise: Number(row.receivedPaise),
    pending: Number(row.pending),
    remitted: Number(row.remitted),
    reconciled: Number(row.reconciled),
    discrepancies: Number(row.discrepancies),
  }));
}
