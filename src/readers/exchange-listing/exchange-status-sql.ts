import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { ExchangeStatus } from '../../domain/shipment/exchange-status.js';

/** The facts exchangeStatus() reads, as SQL expressions over the listing's row. */
export interface ExchangeLegColumns {
  forward: SQLWrapper;
  return: SQLWrapper;
  qcStatus: SQLWrapper;
  replacementHeld: SQLWrapper;
}

/**
 * exchangeStatus() (domain/shipment/exchange-status.ts) as a CASE expression, so the listing
 * filters and counts by status in the database rather than loading an account's exchanges. The
 * branches are the function's, in its order; exchange-status-sql.test.ts checks the two agree on
 * every combination of the legs' statuses, QC result and hold.
 */
export function exchangeStatusSql(c: ExchangeLegColumns): SQL<ExchangeStatus> {
  const { forward: f, return: r, qcStatus: qc, replacementHeld: held } = c;
  return sql<ExchangeStatus>`(case
    when ${f} = 'cancelled' and ${r} = 'return_cancelled' then 'cancelled'
    when ${qc} is not distinct from 'failed' then 'qc_failed'
    when ${f} = 'cancelled' or ${r} = 'return_cancelled' or ${r} = 'return_lost'
      or ${f} in ('rto_initiated', 'rto_in_transit', 'rto_delivered') then 'needs_attention'
    when ${f} = 'delivered' and ${r} = 'return_delivered' then 'completed'
    when ${f} = 'delivered' then 'replacement_delivered'
    when ${r} = 'return_delivered' then 'return_received'
    when ${held} then 'awaiting_return'
    when ${f} <> 'pending' or ${r} in ('return_picked_up', 'return_in_transit') then 'in_progress'
    else 'pending' end)`;
}
