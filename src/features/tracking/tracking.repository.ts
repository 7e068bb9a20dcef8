import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { carrierTokens, orders, shipmentMilestones, shipments, trackingEvents } from '../../base/db/schema.js';
import {
  BOOKING_MILESTONES,
  type ShipmentState,
  type ShipmentStatus,
  type StoredEvent,
} from '../../domain/shipment/status-machine.js';

export type TrackingEventRow = typeof trackingEvents.$inferSelect;
export type { NewShipmentEvent as NewTrackingEvent } from '../contracts.js';
import type { NewShipmentEvent as NewTrackingEvent } from '../contracts.js';

export async function insertCarrierToken(db: Executor, values: typeof carrierTokens.$inferInsert) {
  await db.insert(carrierTokens).values(values);
}

/** Carrier tokens resolve to a courier service, not an account: that is what scopes them. */
export async function findCarrierByToken(db: Executor, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ carrierId: carrierTokens.carrierId })
    .from(carrierTokens)
    .where(and(eq(carrierTokens.tokenHash, tokenHash), isNull(carrierTokens.revokedAt)));
  return row?.carrierId;
}

/** A courier names shipments by AWB only; it sees those booked on its own service and no others. */
export async function findCarrierShipments(db: Executor, carrierId: string, awbs: string[]) {
  if (awbs.length === 0) return [];
  return db
    .select({
      id: shipments.id,
      accountId: shipments.accountId,
      awb: shipments.awb,
      createdAt: shipments.createdAt,
      assignedAt: shipments.assignedAt,
    })
    .from(shipments)
    .where(and(eq(shipments.carrierId, carrierId), inArray(shipments.awb, awbs)));
}

/** Locks the shipment's row for the transaction; answers its state before the change. */
export async function lockShipment(db: Executor, accountId: string, shipmentId: string) {
  const [row] = await db
    .select({ status: shipments.status, subStatus: shipments.subStatus })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)))
    .for('update');
  return row!;
}

/** Inserts the events that are not replays; returns the ids of those it inserted. */
export async function insertEvents(
  db: Executor,
  accountId: string,
  shipmentId: string,
  events: NewTrackingEvent[],
): Promise<(string | null)[]> {
  const ids: (string | null)[] = [];
  // One at a time: a replay must be told apart from a new event for the per-event answer.
  for (const event of events) {
    const [row] = await db
      .insert(trackingEvents)
      .values({ ...event, accountId, shipmentId })
      .onConflictDoNothing()
      .returning({ id: trackingEvents.id });
    ids.push(row?.id ?? null);
  }
  return ids;
}

/** Drops recorded scans by id: unapplied ones a replay's new reading replaces (status-change.ts replacedByReread). */
export async function deleteEvents(db: Executor, accountId: string, shipmentId: string, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .delete(trackingEvents)
    .where(
      and(
        eq(trackingEvents.accountId, accountId),
        eq(trackingEvents.shipmentId, shipmentId),
        inArray(trackingEvents.id, ids),
      ),
    );
}

export type HistoryRow = StoredEvent & { location: string | null; description: string | null; eventId: string | null };

export async function loadEvents(db: Executor, accountId: string, shipmentId: string): Promise<HistoryRow[]> {
  const rows = await db
    .select({
      id: trackingEvents.id,
      status: trackingEvents.status,
      subStatus: trackingEvents.subStatus,
      eventTime: trackingEvents.eventTime,
      ndrReason: trackingEvents.ndrReason,
      rtoReason: trackingEvents.rtoReason,
      receivedAt: trackingEvents.receivedAt,
      location: trackingEvents.location,
      description: trackingEvents.description,
      eventId: trackingEvents.eventId,
    })
    .from(trackingEvents)
    .where(and(eq(trackingEvents.accountId, accountId), eq(trackingEvents.shipmentId, shipmentId)));
  return rows.map((row) => ({ ...row, status: row.status as ShipmentStatus }));
}

export async function saveState(db: Executor, accountId: string, shipmentId: string, state: ShipmentState, now: Date) {
  await db
    .update(shipments)
    .set({
      status: state.status,
      subStatus: state.subStatus,
      attemptCount: state.attemptCount,
      ndrReason: state.ndrReason,
      rtoReason: state.rtoReason,
      pickedUpAt: state.pickedUpAt,
      deliveredAt: state.deliveredAt,
      cancelledAt: state.cancelledAt,
      rtoInitiatedAt: state.rtoInitiatedAt,
      rtoDeliveredAt: state.rtoDeliveredAt,
      updatedAt: now,
    })
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  await db
    .delete(shipmentMilestones)
    .where(
      and(
        eq(shipmentMilestones.accountId, accountId),
        eq(shipmentMilestones.shipmentId, shipmentId),
        notInArray(shipmentMilestones.milestone, [...BOOKING_MILESTONES]),
      ),
    );
  if (state.milestones.length > 0) {
    await db
      .insert(shipmentMilestones)
      .values(state.milestones.map((m) => ({ accountId, shipmentId, milestone: m.milestone, milestoneAt: m.at })));
  }
}

/** Whose history a shipment's outcome counts in: the buyer's phone and the destination pincode, as the order has them now. */
export async function historyKeysOf(db: Executor, accountId: string, shipmentId: string) {
  const [row] = await db
    .select({ phone: orders.shippingPhone, pincode: orders.shippingPincode })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  return row!;
}
