import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';

// Every statement over many rows is one statement (unnest of arrays) per slice of SLICE rows: a
// 50,000-line file is a few dozen round trips, not 50,000. Slices, because on the embedded database
// a statement runs on the event loop: one over 50,000 AWBs held it 150 ms, one over 5,000 holds it
// a tenth of that, and the loop serves other work between them (issue 46).

/** Rows a statement takes at once. */
const SLICE = 5_000;

/** `work` over each slice of `rows` in turn, the answers joined. */
async function inSlices<T, R>(rows: readonly T[], work: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const answers: R[] = [];
  for (let at = 0; at < rows.length; at += SLICE) answers.push(...(await work(rows.slice(at, at + SLICE))));
  return answers;
}

export interface LedgerShipment {
  id: string;
  awb: string;
  carrierId: string | null;
  status: string;
  isCod: boolean;
  codAmountPaise: number;
  deliveredAt: Date | null;
}

const SHIPMENT_COLUMNS = sql`id, awb, carrier_id as "carrierId", status, is_cod as "isCod", cod_amount_paise::float8 as "codAmountPaise",
  delivered_at as "deliveredAt"`;

const toShipment = (row: LedgerShipment & { deliveredAt: Date | string | null }): LedgerShipment => ({
  ...row,
  deliveredAt: row.deliveredAt === null ? null : new Date(row.deliveredAt),
});

export async function accountExists(ex: Executor, accountId: string): Promise<boolean> {
  return (await queryRows(ex, sql`select 1 from accounts where id = ${accountId}`)).length > 0;
}

export async function findShipment(
  ex: Executor,
  accountId: string,
  shipmentId: string,
): Promise<LedgerShipment | undefined> {
  const rows = await queryRows<LedgerShipment>(
    ex,
    sql`select ${SHIPMENT_COLUMNS} from shipments where account_id = ${accountId} and id = ${shipmentId}`,
  );
  return rows[0] && toShipment(rows[0]);
}

export async function findShipmentsByAwb(ex: Executor, accountId: string, awbs: string[]): Promise<LedgerShipment[]> {
  const rows = await inSlices(awbs, (slice) =>
    queryRows<LedgerShipment>(
      ex,
      sql`select ${SHIPMENT_COLUMNS} from shipments where account_id = ${accountId} and awb = any(${sql.param(slice)}::text[])`,
    ),
  );
  return rows.map(toShipment);
}

export interface NewReceivable {
  shipmentId: string;
  awb: string;
  carrierId: string;
  amountPaise: number;
  deliveredAt: Date;
  expectedDate: string;
}

/**
 * Opens receivables, one per shipment (a replayed delivery opens none). Lines a courier paid
 * before the delivery scan arrived are taken into the new receivable's total and state.
 */
export async function insertReceivables(
  ex: Executor,
  accountId: string,
  rows: NewReceivable[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await queryRows(
    ex,
    sql`with input as (
      select * from unnest(${sql.param(rows.map((r) => r.shipmentId))}::uuid[], ${sql.param(rows.map((r) => r.awb))}::text[],
        ${sql.param(rows.map((r) => r.carrierId))}::text[], ${sql.param(rows.map((r) => r.amountPaise))}::bigint[],
        ${sql.param(rows.map((r) => r.deliveredAt.toISOString()))}::timestamptz[], ${sql.param(rows.map((r) => r.expectedDate))}::date[])
        as i(shipment_id, awb, carrier_id, amount_paise, delivered_at, expected_date)
    ),
    paid as (
      select shipment_id, sum(amount_paise) as received, (array_agg(utr order by remittance_date desc, created_at desc))[1] as utr,
        max(remittance_date) as last
      from cod_remittances where account_id = ${accountId} and shipment_id in (select shipment_id from input)
      group by shipment_id
    )
    insert into cod_receivables (account_id, shipment_id, awb, carrier_id, amount_paise, delivered_at, expected_date, state,
      received_paise, utr, remittance_date, created_at, updated_at)
    select ${accountId}, i.shipment_id, i.awb, i.carrier_id, i.amount_paise, i.delivered_at, i.expected_date,
      case when p.received is null then 'pending' when p.received = i.amount_paise then 'reconciled' else 'remitted' end,
      coalesce(p.received, 0), p.utr, p.last, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from input i left join paid p on p.shipment_id = i.shipment_id
    on conflict (account_id, shipment_id) do nothing`,
  );
}

export interface LockedReceivable {
  id: string;
  shipmentId: string;
  amountPaise: number;
  receivedPaise: number;
  state: string;
  expectedDate: string;
}

/** The receivables of these shipments, locked until the transaction ends: two files for one AWB queue. */
export async function lockReceivables(
  ex: Executor,
  accountId: string,
  shipmentIds: string[],
): Promise<LockedReceivable[]> {
  if (shipmentIds.length === 0) return [];
  return queryRows<LockedReceivable>(
    ex,
    sql`select id, shipment_id as "shipmentId", amount_paise::float8 as "amountPaise", received_paise::float8 as "receivedPaise", state,
      expected_date::text as "expectedDate"
    from cod_receivables where account_id = ${accountId} and shipment_id = any(${sql.param(shipmentIds)}::uuid[])
    order by id for update`,
  );
}

export interface ImportRow {
  format: string;
  source: string;
  fileName: string | null;
  lines: number;
  applied: number;
  duplicates: number;
  problems: number;
  appliedPaise: number;
}

/** The import's row, under the id its account's slot gave it (the id a second import's 409 names). */
export async function insertImport(
  ex: Executor,
  accountId: string,
  row: ImportRow & { id: string },
  now: Date,
): Promise<string> {
  const [inserted] = await queryRows<{ id: string }>(
    ex,
    sql`insert into cod_remittance_imports (id, account_id, format, source, file_name, lines, applied, duplicates, problems, applied_paise, created_at)
    values (${row.id}, ${accountId}, ${row.format}, ${row.source}, ${row.fileName}, ${row.lines}, ${row.applied}, ${row.duplicates}, ${row.problems},
      ${row.appliedPaise}, ${now.toISOString()}::timestamptz)
    returning id`,
  );
  return inserted!.id;
}

/** The import's counts, known once its lines are applied (the lines name the import, so it is written first). */
export async function updateImport(
  ex: Executor,
  accountId: string,
  importId: string,
  counts: Pick<ImportRow, 'lines' | 'applied' | 'duplicates' | 'problems' | 'appliedPaise'>,
): Promise<void> {
  await queryRows(
    ex,
    sql`update cod_remittance_imports set lines = ${counts.lines}, applied = ${counts.applied}, duplicates = ${counts.duplicates},
      problems = ${counts.problems}, applied_paise = ${counts.appliedPaise}
    where account_id = ${accountId} and id = ${importId}`,
  );
}

export interface NewLine {
  line: number;
  carrierId: string;
  awb: string;
  shipmentId: string;
  receivableId: string | null;
  utr: string;
  amountPaise: number;
  remittanceDate: string;
}

/** Inserts the lines not taken before (key: courier, UTR, AWB); answers the file lines of those it inserted, with their ids. */
export async function insertLines(
  ex: Executor,
  accountId: string,
  importId: string,
  lines: NewLine[],
  now: Date,
): Promise<{ id: string; line: number }[]> {
  return inSlices(lines, (slice) =>
    queryRows<{ id: string; line: number }>(
      ex,
      sql`insert into cod_remittances (account_id, import_id, carrier_id, awb, shipment_id, receivable_id, utr, amount_paise, remittance_date, line, created_at)
    select ${accountId}, ${importId}, i.carrier_id, i.awb, i.shipment_id, i.receivable_id, i.utr, i.amount_paise, i.remittance_date, i.line,
      ${now.toISOString()}::timestamptz
    from unnest(${sql.param(slice.map((l) => l.line))}::int[], ${sql.param(slice.map((l) => l.carrierId))}::text[],
      ${sql.param(slice.map((l) => l.awb))}::text[], ${sql.param(slice.map((l) => l.shipmentId))}::uuid[],
      ${sql.param(slice.map((l) => l.receivableId))}::uuid[], ${sql.param(slice.map((l) => l.utr))}::text[],
      ${sql.param(slice.map((l) => l.amountPaise))}::bigint[], ${sql.param(slice.map((l) => l.remittanceDate))}::date[])
      as i(line, carrier_id, awb, shipment_id, receivable_id, utr, amount_paise, remittance_date)
    on conflict (account_id, carrier_id, utr, awb) do nothing
    returning id, line`,
    ),
  );
}

/** Lines taken before under the same keys, with what they said. */
export async function findLines(
  ex: Executor,
  accountId: string,
  keys: { carrierId: string; utr: string; awb: string }[],
): Promise<{ carrierId: string; utr: string; awb: string; amountPaise: number; remittanceDate: string }[]> {
  return inSlices(keys, (slice) =>
    queryRows(
      ex,
      sql`select l.carrier_id as "carrierId", l.utr, l.awb, l.amount_paise::float8 as "amountPaise", l.remittance_date::text as "remittanceDate"
    from cod_remittances l
    join unnest(${sql.param(slice.map((k) => k.carrierId))}::text[], ${sql.param(slice.map((k) => k.utr))}::text[], ${sql.param(slice.map((k) => k.awb))}::text[])
      as k(carrier_id, utr, awb) on (l.carrier_id, l.utr, l.awb) = (k.carrier_id, k.utr, k.awb)
    where l.account_id = ${accountId}`,
    ),
  );
}

export interface ReceivableUpdate {
  id: string;
  receivedPaise: number;
  state: string;
  utr: string;
  remittanceDate: string;
}

export async function updateReceivables(
  ex: Executor,
  accountId: string,
  rows: ReceivableUpdate[],
  now: Date,
): Promise<void> {
  await inSlices(rows, (slice) =>
    queryRows(
      ex,
      sql`update cod_receivables r set received_paise = u.received, state = u.state, utr = u.utr, remittance_date = u.remittance_date,
      updated_at = ${now.toISOString()}::timestamptz
    from unnest(${sql.param(slice.map((r) => r.id))}::uuid[], ${sql.param(slice.map((r) => r.receivedPaise))}::bigint[],
      ${sql.param(slice.map((r) => r.state))}::text[], ${sql.param(slice.map((r) => r.utr))}::text[], ${sql.param(slice.map((r) => r.remittanceDate))}::date[])
      as u(id, received, state, utr, remittance_date)
    where r.account_id = ${accountId} and r.id = u.id`,
    ),
  );
}

export interface NewDiscrepancy {
  kind: 'short_paid' | 'over_paid' | 'paid_not_delivered';
  shipmentId: string;
  awb: string;
  carrierId: string;
  receivableId: string | null;
  remittanceId: string;
  expectedPaise: number;
  receivedPaise: number;
}

import type {
  CodDiscrepancyKind as DiscrepancyKind,
  CodDiscrepancyRow as DiscrepancyRow,
} from '../../domain/cod-discrepancy.js';

export type { DiscrepancyKind, DiscrepancyRow };

const DISCREPANCY_COLUMNS = sql`id, kind, awb, carrier_id as "carrierId", shipment_id as "shipmentId", receivable_id as "receivableId",
  remittance_id as "remittanceId", expected_paise::float8 as "expectedPaise", received_paise::float8 as "receivedPaise",
  expected_date::text as "expectedDate", detected_at as "detectedAt"`;

export async function insertDiscrepancies(
  ex: Executor,
  accountId: string,
  rows: NewDiscrepancy[],
  now: Date,
): Promise<DiscrepancyRow[]> {
  return inSlices(rows, (slice) =>
    queryRows<DiscrepancyRow>(
      ex,
      sql`insert into cod_discrepancies (account_id, kind, shipment_id, awb, carrier_id, receivable_id, remittance_id, expected_paise, received_paise, detected_at)
    select ${accountId}, i.kind, i.shipment_id, i.awb, i.carrier_id, i.receivable_id, i.remittance_id, i.expected, i.received, ${now.toISOString()}::timestamptz
    from unnest(${sql.param(slice.map((r) => r.kind))}::text[], ${sql.param(slice.map((r) => r.shipmentId))}::uuid[],
      ${sql.param(slice.map((r) => r.awb))}::text[], ${sql.param(slice.map((r) => r.carrierId))}::text[],
      ${sql.param(slice.map((r) => r.receivableId))}::uuid[], ${sql.param(slice.map((r) => r.remittanceId))}::uuid[],
      ${sql.param(slice.map((r) => r.expectedPaise))}::bigint[], ${sql.param(slice.map((r) => r.receivedPaise))}::bigint[])
      as i(kind, shipment_id, awb, carrier_id, receivable_id, remittance_id, expected, received)
    returning ${DISCREPANCY_COLUMNS}`,
    ),
  );
}

/**
 * Every account's pending receivables whose day has passed without a line, recorded once each
 * (the partial unique key): a second run, or two processes at once, find nothing new.
 */
export async function insertMissing(
  ex: Executor,
  today: string,
  now: Date,
): Promise<(DiscrepancyRow & { accountId: string })[]> {
  return queryRows(
    ex,
    sql`insert into cod_discrepancies (account_id, kind, shipment_id, awb, carrier_id, receivable_id, expected_paise, received_paise, expected_date, detected_at)
    select account_id, 'missing_from_remittance', shipment_id, awb, carrier_id, id, amount_paise, received_paise, expected_date, ${now.toISOString()}::timestamptz
    from cod_receivables where state = 'pending' and expected_date < ${today}::date
    on conflict (receivable_id) where kind = 'missing_from_remittance' do nothing
    returning account_id as "accountId", ${DISCREPANCY_COLUMNS}`,
  );
}

export interface AwbSettlement {
  awb: string;
  isCod: boolean;
  codAmountPaise: number;
  status: string;
  state: string | null;
  amountPaise: number | null;
  receivedPaise: number | null;
  expectedDate: string | null;
  utr: string | null;
  remittanceDate: string | null;
}

/** The account's shipments of these AWBs with their receivables; another account's AWB is not among them. */
export async function findSettlements(ex: Executor, accountId: string, awbs: string[]): Promise<AwbSettlement[]> {
  return queryRows<AwbSettlement>(
    ex,
    sql`select s.awb, s.is_cod as "isCod", s.cod_amount_paise::float8 as "codAmountPaise", s.status, r.state,
      r.amount_paise::float8 as "amountPaise", r.received_paise::float8 as "receivedPaise", r.expected_date::text as "expectedDate", r.utr,
      r.remittance_date::text as "remittanceDate"
    from shipments s left join cod_receivables r on r.account_id = s.account_id and r.shipment_id = s.id
    where s.account_id = ${accountId} and s.awb = any(${sql.param(awbs)}::text[])`,
  );
}
