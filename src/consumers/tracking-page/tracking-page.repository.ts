import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { brandColumns, findShipmentViews } from '../../base/db/shipment-view.js';
import { accounts, returnEvents, returns, shipmentMilestones, shipments } from '../../base/db/schema.js';

/**
 * The shipment behind a tracking link, with what its page shows. The one lookup not scoped by
 * account: the token, 128 random bits only its customer was given, is the credential.
 */
export async function findByToken(db: Executor, token: string) {
  const [view] = await findShipmentViews(db, eq(shipments.trackToken, token));
  if (!view) return undefined;
  const { shipment: s, order, store } = view;
  return {
    id: s.id,
    accountId: s.accountId,
    status: s.status,
    subStatus: s.subStatus,
    carrierId: s.carrierId,
    awb: s.awb,
    testMode: s.testMode,
    attemptCount: s.attemptCount,
    expectedDeliveryDate: s.expectedDeliveryDate,
    deliveredAt: s.deliveredAt,
    trackToken: s.trackToken,
    shippingName: order.shippingName,
    shippingCity: order.shippingCity,
    shippingState: order.shippingState,
    ...brandColumns(view),
    storeName: store?.storeName ?? null,
  };
}

export type TrackedShipment = NonNullable<Awaited<ReturnType<typeof findByToken>>>;

export async function findMilestones(db: Executor, accountId: string, shipmentId: string) {
  return db
    .select({ milestone: shipmentMilestones.milestone, at: shipmentMilestones.milestoneAt })
    .from(shipmentMilestones)
    .where(and(eq(shipmentMilestones.accountId, accountId), eq(shipmentMilestones.shipmentId, shipmentId)))
    .orderBy(asc(shipmentMilestones.milestoneAt));
}

/**
 * A return behind a tracking link (the token, signed by this server, named it). Its brand is the
 * forward shipment's store when the return names one, else the account's name.
 */
export async function findReturn(db: Executor, returnId: string) {
  const [row] = await db
    .select({ ret: returns, accountName: accounts.name })
    .from(returns)
    .innerJoin(accounts, eq(accounts.id, returns.accountId))
    .where(eq(returns.id, returnId));
  if (!row?.ret.awb) return undefined;
  const { ret } = row;
  const [forward] = ret.forwardShipmentId
    ? await findShipmentViews(db, and(eq(shipments.accountId, ret.accountId), eq(shipments.id, ret.forwardShipmentId)))
    : [];
  const events = await db
    .select({ status: returnEvents.status, eventTime: returnEvents.eventTime, location: returnEvents.location })
    .from(returnEvents)
    .where(and(eq(returnEvents.accountId, ret.accountId), eq(returnEvents.returnId, ret.id)))
    .orderBy(asc(returnEvents.eventTime));
  return {
    id: ret.id,
    status: ret.status,
    carrierId: ret.carrierId,
    awb: ret.awb,
    createdAt: ret.createdAt,
    assignedAt: ret.assignedAt,
    pickup: ret.pickup,
    ...(forward ? brandColumns(forward) : brandColumns({ accountName: row.accountName, store: null })),
    events,
  };
}
