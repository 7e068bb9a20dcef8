import { and, desc, eq, gte, inArray, isNotNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { orders, shipments, weightDiscrepancies } from '../../base/db/schema.js';
import { type ChargeState, discrepancyStatesFor } from '../../domain/charges.js';
import { ownStoreIn } from '../shipments/store-limit.js';

const columns = {
  id: shipments.id,
  awb: shipments.awb,
  orderId: orders.merchantOrderId,
  carrierId: shipments.carrierId,
  status: shipments.status,
  isCod: shipments.isCod,
  freightPaise: shipments.freightPaise,
  codChargesPaise: shipments.codChargesPaise,
  rtoChargesPaise: shipments.rtoChargesPaise,
  assignedAt: shipments.assignedAt,
  rtoInitiatedAt: shipments.rtoInitiatedAt,
  createdAt: shipments.createdAt,
  discrepancyState: weightDiscrepancies.state,
  extraPaise: weightDiscrepancies.extraPaise,
  declaredWeightGrams: weightDiscrepancies.declaredWeightGrams,
  chargedWeightGrams: weightDiscrepancies.chargedWeightGrams,
  openedAt: weightDiscrepancies.openedAt,
  settledAt: weightDiscrepancies.settledAt,
};

function select(ex: Executor) {
  return ex
    .select(columns)
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .leftJoin(
      weightDiscrepancies,
      and(eq(weightDiscrepancies.accountId, shipments.accountId), eq(weightDiscrepancies.shipmentId, shipments.id)),
    );
}

export type ChargeRow = Awaited<ReturnType<typeof findByAwbs>>[number];

/** The account's shipments among `awbs`; another account's are simply not found. */
export async function findByAwbs(ex: Executor, accountId: string, awbs: readonly string[]) {
  return select(ex).where(and(eq(shipments.accountId, accountId), inArray(shipments.awb, [...awbs])));
}

export interface ChargeFilters {
  carrierIds?: readonly string[];
  state?: ChargeState;
  createdFrom?: Date;
  createdBefore?: Date;
  after?: { at: Date; id: string };
  /** A store-limited credential's stores; null: every store. */
  reach: readonly string[] | null;
}

/**
 * A line in `state`, as chargeLines writes them: none without a quoted freight; with one, its
 * forward freight is charged, so only pending and waived depend on the weight adjustment.
 */
function hasLineIn(state: ChargeState) {
  return and(
    isNotNull(shipments.freightPaise),
    state === 'charged' ? undefined : inArray(weightDiscrepancies.state, discrepancyStatesFor(state)),
  );
}

/** Booked shipments, newest first: the ones with charges. */
export async function listCharges(
  ex: Executor,
  accountId: string,
  filters: ChargeFilters,
  limit: number,
): Promise<ChargeRow[]> {
  const { after } = filters;
  return select(ex)
    .where(
      and(
        eq(shipments.accountId, accountId),
        isNotNull(shipments.assignedAt),
        filters.carrierIds?.length ? inArray(shipments.carrierId, [...filters.carrierIds]) : undefined,
        filters.state ? hasLineIn(filters.state) : undefined,
        filters.createdFrom ? gte(shipments.createdAt, filters.createdFrom) : undefined,
        filters.createdBefore ? lt(shipments.createdAt, filters.createdBefore) : undefined,
        ...ownStoreIn(shipments.storeId, filters.reach),
        after
          ? or(lt(shipments.createdAt, after.at), and(eq(shipments.createdAt, after.at), lt(shipments.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(shipments.createdAt), desc(shipments.id))
    .limit(limit);
}
