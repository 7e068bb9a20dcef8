import { codDiscrepancyView } from '../../domain/cod-discrepancy.js';
import type { Db } from '../../base/db/client.js';
import { formatDay, indiaDayOf, parseDay } from '../../domain/calendar.js';
import { toCsv } from '../../domain/csv.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import { COD_REPORT_ERRORS } from './cod-reports.errors.js';
import { paiseToRupees } from '../../domain/money.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import type { Clock } from '../../base/clock.js';
import * as repo from './cod-reports.repository.js';

/** A store-limited credential's stores; null: every store. */
type Reach = readonly string[] | null;

export type CodReports = ReturnType<typeof createCodReports>;

/** Rows an export writes at most; a wider filter is refused rather than cut short. */
export const MAX_EXPORT_ROWS = 100_000;

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

const encodeCursor = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString('base64url');

function decodeCursor(cursor: string | undefined, problems: FieldError[]): repo.Keyset | null {
  if (cursor === undefined) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id) && !Number.isNaN(Date.parse(at)))
      return { at, id };
  } catch {
    // Reported below, with the other fields.
  }
  problems.push({ field: 'cursor', message: 'cursor must be a next_cursor this listing answered' });
  return null;
}

/** Each date field a calendar day, and each range in order; every problem reported at once. */
function checkDates(query: object, ranges: [string, string][], problems: FieldError[]) {
  for (const [from, to] of ranges) {
    for (const field of [from, to]) {
      const value = (query as Record<string, unknown>)[field];
      if (typeof value !== 'string') continue;
      try {
        parseDay(value);
      } catch {
        problems.push({ field, message: `${field} must be a calendar date, YYYY-MM-DD` });
      }
    }
    const a = (query as Record<string, unknown>)[from];
    const b = (query as Record<string, unknown>)[to];
    if (
      typeof a === 'string' &&
      typeof b === 'string' &&
      a > b &&
      !problems.some((p) => p.field === from || p.field === to)
    ) {
      problems.push({ field: to, message: `${to} must not be before ${from}` });
    }
  }
}

function refuse(problems: FieldError[]) {
  if (problems.length > 0)
    throw new DomainError(
      'invalid',
      problems.map((p) => p.message),
      problems,
    );
}

export function createCodReports({ db, clock, catalogue }: { db: Db; clock: Clock; catalogue: CourierCatalogue }) {
  const courierName = (carrierId: string) => catalogue.byId.get(carrierId)?.name ?? carrierId;
  const today = () => formatDay(indiaDayOf(clock.now()));

  const receivableView = (row: repo.ReceivableRow, day: string) => ({
    id: row.id,
    awb: row.awb,
    shipment_id: row.shipmentId,
    carrier_id: row.carrierId,
    courier_name: courierName(row.carrierId),
    cod_amount: paiseToRupees(row.amountPaise),
    delivered_at: row.deliveredAt.toISOString(),
    expected_date: row.expectedDate,
    state: row.state,
    received_amount: paiseToRupees(row.receivedPaise),
    utr: row.utr,
    remittance_date: row.remittanceDate,
    overdue: row.state === 'pending' && row.expectedDate < day,
  });
  const remittanceView = (row: repo.RemittanceRow) => ({
    id: row.id,
    import_id: row.importId,
    awb: row.awb,
    shipment_id: row.shipmentId,
    receivable_id: row.receivableId,
    carrier_id: row.carrierId,
    courier_name: courierName(row.carrierId),
    utr: row.utr,
    amount: paiseToRupees(row.amountPaise),
    remittance_date: row.remittanceDate,
    imported_at: row.createdAt.toISOString(),
  });
  const cycleView = (row: repo.CycleRow) => ({
    carrier_id: row.carrierId,
    courier_name: courierName(row.carrierId),
    expected_date: row.expectedDate,
    receivables: row.receivables,
    expected_amount: paiseToRupees(row.expectedPaise),
    received_amount: paiseToRupees(row.receivedPaise),
    difference: paiseToRupees(row.receivedPaise - row.expectedPaise),
    pending: row.pending,
    remitted: row.remitted,
    reconciled: row.reconciled,
    discrepancies: row.discrepancies,
  });

  /** A page of a listing, or (limit null) every row for an export, refused past MAX_EXPORT_ROWS. */
  async function page<R, V>(
    fetch: (after: repo.Keyset | null, limit: number) => Promise<R[]>,
    after: repo.Keyset | null,
    limit: number | null,
    keyOf: (row: R) => [string, string],
    view: (row: R) => V,
  ) {
    const take = limit ?? MAX_EXPORT_ROWS;
    const rows = await fetch(after, take + 1);
    if (limit === null && rows.length > take) {
      throw COD_REPORT_ERRORS.cod_export_too_large.error(
        `more than ${MAX_EXPORT_ROWS} rows match: narrow the dates or add a filter`,
      );
    }
    const shown = rows.slice(0, take);
    const last = shown.at(-1);
    return { data: shown.map(view), next_cursor: rows.length > take && last ? encodeCursor(...keyOf(last)) : null };
  }

  return {
    // Each answers of the stores `reach` names only when it names some (a store-limited credential's).
    async receivables(accountId: string, query: ReceivablesQuery, exporting = false, reach: Reach = null) {
      const problems: FieldError[] = [];
      checkDates(
        query,
        [
          ['delivered_from', 'delivered_to'],
          ['expected_from', 'expected_to'],
        ],
        problems,
      );
      const after = exporting ? null : decodeCursor(query.cursor, problems);
      refuse(problems);
      const filter: repo.ReceivableFilter = {
        state: query.state,
        carrierId: query.carrier_id,
        utr: query.utr?.toUpperCase(),
        deliveredFrom: query.delivered_from,
        deliveredTo: query.delivered_to,
        expectedFrom: query.expected_from,
        expectedTo: query.expected_to,
        reach,
      };
      const day = today();
      return page(
        (keyset, take) => repo.listReceivables(db, accountId, filter, keyset, take),
        after,
        exporting ? null : (query.limit ?? 50),
        (row) => [row.deliveredAt.toISOString(), row.id],
        (row) => receivableView(row, day),
      );
    },

    async remittances(accountId: string, query: RemittancesQuery, exporting = false, reach: Reach = null) {
      const problems: FieldError[] = [];
      checkDates(query, [['from', 'to']], problems);
      const after = exporting ? null : decodeCursor(query.cursor, problems);
      refuse(problems);
      const filter = {
        carrierId: query.carrier_id,
        utr: query.utr?.toUpperCase(),
        awb: query.awb,
        from: query.from,
        to: query.to,
        reach,
      };
      return page(
        (keyset, take) => repo.listRemittances(db, accountId, filter, keyset, take),
        after,
        exporting ? null : (query.limit ?? 50),
        (row) => [row.remittanceDate, row.id],
        remittanceView,
      );
    },

    async discrepancies(accountId: string, query: DiscrepanciesQuery, exporting = false, reach: Reach = null) {
      const problems: FieldError[] = [];
      checkDates(query, [['from', 'to']], problems);
      const after = exporting ? null : decodeCursor(query.cursor, problems);
      refuse(problems);
      const filter = { kind: query.kind, carrierId: query.carrier_id, from: query.from, to: query.to, reach };
      return page(
        (keyset, take) => repo.listDiscrepancies(db, accountId, filter, keyset, take),
        after,
        exporting ? null : (query.limit ?? 50),
        (row) => [row.detectedAt.toISOString(), row.id],
        codDiscrepancyView,
      );
    },

    async reconciliation(accountId: string, query: ReconciliationQuery, reach: Reach = null) {
      const problems: FieldError[] = [];
      checkDates(query, [['from', 'to']], problems);
      refuse(problems);
      const rows = await repo.reconciliation(db, accountId, {
        carrierId: query.carrier_id,
        from: query.from,
        to: query.to,
        reach,
      });
      const sum = (pick: (row: repo.CycleRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
      const expected = sum((r) => r.expectedPaise);
      const received = sum((r) => r.receivedPaise);
      return {
        data: rows.map(cycleView),
        totals: {
          receivables: sum((r) => r.receivables),
          expected_amount: paiseToRupees(expected),
          received_amount: paiseToRupees(received),
          difference: paiseToRupees(received - expected),
          pending: sum((r) => r.pending),
          remitted: sum((r) => r.remitted),
          reconciled: sum((r) => r.reconciled),
          discrepancies: sum((r) => r.discrepancies),
        },
      };
    },
  };
}

export interface ReceivablesQuery extends PageQuery {
  state?: string;
  carrier_id?: string;
  utr?: string;
  delivered_from?: string;
  delivered_to?: string;
  expected_from?: string;
  expected_to?: string;
}
export interface RemittancesQuery extends PageQuery {
  carrier_id?: string;
  utr?: string;
  awb?: string;
  from?: string;
  to?: string;
}
export interface DiscrepanciesQuery extends PageQuery {
  kind?: string;
  carrier_id?: string;
  from?: string;
  to?: string;
}
export interface ReconciliationQuery {
  carrier_id?: string;
  from?: string;
  to?: string;
}

type Cell = string | number | boolean | null;
type Views = Awaited<ReturnType<CodReports['receivables']>>['data'][number] &
  Awaited<ReturnType<CodReports['remittances']>>['data'][number] &
  Awaited<ReturnType<CodReports['discrepancies']>>['data'][number] &
  Awaited<ReturnType<CodReports['reconciliation']>>['data'][number];

/** The columns of each CSV export: the listing's fields, in this order (every text cell safe to open in a spreadsheet). */
export const CSV_COLUMNS = {
  receivables: [
    'awb',
    'carrier_id',
    'courier_name',
    'cod_amount',
    'delivered_at',
    'expected_date',
    'state',
    'received_amount',
    'utr',
    'remittance_date',
    'overdue',
  ],
  remittances: ['awb', 'carrier_id', 'courier_name', 'utr', 'amount', 'remittance_date', 'import_id', 'imported_at'],
  discrepancies: [
    'kind',
    'awb',
    'carrier_id',
    'expected_amount',
    'received_amount',
    'difference',
    'expected_date',
    'detected_at',
  ],
  reconciliation: [
    'expected_date',
    'carrier_id',
    'courier_name',
    'receivables',
    'expected_amount',
    'received_amount',
    'difference',
    'pending',
    'remitted',
    'reconciled',
    'discrepancies',
  ],
} as const satisfies Record<string, readonly (keyof Views)[]>;

export function csvOf(kind: keyof typeof CSV_COLUMNS, rows: readonly object[]): string {
  const columns = CSV_COLUMNS[kind];
  return toCsv(
    columns,
    rows.map((row) => columns.map((column) => (row as Record<string, Cell>)[column] ?? null)),
  );
}
