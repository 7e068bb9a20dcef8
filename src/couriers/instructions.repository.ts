import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../base/db/client.js';
import { orders, shipmentActions, shipments } from '../base/db/schema.js';

// Merchants' NDR instructions as couriers receive them: the open queue of each courier, leased to
// the process handing them over, and what each courier said: took it, queued it for a later
// confirmation (its reference), carried it out, or refused it.

const carrierColumns = {
  id: shipmentActions.id,
  awb: shipments.awb,
  action: shipmentActions.action,
  requestedBy: shipmentActions.requestedBy,
  createdAt: shipmentActions.createdAt,
  acknowledgedAt: shipmentActions.acknowledgedAt,
  confirmedAt: shipmentActions.confirmedAt,
  refusedAt: shipmentActions.refusedAt,
  refusal: shipmentActions.refusal,
  payload: shipmentActions.payload,
};
/** What a connector is told of an instruction besides the instruction itself. */
interface InstructionFacts {
  accountId: string;
  attempt: number;
  consigneeName: string;
  ndrScanId: string | null;
}

export type CarrierActionRow = { [K in keyof typeof carrierColumns]: (typeof carrierColumns)[K]['_']['data'] };

/**
 * A courier's open instructions, oldest first, across every account that books it (the courier
 * serves them all): the one query here not scoped by account.
 */
export async function findOpenForCarrier(
  db: Executor,
  carrierId: string,
  limit: number,
  after?: { createdAt: Date; id: string },
) {
  return db
    .select(carrierColumns)
    .from(shipmentActions)
    .innerJoin(shipments, eq(shipments.id, shipmentActions.shipmentId))
    .where(
      and(
        eq(shipmentActions.carrierId, carrierId),
        isNull(shipmentActions.acknowledgedAt),
        isNull(shipmentActions.refusedAt),
        after
          ? or(
              gt(shipmentActions.createdAt, after.createdAt),
              and(eq(shipmentActions.createdAt, after.createdAt), gt(shipmentActions.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(shipmentActions.createdAt), asc(shipmentActions.id))
    .limit(limit) as Promise<CarrierActionRow[]>;
}

/**
 * Takes the oldest open instruction for a courier that no other process holds, and holds it until
 * `leaseUntil`: FOR UPDATE SKIP LOCKED, so the pollers of several processes each hand a courier
 * different ones. A process that dies holding one leaves it to the next poller once the lease runs
 * out (sent at least once). Across accounts, as findOpenForCarrier.
 */
export async function leaseOpenForCarrier(
  db: Executor,
  carrierId: string,
  now: Date,
  leaseUntil: Date,
): Promise<(CarrierActionRow & InstructionFacts) | undefined> {
  const [leased] = await queryRows<{ id: string }>(
    db,
    sql`update shipment_actions set locked_until = ${leaseUntil.toISOString()}::timestamptz
    where id = (
      select id from shipment_actions
      where carrier_id = ${carrierId} and acknowledged_at is null and refused_at is null
        and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
      order by created_at, id
      limit 1
      for update skip locked)
    returning id`,
  );
  if (!leased) return undefined;
  const [row] = await db
    .select({
      ...carrierColumns,
      accountId: shipments.accountId,
      attempt: shipmentActions.attempt,
      consigneeName: sql<string>`concat_ws(' ', ${orders.shippingName}, nullif(${orders.shippingLastName}, ''))`,
      // The courier's own id of the parcel's latest failed-attempt scan: some couriers' rules read its code.
      ndrScanId: sql<string | null>`(select e.event_id from tracking_events e
        where e.account_id = ${shipments.accountId} and e.shipment_id = ${shipments.id} and e.status = 'ndr_raised'
        order by e.event_time desc, e.received_at desc limit 1)`,
    })
    .from(shipmentActions)
    .innerJoin(shipments, eq(shipments.id, shipmentActions.shipmentId))
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(eq(shipmentActions.id, leased.id));
  return row as (CarrierActionRow & InstructionFacts) | undefined;
}

/** Gives back a leased instruction the courier did not take, for the next round to send again. */
export async function releaseLease(db: Executor, carrierId: string, id: string): Promise<void> {
  await db
    .update(shipmentActions)
    .set({ lockedUntil: null })
    .where(and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId)));
}

/** Acknowledges the courier's own action; the first acknowledgement's time stays. Undefined when not the courier's. */
export async function acknowledge(
  db: Executor,
  carrierId: string,
  id: string,
  now: Date,
): Promise<CarrierActionRow | undefined> {
  // A push courier's acknowledgement is its word that it acts on the instruction: done.
  const at = sql`${now.toISOString()}::timestamptz`;
  await db
    .update(shipmentActions)
    .set({
      acknowledgedAt: sql`coalesce(${shipmentActions.acknowledgedAt}, ${at})`,
      confirmedAt: sql`coalesce(${shipmentActions.confirmedAt}, ${at})`,
    })
    .where(
      and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId), isNull(shipmentActions.refusedAt)),
    );
  const [row] = await db
    .select(carrierColumns)
    .from(shipmentActions)
    .innerJoin(shipments, eq(shipments.id, shipmentActions.shipmentId))
    .where(and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId)));
  return row as CarrierActionRow | undefined;
}

/**
 * The courier took a leased instruction: done at once, or queued under its `reference` to be
 * confirmed later (the lease then stands for the wait before the first question).
 */
export async function markTaken(
  db: Executor,
  carrierId: string,
  id: string,
  now: Date,
  reference: string | null,
  askAgainAt: Date,
): Promise<void> {
  await db
    .update(shipmentActions)
    .set(
      reference === null
        ? { acknowledgedAt: now, confirmedAt: now, lockedUntil: null }
        : { acknowledgedAt: now, courierReference: reference, lockedUntil: askAgainAt },
    )
    .where(and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId)));
}

/** The courier said it carried out an instruction it had queued. */
export async function markConfirmed(db: Executor, carrierId: string, id: string, now: Date): Promise<void> {
  await db
    .update(shipmentActions)
    .set({ confirmedAt: now, lockedUntil: null })
    .where(and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId)));
}

/** The courier refused an instruction, in its words: it is never sent again. Answers the row, for its event. */
export async function markRefused(
  db: Executor,
  carrierId: string,
  id: string,
  now: Date,
  words: string,
): Promise<{ accountId: string; shipmentId: string } | undefined> {
  const [row] = await db
    .update(shipmentActions)
    .set({ refusedAt: now, refusal: words.slice(0, 500), lockedUntil: null })
    .where(and(eq(shipmentActions.id, id), eq(shipmentActions.carrierId, carrierId), isNull(shipmentActions.refusedAt)))
    .returning({ accountId: shipmentActions.accountId, shipmentId: shipmentActions.shipmentId });
  return row;
}

/**
 * Takes the oldest instruction a courier queued and has not yet said it carried out, that no process
 * holds, until `leaseUntil`, which is also when it is asked about again if it is still pending.
 * Across accounts, as leaseOpenForCarrier.
 */
export async function leaseUnconfirmed(
  db: Executor,
  carrierId: string,
  now: Date,
  leaseUntil: Date,
): Promise<{ id: string; accountId: string; reference: string } | undefined> {
  const [row] = await queryRows<{ id: string; account_id: string; courier_reference: string }>(
    db,
    sql`update shipment_actions set locked_until = ${leaseUntil.toISOString()}::timestamptz
    where id = (
      select id from shipment_actions
      where carrier_id = ${carrierId} and courier_reference is not null and confirmed_at is null and refused_at is null
        and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
      order by acknowledged_at, id
      limit 1
      for update skip locked)
    returning id, account_id, courier_reference`,
  );
  return row && { id: row.id, accountId: row.account_id, reference: row.courier_reference };
}
