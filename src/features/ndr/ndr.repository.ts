import { and, eq, max } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { orders, returns, shipmentActions, shipmentBoxes, shipments, trackingEvents } from '../../base/db/schema.js';

export type ActionRow = typeof shipmentActions.$inferSelect;

/** The shipment an instruction names (by AWB or id), locked until the transaction ends so two instructions queue. */
export async function lockShipment(db: Executor, accountId: string, by: { awb: string } | { id: string }) {
  const [row] = await db
    .select({
      id: shipments.id,
      awb: shipments.awb,
      status: shipments.status,
      attemptCount: shipments.attemptCount,
      carrierId: shipments.carrierId,
      shippingPincode: orders.shippingPincode,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(eq(shipments.accountId, accountId), 'awb' in by ? eq(shipments.awb, by.awb) : eq(shipments.id, by.id)))
    .for('update', { of: shipments });
  return row;
}

/**
 * The failed deliveries (attempt_count) the shipment's instructions to deliver again were given
 * for: reattempt requests, and address corrections an order update passed on (their payload says
 * `address_correction`), apart.
 */
export async function findReattemptAttempts(
  db: Executor,
  accountId: string,
  shipmentId: string,
): Promise<{ reattempts: number[]; corrections: number[] }> {
  const rows = await db
    .select({ attempt: shipmentActions.attempt, payload: shipmentActions.payload })
    .from(shipmentActions)
    .where(
      and(
        eq(shipmentActions.accountId, accountId),
        eq(shipmentActions.shipmentId, shipmentId),
        eq(shipmentActions.action, 'reattempt'),
      ),
    );
  const corrected = (r: (typeof rows)[number]) => r.payload.address_correction === true;
  return {
    reattempts: rows.filter((r) => !corrected(r)).map((r) => r.attempt),
    corrections: rows.filter(corrected).map((r) => r.attempt),
  };
}

export async function insertAction(
  db: Executor,
  accountId: string,
  values: Omit<typeof shipmentActions.$inferInsert, 'accountId'>,
) {
  const [row] = await db
    .insert(shipmentActions)
    .values({ ...values, accountId })
    .returning();
  return row!;
}

/** The time of the shipment's latest scan, which a courier's clock may have put ahead of ours. */
export async function latestEventTime(db: Executor, accountId: string, shipmentId: string): Promise<Date | null> {
  const [row] = await db
    .select({ latest: max(trackingEvents.eventTime) })
    .from(trackingEvents)
    .where(and(eq(trackingEvents.accountId, accountId), eq(trackingEvents.shipmentId, shipmentId)));
  return row?.latest ?? null;
}

/** Whether the AWB is one of the account's returns: NDR actions are refused for it by name, not as unknown. */
export async function isReturnAwb(db: Executor, accountId: string, awb: string): Promise<boolean> {
  const [row] = await db
    .select({ id: returns.id })
    .from(returns)
    .where(and(eq(returns.accountId, accountId), eq(returns.awb, awb)));
  return row !== undefined;
}

/** A multi-piece shipment's boxes as their scans left them, box 1 first; none for one box. */
export function findBoxStatuses(db: Executor, accountId: string, shipmentId: string) {
  return db
    .select({ boxNo: shipmentBoxes.boxNo, awb: shipmentBoxes.awb, status: shipmentBoxes.status })
    .from(shipmentBoxes)
    .where(and(eq(shipmentBoxes.accountId, accountId), eq(shipmentBoxes.shipmentId, shipmentId)))
    .orderBy(shipmentBoxes.boxNo);
}
