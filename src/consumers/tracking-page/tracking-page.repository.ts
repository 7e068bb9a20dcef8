import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { accounts, orders, shipmentMilestones, shipments, stores } from '../../base/db/schema.js';

/**
 * The shipment behind a tracking link, with what its page shows. The one lookup not scoped by
 * account: the token, 128 random bits only its customer was given, is the credential.
 */
export async function findByToken(db: Executor, token: string) {
  const [row] = await db
    .select({
      id: shipments.id,
      accountId: shipments.accountId,
      status: shipments.status,
      subStatus: shipments.subStatus,
      carrierId: shipments.carrierId,
      awb: shipments.awb,
      attemptCount: shipments.attemptCount,
      expectedDeliveryDate: shipments.expectedDeliveryDate,
      deliveredAt: shipments.deliveredAt,
      trackToken: shipments.trackToken,
      shippingName: orders.shippingName,
      shippingCity: orders.shippingCity,
      accountName: accounts.name,
      storeId: stores.id,
      brandName: stores.brandName,
      storeName: stores.storeName,
      logoSha256: stores.logoSha256,
      supportEmail: stores.supportEmail,
      supportPhone: stores.supportPhone,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .innerJoin(accounts, eq(accounts.id, shipments.accountId))
    .leftJoin(stores, eq(stores.id, shipments.storeId))
    .where(eq(shipments.trackToken, token));
  return row;
}

export type TrackedShipment = NonNullable<Awaited<ReturnType<typeof findByToken>>>;

export async function findMilestones(db: Executor, accountId: string, shipmentId: string) {
  return db
    .select({ milestone: shipmentMilestones.milestone, at: shipmentMilestones.milestoneAt })
    .from(shipmentMilestones)
    .where(and(eq(shipmentMilestones.accountId, accountId), eq(shipmentMilestones.shipmentId, shipmentId)))
    .orderBy(asc(shipmentMilestones.milestoneAt));
}
