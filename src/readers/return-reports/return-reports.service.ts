import type { Db } from '../../base/db/client.js';
import type { Clock } from '../../base/clock.js';
import { formatDay, indiaDayOf, parseDay } from '../../domain/calendar.js';
import { paiseToRupees } from '../../domain/money.js';
import { indiaDayStart } from '../../domain/paging.js';
import { RETURN_REPORT_ERRORS } from './return-reports.errors.js';
import * as repo from './return-reports.repository.js';
import type { ReturnReportInput } from './return-reports.schemas.js';

// Return rates by SKU, reason and pincode, and the refunds outstanding (docs/returns.md).

const DEFAULT_DAYS = 30;
const rate = (part: number, whole: number | null) =>
  whole === null || whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

export type ReturnReportsService = ReturnType<typeof createReturnReportsService>;

export function createReturnReportsService({ db, clock }: { db: Db; clock: Clock }) {
  /** The range asked for, each day a real one and `to` not before `from`: every bad one named. */
  function range(query: ReturnReportInput) {
    const problems: { field: string; message: string }[] = [];
    const day = (field: 'from' | 'to') => {
      const value = query[field];
      if (value === undefined) return undefined;
      try {
        return parseDay(value);
      } catch {
        problems.push({ field, message: `${field} must be a calendar date, YYYY-MM-DD` });
        return undefined;
      }
    };
    const to = day('to') ?? indiaDayOf(clock.now());
    const from = day('from') ?? to - (DEFAULT_DAYS - 1);
    if (problems.length === 0 && from > to) problems.push({ field: 'to', message: 'to must not be before from' });
    if (problems.length > 0)
      throw RETURN_REPORT_ERRORS.return_report_range_invalid.error(
        problems.map((p) => p.message),
        problems,
      );
    return { from: formatDay(from), to: formatDay(to) };
  }

  return {
    /** `reach`: a store-limited credential's stores, whose deliveries alone are counted; null: every store. */
    async returns(accountId: string, query: ReturnReportInput, reach: readonly string[] | null) {
      const { from, to } = range(query);
      const groupBy = query.group_by ?? 'sku';
      const cohort = {
        accountId,
        from: indiaDayStart(from),
        to: indiaDayStart(to, 1),
        storeId: query.store_id,
        reach,
      };
      const rows = await (groupBy === 'sku'
        ? repo.bySku(db, cohort)
        : groupBy === 'pincode'
          ? repo.byPincode(db, cohort)
          : repo.byReason(db, cohort));
      // By reason there is no delivered count: the rates are each reason's share of all requests.
      const all = rows.reduce((sum, row) => sum + Number(row.requested), 0);
      const allApproved = rows.reduce((sum, row) => sum + Number(row.approved), 0);
      return {
        data: rows.map((row) => {
          const counts = {
            requested: Number(row.requested),
            approved: Number(row.approved),
            rejected: Number(row.rejected),
            pending: Number(row.pending),
          };
          const delivered = row.delivered === null ? null : Number(row.delivered);
          return {
            key: row.key,
            delivered,
            ...counts,
            request_rate: rate(counts.requested, delivered ?? all),
            return_rate: rate(counts.approved, delivered ?? allApproved),
          };
        }),
        meta: { group_by: groupBy, from, to },
      };
    },

    async refundsOutstanding(accountId: string, storeId: string | undefined, reach: readonly string[] | null) {
      const rows = await repo.outstandingRefunds(db, accountId, storeId, reach);
      const bucket = (name: repo.OutstandingRow['bucket']) => {
        const row = rows.find((r) => r.bucket === name);
        return { count: Number(row?.count ?? 0), amount: paiseToRupees(Number(row?.amount_paise ?? 0)) };
      };
      const total = rows.reduce(
        (sum, row) => ({ count: sum.count + Number(row.count), paise: sum.paise + Number(row.amount_paise) }),
        { count: 0, paise: 0 },
      );
      return {
        data: {
          waiting_on_return: bucket('waiting_on_return'),
          due: bucket('due'),
          initiated: bucket('initiated'),
          failed: bucket('failed'),
          total: { count: total.count, amount: paiseToRupees(total.paise) },
        },
      };
    },
  };
}
