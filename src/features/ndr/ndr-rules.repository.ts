import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { ndrRuleRuns, rtoSettings, shipmentActions, shipments } from '../../base/db/schema.js';

export type RuleRunRow = typeof ndrRuleRuns.$inferSelect;
type NewRun = Omit<typeof ndrRuleRuns.$inferInsert, 'accountId'>;

/** The account's NDR rules, as set (an empty list when never set). */
export async function findRules(db: Executor, accountId: string): Promise<unknown[]> {
  const [row] = await db
    .select({ rules: rtoSettings.ndrRules })
    .from(rtoSettings)
    .where(eq(rtoSettings.accountId, accountId));
  return row?.rules ?? [];
}

/** What a rule reads of a shipment: payment, place in its NDRs, AWB. */
export async function findShipmentFacts(db: Executor, accountId: string, shipmentId: string) {
  const [row] = await db
    .select({
      awb: shipments.awb,
      status: shipments.status,
      attemptCount: shipments.attemptCount,
      isCod: shipments.isCod,
      ndrReason: shipments.ndrReason,
    })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  return row;
}

/** Plans a run; nothing when one of the same action is planned for the same failed attempt (a replayed event). */
export async function insertRun(db: Executor, accountId: string, run: NewRun): Promise<void> {
  await db
    .insert(ndrRuleRuns)
    .values({ ...run, accountId })
    .onConflictDoNothing();
}

/** Leases up to `limit` due runs of any account until `leaseUntil` (FOR UPDATE SKIP LOCKED, as jobs are). */
export async function claimDue(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<RuleRunRow[]> {
  const at = now.toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ndr_rule_runs set locked_until = ${leaseUntil.toISOString()}::timestamptz
        where id in (
          select id from ndr_rule_runs
          where status = 'pending' and due_at <= ${at}::timestamptz and (locked_until is null or locked_until <= ${at}::timestamptz)
          order by due_at
          limit ${limit}
          for update skip locked)
        returning id`,
  );
  if (rows.length === 0) return [];
  return db
    .select()
    .from(ndrRuleRuns)
    .where(
      inArray(
        ndrRuleRuns.id,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(ndrRuleRuns.dueAt, ndrRuleRuns.createdAt);
}

export async function finishRun(
  db: Executor,
  accountId: string,
  id: string,
  values: Pick<RuleRunRow, 'status' | 'outcome' | 'actionId' | 'updatedAt'>,
): Promise<void> {
  await db
    .update(ndrRuleRuns)
    .set({ ...values, lockedUntil: null })
    .where(and(eq(ndrRuleRuns.accountId, accountId), eq(ndrRuleRuns.id, id)));
}

/** Whether anyone (merchant, buyer, a rule) asked for a reattempt of this failed attempt: the buyer's answer, for an RTO fallback. */
export async function reattemptAsked(
  db: Executor,
  accountId: string,
  shipmentId: string,
  attempt: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: shipmentActions.id })
    .from(shipmentActions)
    .where(
      and(
        eq(shipmentActions.accountId, accountId),
        eq(shipmentActions.shipmentId, shipmentId),
        eq(shipmentActions.action, 'reattempt'),
        eq(shipmentActions.attempt, attempt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Adds an outcome to the shipment's ndr_outcomes (ndr_all_outcomes[] in the listing), once. */
export async function addNdrOutcome(
  db: Executor,
  accountId: string,
  shipmentId: string,
  outcome: string,
): Promise<void> {
  await db
    .update(shipments)
    .set({ ndrOutcomes: sql`array_append(${shipments.ndrOutcomes}, ${outcome}::text)` })
    .where(
      and(
        eq(shipments.accountId, accountId),
        eq(shipments.id, shipmentId),
        sql`not (${outcome}::text = any(${shipments.ndrOutcomes}))`,
      ),
    );
}
