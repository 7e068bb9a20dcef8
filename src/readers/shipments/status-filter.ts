import {
  type Column,
  and,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { shipmentActions, shipmentCounts, shipments } from '../../base/db/schema.js';
import type { StatusCondition } from '../../domain/shipment/granular-statuses.js';

// The listing's `status` words and `granular_status[]` as SQL, on the shipments table or on the
// counters the triggers keep (shipment_counts), from the same conditions the domain reads.

/** The columns a status condition reads, in shipments or in shipment_counts ('' there for none). */
export interface StatusColumns {
  status: Column;
  subStatus: Column;
  attemptCount: Column;
  courierBooked: (booked: boolean) => SQL;
  /** Absent where the table cannot tell (the counters): conditions on them are not counted there (countable). */
  rtoStarted?: (started: boolean) => SQL;
  reattemptRequested?: (requested: boolean) => SQL;
}

/** Conditions that read more than the counters keep; their counts come from the rows. */
export const needsRows = (c: StatusCondition) => c.rtoStarted !== undefined || c.reattemptRequested !== undefined;

/** A sub-status in (or, with notIn, out of) a list; null in an `in` list matches no sub-status. */
function subStatusIn(column: Column, values: readonly (string | null)[], notIn = false): SQL | undefined {
  const words = values.filter((v): v is string => v !== null);
  if (notIn) return or(isNull(column), notInArray(column, words));
  const some = words.length > 0 ? inArray(column, words) : undefined;
  return values.includes(null) ? or(isNull(column), eq(column, ''), some) : some;
}

/**
 * A status filter as SQL. Plain statuses become one `status in (...)`, which the
 * (account_id, status, created_at, id) index serves; only words with more conditions need an OR.
 * An empty list (words Dakiya never produces) matches nothing.
 */
export function statusFilter(conditions: readonly StatusCondition[], columns: StatusColumns): SQL | undefined {
  if (conditions.length === 0) return sql`false`;
  const plain = (c: StatusCondition) => Object.keys(c).length === 1;
  if (conditions.every(plain))
    return inArray(
      columns.status,
      conditions.map((c) => c.status),
    );
  return or(
    ...conditions.map((c) =>
      and(
        eq(columns.status, c.status),
        c.subStatuses && subStatusIn(columns.subStatus, c.subStatuses),
        c.notSubStatuses && subStatusIn(columns.subStatus, c.notSubStatuses, true),
        c.courierBooked === undefined ? undefined : columns.courierBooked(c.courierBooked),
        c.rtoStarted === undefined ? undefined : columns.rtoStarted?.(c.rtoStarted),
        c.reattemptRequested === undefined ? undefined : columns.reattemptRequested?.(c.reattemptRequested),
        c.attemptsAtMost === undefined ? undefined : lte(columns.attemptCount, c.attemptsAtMost),
        c.attemptsAbove === undefined ? undefined : gt(columns.attemptCount, c.attemptsAbove),
      ),
    ),
  );
}

/** A reattempt asked for the current failed delivery: an action whose attempt is the shipment's attempt_count. */
const reattemptAsked = sql`exists (select 1 from ${shipmentActions} a where a.account_id = ${shipments.accountId}
  and a.shipment_id = ${shipments.id} and a.action = 'reattempt' and a.attempt = ${shipments.attemptCount})`;

export const SHIPMENT_STATUS_COLUMNS: StatusColumns = {
  status: shipments.status,
  subStatus: shipments.subStatus,
  attemptCount: shipments.attemptCount,
  courierBooked: (booked) => (booked ? isNotNull(shipments.carrierId) : isNull(shipments.carrierId)),
  rtoStarted: (started) => (started ? isNotNull(shipments.rtoInitiatedAt) : isNull(shipments.rtoInitiatedAt)),
  reattemptRequested: (requested) => (requested ? reattemptAsked : sql`not ${reattemptAsked}`),
};

export const COUNTER_STATUS_COLUMNS: StatusColumns = {
  status: shipmentCounts.status,
  subStatus: shipmentCounts.subStatus,
  attemptCount: shipmentCounts.attemptCount,
  courierBooked: (booked) => (booked ? ne(shipmentCounts.carrierId, '') : eq(shipmentCounts.carrierId, '')),
};
