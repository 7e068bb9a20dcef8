import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { brandColumns, findShipmentViews } from '../../base/db/shipment-view.js';
import { shipmentMilestones, shipments, } from '../../base/db/schema.js';

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
