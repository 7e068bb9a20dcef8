import { sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../base/db/client.js';

/**
 * The delivered history risk is scored on (schema/rto.ts: rto_history), read by bookings and kept
 * by the tracking intake: two features, so the statements live here, below both.
 */

/** Whose history: the buyer's phone (10 digits), the destination pincode, and its district ("state|district"). */
export interface HistoryKeys {
  phone: string;
  pincode: string;
  district: string;
}

export interface Counts {
  delivered: number;
  rto: number;
  refused: number;
}

export interface RiskFacts {
  thresholds: { medium: number; high: number; high_value_paise: number } | null;
  phone: Counts;
  pincode: Counts;
  district: Counts;
}

const ZERO: Counts = { delivered: 0, rto: 0, refused: 0 };

/**
 * The account's thresholds and the three keys' counts: one statement, three lookups of
 * rto_history's primary key and one of rto_settings', always three rows (zeros for a key with
 * no history), so a booking pays one round trip for it.
 */
export async function readRiskFacts(ex: Executor, accountId: string, keys: HistoryKeys): Promise<RiskFacts> {
  const rows = await queryPreparedRows<{
    kind: keyof HistoryKeys;
    delivered: number | null;
    rto: number | null;
    refused: number | null;
    thresholds: RiskFacts['thresholds'];
  }>(
    ex,
    sql`select k.kind, h.delivered, h.rto, h.refused, st.thresholds
          from (values ('phone', ${keys.phone}::text), ('pincode', ${keys.pincode}::text), ('district', ${keys.district}::text)) k(kind, key)
          left join rto_history h on h.account_id = ${accountId} and h.kind = k.kind and h.key = k.key
          left join rto_settings st on st.account_id = ${accountId}`,
  );
  const facts: RiskFacts = { thresholds: rows[0]?.thresholds ?? null, phone: ZERO, pincode: ZERO, district: ZERO };
  for (const row of rows) {
    facts[row.kind] = { delivered: row.delivered ?? 0, rto: row.rto ?? 0, refused: row.refused ?? 0 };
  }
  return facts;
}

/** Adds `added` to each key's counts, in the caller's transaction. */
export async function recordOutcomes(ex: Executor, accountId: string, keys: HistoryKeys, added: Counts): Promise<void> {
  const { delivered, rto, refused } = added;
  await ex.execute(
    sql`insert into rto_history (account_id, kind, key, delivered, rto, refused)
        select ${accountId}::uuid, k.kind, k.key, ${delivered}::int, ${rto}::int, ${refused}::int
          from (values ('phone', ${keys.phone}::text), ('pincode', ${keys.pincode}::text), ('district', ${keys.district}::text)) k(kind, key)
        on conflict (account_id, kind, key) do update set
          delivered = rto_history.delivered + excluded.delivered, rto = rto_history.rto + excluded.rto, refused = rto_history.refused + excluded.refused`,
  );
}

/** The district key of a directory entry. */
export const districtKey = (entry: { state: string; district: string }) => `${entry.state}|${entry.district}`;
