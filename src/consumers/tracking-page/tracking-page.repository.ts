import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { builtOnce, type Executor } from '../../base/db/client.js';
import { brandColumns, findShipmentViews, type ShipmentView } from '../../shipment-records/shipment-view.js';
import { accounts, returnEvents, returns, shipmentMilestones, shipments } from '../../base/db/schema.js';
import { findWithBoxAwb } from '../../shipment-records/box-awbs.js';

/**
 * The shipment behind a tracking link, with what its page shows. The one lookup not scoped by
 * account: the token, 128 random bits only its customer was given, is the credential.
 */
export const findByToken = async (db: Executor, token: string) =>
  trackedOf((await viewByToken(db).execute({ token }))[0]);

// Built once (builtOnce): the page is what buyers open and refresh, and building this select of
// every column of three tables through Drizzle cost more CPU than the database spent answering it.
const viewByToken = builtOnce((db) =>
  findShipmentViews(db, eq(shipments.trackToken, sql.placeholder('token'))).prepare('shipment_view_by_token'),
);
const milestonesOf = builtOnce((db) =>
  db
    .select({ milestone: shipmentMilestones.milestone, at: shipmentMilestones.milestoneAt })
    .from(shipmentMilestones)
    .where(
      and(
        eq(shipmentMilestones.accountId, sql.placeholder('accountId')),
        eq(shipmentMilestones.shipmentId, sql.placeholder('shipmentId')),
      ),
    )
    .orderBy(asc(shipmentMilestones.milestoneAt))
    .prepare('shipment_milestones_of'),
);

/**
 * The store's booked shipment with this AWB (or a box's of it), for the store's public page: scoped
 * by the store's account and the store itself, so another store's parcel is not there to be found.
 */
export const findByStoreAwb = async (db: Executor, store: { accountId: string; id: string }, awb: string) =>
  (
    await findWithBoxAwb(db, store.accountId, awb, (key) =>
      findTracked(
        db,
        and(
          eq(shipments.accountId, store.accountId),
          eq(shipments.storeId, store.id),
          key === awb ? eq(shipments.awb, awb) : eq(shipments.id, key),
        ),
      ),
    )
  )?.found;

async function findTracked(db: Executor, where: SQL | undefined) {
  return trackedOf((await findShipmentViews(db, where))[0]);
}

function trackedOf(view: ShipmentView | undefined) {
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
    /** The buyer's language the merchant set: the order's, else the store's. */
    merchantLanguage: order.language ?? store?.language ?? null,
    ...brandColumns(view),
    storeName: store?.storeName ?? null,
  };
}

export type TrackedShipment = NonNullable<ReturnType<typeof trackedOf>>;

export async function findMilestones(db: Executor, accountId: string, shipmentId: string) {
  return milestonesOf(db).execute({ accountId, shipmentId });
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
    merchantLanguage: forward ? (forward.order.language ?? forward.store?.language ?? null) : null,
    ...(forward ? brandColumns(forward) : brandColumns({ accountName: row.accountName, store: null })),
    events,
  };
}
