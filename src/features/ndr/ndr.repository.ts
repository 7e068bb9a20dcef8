import { and, asc, eq, gt, inArray, isNull, max, or, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { orders, shipmentActions, shipments, trackingEvents } from '../../base/db/schema.js';

export type ActionRow = typeof shipmentActions.$inferSelect;

/** The shipment an instruction names, locked until the transaction ends so two instructions queue. */
export async function lockShipmentByAwb(db: Executor, accountId: string, awb: string) {
  const [row] = await db
    .select({
      id: shipments.id,
      status: shipments.status,
      attemptCount: shipments.attemptCount,
      carrierId: shipments.carrierId,
      shippingPincode: orders.shippingPincode,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(eq(shipments.accountId, accountId), eq(shipments.awb, awb)))
    .for('update', { of: shipments });
  return row;
}

export async function findReattemptAttempts(db: Executor, accountId: string, shipmentId: string): Promise<number[]> {
  const rows = await db
    .select({ attempt: shipmentActions.attempt })
    .from(shipmentActions)
    .where(and(eq(shipmentActions.accountId, accountId), eq(shipmentActions.shipmentId, shipmentId), eq(shipmentActions.action, 'reattempt')));
  return rows.map((r) => r.attempt);
}

export async function insertAction(db: Executor, accountId: string, values: Omit<typeof shipmentActions.$inferInsert, 'accountId'>) {
  const [row] = await db
    .insert(shipmentActions)
    .values({ ...values, accountId })
    .returning();
  return row!;
}

/** Actions of many shipments, oldest first, grouped by shipment. */
export async function findActionsOf(db: Executor, accountId: string, shipmentIds: string[]): Promise<Map<string, ActionRow[]>> {
  const grouped = new Map<string, ActionRow[]>();
  if (shipmentIds.length === 0) return grouped;
  const rows = await db
    .select()
    .from(shipmentActions)
    .where(and(eq(shipmentActions.accountId, accountId), inArray(shipmentActions.shipmentId, shipmentIds)))
    .orderBy(asc(shipmentActions.createdAt), asc(shipmentActions.id));
  for (const row of rows) {
    const list = grouped.get(row.shipmentId);
    if (list) list.push(row);
    else grouped.set(row.shipmentId, [row]);
  }
  return grouped;
}

const carrierColumns = {
  id: shipmentActions.id,
  awb: shipments.awb,
  action: shipmentActions.action,
  requestedBy: shipmentActions.requestedBy,
  createdAt: shipmentActions.createdAt,
  acknowledgedAt: shipmentActions.acknowledgedAt,
  payload: shipmentActions.payload,
};
export type CarrierActionRow = { [K in keyof typeof carrierColumns]: (typeof carrierColumns)[K]['_']['data'] };

/**
 * A courier's open instructions, oldest first, across every account that books it (the courier
 * serves them all): the one query here not scoped by account.
 */
export async function findOpenForCarrier(db: Executor, carrierId: string, limit: number, after?: { createdAt: Date; id: string }) {
  return db
    .select(carrierColumns)
    .from(shipmentActions)
    .innerJoin(shipments, eq(shipments.id, shipmentActions.shipmentId))
    .where(
      and(
        eq(shipmentActions.carrierId, carrierId),
        isNull(shipmentActions.acknowledgedAt),
        after
          ? or(gt(shipmentActions.createdAt, after.createdAt), and(eq(shipmentActions.createdAt, after.createdAt), gt(shipmentActions.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(asc(shipmentActions.createdAt), asc(shipmentActions.id))
    .limit(limit) as Promise<CarrierActionRow[]>;
}

/** Acknowledges the courier's own action; the first acknowledgement's time stays. Undefined when not the courier's. */
export async function acknowledge(db: Executor, carrierId: string, id: string, now: Date): Promise<CarrierActionRow | undefined> {
  await db
    .update(shipmentActions)
    .set({ acknowledgedAt: sql`coalesce(${shipmentActions.acknowledgedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId)));
  const [row] = await db
    .select(carrierColumns)
    .from(shipmentActions)
    .innerJoin(shipments, eq(shipments.id, shipmentActions.shipmentId))
    .where(and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId)));
  return row as CarrierActionRow | undefined;
}

/** The time of the shipment's latest scan, which a courier's clock may have put ahead of ours. */
export async function latestEventTime(db: Executor, accountId: string, shipmentId: string): Promise<Date | null> {
  const [row] = await db
    .select({ latest: max(trackingEvents.eventTime) })
    .from(trackingEvents)
    .where(and(eq(trackingEvents.accountId, accountId), eq(trackingEvents.shipmentId, shipmentId)));
  return row?.latest ?? null;
}
