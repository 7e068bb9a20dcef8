import { and, asc, eq, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { allocationRules } from '../../base/db/schema.js';
import type { CourierRecord, DeliveryHistory } from '../../domain/allocation/allocation.js';

export type RuleRow = typeof allocationRules.$inferSelect;
export type RuleValues = Omit<typeof allocationRules.$inferInsert, 'accountId' | 'id' | 'createdAt'>;

export async function listRules(ex: Executor, accountId: string): Promise<RuleRow[]> {
  return ex
    .select()
    .from(allocationRules)
    .where(eq(allocationRules.accountId, accountId))
    .orderBy(asc(allocationRules.priority), asc(allocationRules.id));
}

export async function insertRule(
  ex: Executor,
  accountId: string,
  values: RuleValues & { createdAt: Date },
): Promise<RuleRow> {
  const [row] = await ex
    .insert(allocationRules)
    .values({ ...values, accountId })
    .returning();
  return row!;
}

export async function updateRule(
  ex: Executor,
  accountId: string,
  id: string,
  values: RuleValues,
): Promise<RuleRow | undefined> {
  const [row] = await ex
    .update(allocationRules)
    .set(values)
    .where(and(eq(allocationRules.accountId, accountId), eq(allocationRules.id, id)))
    .returning();
  return row;
}

export async function deleteRule(ex: Executor, accountId: string, id: string): Promise<RuleRow | undefined> {
  const [row] = await ex
    .delete(allocationRules)
    .where(and(eq(allocationRules.accountId, accountId), eq(allocationRules.id, id)))
    .returning();
  return row;
}

/**
 * The account's closed shipments (delivered, or returned to origin) per courier service: those to
 * the pincode, and those in the zone. One statement for every candidate service.
 */
export async function deliveryHistory(
  ex: Executor,
  accountId: string,
  carrierIds: readonly string[],
  pincode: string,
  zone: string,
): Promise<DeliveryHistory> {
  const rows = await queryRows<{
    carrier_id: string;
    pin_delivered: number;
    pin_rto: number;
    zone_delivered: number;
    zone_rto: number;
  }>(
    ex,
    sql`select s.carrier_id,
          count(*) filter (where o.shipping_pincode = ${pincode} and s.rto_initiated_at is null)::int as pin_delivered,
          count(*) filter (where o.shipping_pincode = ${pincode} and s.rto_initiated_at is not null)::int as pin_rto,
          count(*) filter (where s.zone = ${zone} and s.rto_initiated_at is null)::int as zone_delivered,
          count(*) filter (where s.zone = ${zone} and s.rto_initiated_at is not null)::int as zone_rto
        from shipments s join orders o on o.id = s.order_id
        where s.account_id = ${accountId} and o.account_id = ${accountId}
          and s.carrier_id in (${sql.join(
            carrierIds.map((id) => sql`${id}`),
            sql`, `,
          )})
          and (s.delivered_at is not null or s.rto_initiated_at is not null)
          and (s.zone = ${zone} or o.shipping_pincode = ${pincode})
        group by s.carrier_id`,
  );
  const pin = new Map<string, CourierRecord>();
  const inZone = new Map<string, CourierRecord>();
  for (const row of rows) {
    pin.set(row.carrier_id, { delivered: Number(row.pin_delivered), rto: Number(row.pin_rto) });
    inZone.set(row.carrier_id, { delivered: Number(row.zone_delivered), rto: Number(row.zone_rto) });
  }
  return { pincode: pin, zone: inZone };
}
