import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { REPORT_ERRORS } from './reports.errors.js';
import type { FieldError } from '../../domain/errors.js';
import { parseOrderDate } from '../../domain/shipment/order-dates.js';
import { paiseToRupees } from '../../domain/money.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import { SHIPMENT_STATUSES } from '../../domain/shipment/status-machine.js';
import { forwardTotals, returnTotals, type StatusTotals } from './reports.repository.js';
import { RETURN_REPORT_STATUSES, type ReportEntry, type ReportInput, type ReportView } from './reports.schemas.js';

/** Long enough for Velocity's own example (2022-01-01 to 2025-09-08); a typo'd year is refused. */
export const MAX_REPORT_DAYS = 5 * 366;
const DAY_MS = 24 * 60 * 60 * 1000;

export type ReportsService = ReturnType<typeof createReportsService>;

interface Source {
  statuses: readonly string[];
  totals(
    db: Db,
    accountId: string,
    from: Date,
    to: Date,
    reach: readonly string[] | null,
    now: Date,
  ): Promise<StatusTotals[]>;
}

/**
 * Velocity's return summary has five entries; each of a return's seven statuses counts in one.
 * A return waiting for its pickup counts as pickup-scheduled whether or not its courier is booked
 * yet, and a parcel collected but not yet scanned in transit is already in transit.
 */
export const RETURN_REPORT_ENTRY: Readonly<Record<ReturnStatus, (typeof RETURN_REPORT_STATUSES)[number]>> = {
  return_requested: 'return_pickup_scheduled',
  return_pickup_scheduled: 'return_pickup_scheduled',
  return_picked_up: 'return_in_transit',
  return_in_transit: 'return_in_transit',
  return_delivered: 'return_delivered',
  return_cancelled: 'cancelled',
  return_lost: 'return_lost',
};

/** Where each shipment type's counts come from: one query of the same shape (status, COD flag, count, value). */
const SOURCES: Record<ReportInput['shipment_type'], Source> = {
  forward: { statuses: SHIPMENT_STATUSES, totals: forwardTotals },
  return: {
    statuses: RETURN_REPORT_STATUSES,
    totals: async (db, accountId, from, to, reach) =>
      (await returnTotals(db, accountId, from, to, reach)).map((row) => ({
        ...row,
        status: RETURN_REPORT_ENTRY[row.status as ReturnStatus],
      })),
  },
};

function readRange(body: ReportInput): { from: Date; to: Date } {
  const problems: FieldError[] = [];
  const read = (field: 'start_date_time' | 'end_date_time') => {
    const date = parseOrderDate(body[field]);
    if (!date) problems.push({ field, message: `${field} must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z` });
    return date;
  };
  const from = read('start_date_time');
  const to = read('end_date_time');
  if (from && to && to < from) {
    problems.push({ field: 'end_date_time', message: 'end_date_time must not be before start_date_time' });
  } else if (from && to && to.getTime() - from.getTime() > MAX_REPORT_DAYS * DAY_MS) {
    problems.push({ field: 'end_date_time', message: `The range must not exceed ${MAX_REPORT_DAYS} days` });
  }
  if (problems.length > 0)
    throw REPORT_ERRORS.report_range_invalid.error(
      problems.map((p) => p.message),
      problems,
    );
  return { from: from!, to: to! };
}

export function createReportsService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /**
     * Velocity's summary report: per status, how many shipments and the value of their orders; of
     * the stores `reach` names only when it names some (a store-limited credential's).
     */
    async summary(accountId: string, body: ReportInput, reach: readonly string[] | null = null): Promise<ReportView> {
      const { from, to } = readRange(body);
      const source = SOURCES[body.shipment_type];
      const paise = new Map(source.statuses.map((status) => [status, { count: 0, prepaid: 0, cod: 0 }]));
      let total = 0;
      for (const row of await source.totals(db, accountId, from, to, reach, clock.now())) {
        const entry = paise.get(row.status);
        if (!entry) continue;
        entry.count += row.shipments;
        entry[row.isCod ? 'cod' : 'prepaid'] += row.valuePaise;
        total += row.shipments;
      }
      const summary: Record<string, ReportEntry | number> = {};
      for (const [status, entry] of paise) {
        summary[status] = {
          count: entry.count,
          sum_of_prepaid_orders: paiseToRupees(entry.prepaid),
          sum_of_cod_orders: paiseToRupees(entry.cod),
        };
      }
      summary.total_shipments = total;
      return {
        status: 'SUCCESS',
        payload: {
          date_range: { start_date_time: body.start_date_time, end_date_time: body.end_date_time },
          shipment_type: body.shipment_type,
          summary: summary as ReportView['payload']['summary'],
        },
      };
    },
  };
}
