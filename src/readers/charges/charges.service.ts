import type { Db } from '../../base/db/client.js';
import { awbNotFound } from '../../domain/awb-not-found.js';
import { type ChargeLine, chargeLines, chargeTotals, type DiscrepancyState } from '../../domain/charges.js';
import { decodeCursor, encodeCursor, indiaDayStart } from '../../domain/paging.js';
import { cursorUnknown } from '../../domain/paging.errors.js';
import * as repo from './charges.repository.js';
import type { ChargesListQuery } from './charges.schemas.js';

const rupees = (paise: number) => paise / 100;

function linesOf(row: repo.ChargeRow): ChargeLine[] {
  const discrepancy =
    row.discrepancyState === null
      ? null
      : {
          state: row.discrepancyState as DiscrepancyState,
          extraPaise: row.extraPaise!,
          declaredWeightGrams: row.declaredWeightGrams!,
          chargedWeightGrams: row.chargedWeightGrams!,
          openedAt: row.openedAt!,
          settledAt: row.settledAt,
        };
  return chargeLines(row, discrepancy);
}

function ledgerOf(row: repo.ChargeRow) {
  const lines = linesOf(row);
  const { totalPaise, pendingPaise } = chargeTotals(lines);
  return {
    awb: row.awb!,
    found: 1 as const,
    shipment_id: row.id,
    order_id: row.orderId,
    carrier_id: row.carrierId,
    status: row.status,
    lines: lines.map((line) => ({
      type: line.kind,
      amount: rupees(line.amountPaise),
      state: line.state,
      reason: line.reason,
      at: line.at.toISOString(),
    })),
    total_charges: rupees(totalPaise),
    pending_charges: rupees(pendingPaise),
  };
}

/** One row of the listing and the CSV: each kind's amount, 0 where the shipment has no such line. */
function summaryOf(row: repo.ChargeRow) {
  const lines = linesOf(row);
  const amount = (kind: ChargeLine['kind']) => rupees(lines.find((line) => line.kind === kind)?.amountPaise ?? 0);
  const adjustment = lines.find((line) => line.kind === 'weight_adjustment');
  const { totalPaise, pendingPaise } = chargeTotals(lines);
  return {
    awb: row.awb!,
    order_id: row.orderId,
    shipment_id: row.id,
    carrier_id: row.carrierId!,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    forward_freight: amount('forward_freight'),
    cod_fee: amount('cod_fee'),
    rto_freight: amount('rto_freight'),
    weight_adjustment: amount('weight_adjustment'),
    weight_adjustment_state: adjustment?.state ?? null,
    total_charges: rupees(totalPaise),
    pending_charges: rupees(pendingPaise),
  };
}
export type ChargeSummary = ReturnType<typeof summaryOf>;

export type ChargesService = ReturnType<typeof createChargesService>;

export function createChargesService({ db }: { db: Db }) {
  return {
    /** Velocity's `{awbs}` lookup: every AWB asked for answers, found or not, keyed by itself. */
    async byAwbs(accountId: string, awbs: readonly string[]) {
      const unique = [...new Set(awbs.map((awb) => awb.trim()))];
      const rows = await repo.findByAwbs(db, accountId, unique);
      const byAwb = new Map(rows.map((row) => [row.awb, row]));
      const payload: Record<string, ReturnType<typeof ledgerOf> | ReturnType<typeof awbNotFound>> = {};
      for (const awb of unique) {
        const row = byAwb.get(awb);
        payload[awb] = row ? ledgerOf(row) : awbNotFound(awb);
      }
      return { status: 1 as const, payload };
    },

    /** `reach`: a store-limited credential's stores, whose shipments alone are listed; null: every store. */
    async list(accountId: string, query: ChargesListQuery, limit: number, reach: readonly string[] | null) {
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (after === null) throw cursorUnknown('cursor must be a next_cursor this listing answered', 'cursor');
      const carrierIds =
        query.carrier_id === undefined
          ? undefined
          : Array.isArray(query.carrier_id)
            ? query.carrier_id
            : [query.carrier_id];
      const rows = await repo.listCharges(
        db,
        accountId,
        {
          carrierIds,
          state: query.state,
          createdFrom: query.from ? indiaDayStart(query.from) : undefined,
          createdBefore: query.to ? indiaDayStart(query.to, 1) : undefined,
          after,
          reach,
        },
        limit + 1,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        data: page.map(summaryOf),
        next_cursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
      };
    },
  };
}
