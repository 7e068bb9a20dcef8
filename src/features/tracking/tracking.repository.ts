import { and, eq, gte, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import {
  carrierTokens,
  orders,
  shipmentBoxes,
  shipmentMilestones,
  shipments,
  trackingEvents,
} from '../../base/db/schema.js';
import type { BoxEvent } from '../../domain/shipment/box-rollup.js';
import { BOOKING_MILESTONES, type ShipmentState, type ShipmentStatus } from '../../domain/shipment/status-machine.js';

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

/**
 * A courier names shipments by AWB only; it sees those booked on its own service and no others.
 * `boxNo`: 1 when the AWB is a multi-piece shipment's master (its box 1), else 0.
 */
export async function findCarrierShipments(db: Executor, carrierId: string, awbs: string[]) {
  if (awbs.length === 0) return [];
  return db
    .select({
      id: shipments.id,
      accountId: shipments.accountId,
      awb: shipments.awb,
      createdAt: shipments.createdAt,
      assignedAt: shipments.assignedAt,
      boxNo: sql<number>`coalesce(${shipmentBoxes.boxNo}, 0)`.mapWith(Number),
    })
    .from(shipments)
    .leftJoin(shipmentBoxes, and(eq(shipmentBoxes.shipmentId, shipments.id), eq(shipmentBoxes.boxNo, 1)))
    .where(and(eq(shipments.carrierId, carrierId), inArray(shipments.awb, awbs)));
}

/** The boxes after the first of multi-piece shipments on the courier's service, by their own AWBs. */
export async function findCarrierBoxes(db: Executor, carrierId: string, awbs: string[]) {
  if (awbs.length === 0) return [];
  return db
    .select({
      id: shipments.id,
      accountId: shipments.accountId,
      awb: shipmentBoxes.awb,
      createdAt: shipments.createdAt,
      assignedAt: shipments.assignedAt,
      boxNo: shipmentBoxes.boxNo,
    })
    .from(shipmentBoxes)
    .innerJoin(shipments, eq(shipments.id, shipmentBoxes.shipmentId))
    .where(and(inArray(shipmentBoxes.awb, awbs), gte(shipmentBoxes.boxNo, 2), eq(shipments.carrierId, carrierId)));
}

/**
 * Locks the shipment's row for the transaction; answers its state before the change, and how
 * many boxes it ships in (0 for one box: no shipment_boxes rows); none when the shipment is gone.
 */
export async function lockShipment(db: Executor, accountId: string, shipmentId: string) {
  const [row] = await db
    .select({
      status: shipments.status,
      subStatus: shipments.subStatus,
      historyPrunedAt: shipments.historyPrunedAt,
      // Named in full: a one-table select writes its columns unqualified, which the subquery's own would shadow.
      boxCount: sql<number>`coalesce((select b.box_count from shipment_boxes b
        where b.shipment_id = "shipments"."id" and b.box_no = 1), 0)`.mapWith(Number),
    })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)))
    .for('update', { of: shipments });
  return row;
}

/** A multi-piece shipment's boxes as stored, in box order. */
export async function loadBoxes(db: Executor, accountId: string, shipmentId: string) {
  return db
    .select({
      boxNo: shipmentBoxes.boxNo,
      awb: shipmentBoxes.awb,
      status: shipmentBoxes.status,
      subStatus: shipmentBoxes.subStatus,
    })
    .from(shipmentBoxes)
    .where(and(eq(shipmentBoxes.accountId, accountId), eq(shipmentBoxes.shipmentId, shipmentId)))
    .orderBy(shipmentBoxes.boxNo);
}

/** Writes a box's status from its scans (its time: the scan that put it there). */
export async function saveBox(
  db: Executor,
  accountId: string,
  shipmentId: string,
  box: { boxNo: number; status: string; subStatus: string | null; at: Date },
) {
  await db
    .update(shipmentBoxes)
    .set({ status: box.status, subStatus: box.subStatus, statusAt: box.at })
    .where(
      and(
        eq(shipmentBoxes.accountId, accountId),
        eq(shipmentBoxes.shipmentId, shipmentId),
        eq(shipmentBoxes.boxNo, box.boxNo),
      ),
    );
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

export type HistoryRow = BoxEvent & { location: string | null; description: string | null; eventId: string | null };

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
      boxNo: trackingEvents.boxNo,
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
