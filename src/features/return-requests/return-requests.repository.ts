import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { builtOnce, type Executor } from '../../base/db/client.js';
import { findRequestItems, requestView } from '../../shipment-records/return-request-view.js';
import {
  orderItems,
  orders,
  returnRequestItems,
  returnPolicies,
  returnRequestPhotos,
  returnRequests,
  returns,
  shipments,
  warehouses,
} from '../../base/db/schema.js';

export type RequestRow = typeof returnRequests.$inferSelect;
export type RequestItemRow = typeof returnRequestItems.$inferSelect;

/**
 * The delivered shipment a request is about, with its order's buyer and its warehouse's pincode.
 * Locked until the transaction ends when asked: two requests for one order are then judged one after
 * the other, so both cannot pass the rule of one open request per item.
 */
export async function findShipment(ex: Executor, accountId: string, shipmentId: string, lock: 'lock' | 'read') {
  const query = ex
    .select({ shipment: shipments, order: orders, warehousePincode: warehouses.pincode })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .innerJoin(warehouses, eq(warehouses.id, shipments.warehouseId))
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  const [row] = await (lock === 'lock' ? query.for('update', { of: shipments }) : query);
  return row;
}
export type FoundShipment = NonNullable<Awaited<ReturnType<typeof findShipment>>>;

/**
 * What the tracking page needs to decide whether to link the return form, in one statement: the
 * shipment's status and delivery, its store's window, a return under way, any request asked. Every
 * delivered parcel's page view reads it; the form itself reads the rest.
 */
export async function findFormOffer(ex: Executor, accountId: string, shipmentId: string) {
  const [row] = await formOfferOf(ex).execute({ accountId, shipmentId });
  return row;
}
const formOfferOf = builtOnce((ex) =>
  ex
    .select({
      status: shipments.status,
      deliveredAt: shipments.deliveredAt,
      windowDays: returnPolicies.windowDays,
      returnUnderWay: sql<boolean>`exists (select 1 from ${returns} where ${returns.accountId} = ${shipments.accountId}
        and ${returns.forwardShipmentId} = ${shipments.id} and ${returns.status} <> 'return_cancelled')`,
      asked: sql<boolean>`exists (select 1 from ${returnRequests} where ${returnRequests.shipmentId} = ${shipments.id}
        and ${returnRequests.accountId} = ${shipments.accountId})`,
    })
    .from(shipments)
    .leftJoin(
      returnPolicies,
      and(eq(returnPolicies.accountId, shipments.accountId), eq(returnPolicies.storeId, shipments.storeId)),
    )
    .where(and(eq(shipments.accountId, sql.placeholder('accountId')), eq(shipments.id, sql.placeholder('shipmentId'))))
    .prepare('return_form_offer'),
);

export function findOrderItems(ex: Executor, accountId: string, orderId: string) {
  return ex
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.accountId, accountId), eq(orderItems.orderId, orderId)))
    .orderBy(asc(orderItems.position));
}

/**
 * Per SKU of the shipment's requests that still count against what may be asked for (pending, or
 * approved with a return not cancelled): the units asked for, and whether one is still pending.
 */
export async function findAskedItems(ex: Executor, accountId: string, shipmentId: string) {
  return ex
    .select({
      sku: returnRequestItems.sku,
      units: sql<number>`sum(${returnRequestItems.units})::int`,
      open: sql<boolean>`bool_or(${returnRequests.status} = 'pending')`,
    })
    .from(returnRequestItems)
    .innerJoin(returnRequests, eq(returnRequests.id, returnRequestItems.requestId))
    .leftJoin(returns, eq(returns.id, returnRequests.returnId))
    .where(
      and(
        eq(returnRequests.accountId, accountId),
        eq(returnRequests.shipmentId, shipmentId),
        sql`(${returnRequests.status} = 'pending' or (${returnRequests.status} = 'approved' and ${returns.status} is distinct from 'return_cancelled'))`,
      ),
    )
    .groupBy(returnRequestItems.sku);
}

/** Whether the delivered shipment has a return not cancelled: returns take one per forward shipment. */
export async function hasReturnUnderWay(ex: Executor, accountId: string, shipmentId: string): Promise<boolean> {
  const [row] = await ex
    .select({ id: returns.id })
    .from(returns)
    .where(
      and(
        eq(returns.accountId, accountId),
        eq(returns.forwardShipmentId, shipmentId),
        sql`${returns.status} <> 'return_cancelled'`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertRequest(
  ex: Executor,
  request: RequestRow,
  items: Omit<RequestItemRow, 'id' | 'accountId' | 'requestId'>[],
  photos: readonly { contentType: string; bytes: Buffer }[],
) {
  await ex.insert(returnRequests).values(request);
  await ex
    .insert(returnRequestItems)
    .values(items.map((item) => ({ ...item, accountId: request.accountId, requestId: request.id })));
  if (photos.length > 0)
    await ex.insert(returnRequestPhotos).values(
      photos.map((photo, position) => ({
        accountId: request.accountId,
        requestId: request.id,
        position,
        contentType: photo.contentType,
        bytes: photo.bytes,
      })),
    );
}

export async function findRequest(ex: Executor, accountId: string, requestId: string) {
  const [request] = await ex
    .select()
    .from(returnRequests)
    .where(and(eq(returnRequests.accountId, accountId), eq(returnRequests.id, requestId)));
  if (!request) return undefined;
  return { request, items: await findRequestItems(ex, accountId, [requestId]) };
}

/** A found request as the API answers it. */
export const viewOf = ({ request, items }: NonNullable<Awaited<ReturnType<typeof findRequest>>>) =>
  requestView(request, items);

/** The request, locked until the transaction ends: one decision at a time. */
export async function lockRequest(ex: Executor, accountId: string, requestId: string) {
  const [row] = await ex
    .select()
    .from(returnRequests)
    .where(and(eq(returnRequests.accountId, accountId), eq(returnRequests.id, requestId)))
    .for('update');
  return row;
}

/** The merchant's change of what a request gets, made as it is approved: an exchange keeps no payee, a refund no wish. */
export async function changeResolution(
  ex: Executor,
  accountId: string,
  requestId: string,
  resolution: 'refund' | 'exchange',
  refundTo: Record<string, string> | null,
): Promise<RequestRow> {
  const [row] = await ex
    .update(returnRequests)
    .set({ resolution, exchangeFor: resolution === 'refund' ? null : undefined, refundTo, refundToSealed: null })
    .where(and(eq(returnRequests.accountId, accountId), eq(returnRequests.id, requestId)))
    .returning();
  return row!;
}

export async function decide(
  ex: Executor,
  accountId: string,
  requestId: string,
  decision: Pick<
    RequestRow,
    'status' | 'decisionNote' | 'decidedBy' | 'decisionRule' | 'returnId' | 'decidedAt' | 'updatedAt'
  > &
    Partial<Pick<RequestRow, 'exchangeId'>>,
) {
  await ex
    .update(returnRequests)
    .set(decision)
    .where(and(eq(returnRequests.accountId, accountId), eq(returnRequests.id, requestId)));
}

/** The account's requests matching the filter, oldest first (the order they wait in), after a cursor. */
export function listRequests(
  ex: Executor,
  accountId: string,
  filter: {
    status?: string | undefined;
    storeId?: string | undefined;
    /** A store-limited credential's stores: the others' requests are left out. */
    storeIds?: readonly string[] | undefined;
    shipmentId?: string | undefined;
    after?: Pick<RequestRow, 'createdAt' | 'id'> | undefined;
    limit: number;
    /** The newest first instead (the buyer's page): no cursor then. */
    newestFirst?: boolean;
  },
) {
  const where: (SQL | undefined)[] = [
    eq(returnRequests.accountId, accountId),
    filter.status === undefined ? undefined : eq(returnRequests.status, filter.status),
    filter.storeId === undefined ? undefined : eq(returnRequests.storeId, filter.storeId),
    filter.storeIds === undefined ? undefined : inArray(returnRequests.storeId, [...filter.storeIds]),
    filter.shipmentId === undefined ? undefined : eq(returnRequests.shipmentId, filter.shipmentId),
    filter.after === undefined
      ? undefined
      : sql`(${returnRequests.createdAt}, ${returnRequests.id}) > (${filter.after.createdAt}, ${filter.after.id})`,
  ];
  return ex
    .select()
    .from(returnRequests)
    .where(and(...where))
    .orderBy(
      ...(filter.newestFirst
        ? [desc(returnRequests.createdAt), desc(returnRequests.id)]
        : [asc(returnRequests.createdAt), asc(returnRequests.id)]),
    )
    .limit(filter.limit);
}

/** One photo of one of the account's requests, or undefined. */
export async function findPhoto(ex: Executor, accountId: string, requestId: string, position: number) {
  const [row] = await ex
    .select({ contentType: returnRequestPhotos.contentType, bytes: returnRequestPhotos.bytes })
    .from(returnRequestPhotos)
    .where(
      and(
        eq(returnRequestPhotos.accountId, accountId),
        eq(returnRequestPhotos.requestId, requestId),
        eq(returnRequestPhotos.position, position),
      ),
    );
  return row;
}
