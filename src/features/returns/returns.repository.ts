import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { orders, returnItems, returns, shipments } from '../../base/db/schema.js';

export type ReturnRow = typeof returns.$inferSelect;
export type ReturnItemRow = typeof returnItems.$inferSelect;
type NewReturn = Omit<typeof returns.$inferInsert, 'accountId'>;
type NewItem = Omit<typeof returnItems.$inferInsert, 'accountId' | 'returnId'>;

/** Callers pass a transaction: the return and its items are written together or not at all. */
export async function insertReturn(
  ex: Executor,
  accountId: string,
  row: NewReturn,
  items: NewItem[],
): Promise<ReturnRow> {
  const [created] = await ex
    .insert(returns)
    .values({ ...row, accountId })
    .returning();
  await ex.insert(returnItems).values(items.map((item) => ({ ...item, accountId, returnId: row.id })));
  return created!;
}

export async function findReturn(ex: Executor, accountId: string, returnId: string): Promise<ReturnRow | undefined> {
  const [row] = await ex
    .select()
    .from(returns)
    .where(and(eq(returns.accountId, accountId), eq(returns.id, returnId)));
  return row;
}

export async function findItems(ex: Executor, accountId: string, returnId: string): Promise<ReturnItemRow[]> {
  return ex
    .select()
    .from(returnItems)
    .where(and(eq(returnItems.accountId, accountId), eq(returnItems.returnId, returnId)))
    .orderBy(returnItems.position);
}

/** Books a courier onto a return that has none yet; undefined when another request booked or cancelled it first. */
export async function assignCourier(
  ex: Executor,
  accountId: string,
  returnId: string,
  values: Pick<
    ReturnRow,
    | 'carrierId'
    | 'awb'
    | 'freightPaise'
    | 'qcPaise'
    | 'platformFeePaise'
    | 'qcApplied'
    | 'qcNote'
    | 'assignedAt'
    | 'expectedPickupDate'
    | 'expectedDeliveryDate'
    | 'status'
    | 'updatedAt'
    | 'warehouseId'
    | 'shipping'
    | 'zone'
  >,
): Promise<ReturnRow | undefined> {
  const [row] = await ex
    .update(returns)
    .set(values)
    .where(
      and(
        eq(returns.accountId, accountId),
        eq(returns.id, returnId),
        isNull(returns.awb),
        ne(returns.status, CANCELLED),
      ),
    )
    .returning();
  return row;
}

export interface ForwardShipment {
  shipmentId: string;
  awb: string | null;
  merchantOrderId: string;
  status: string;
}

const forwardColumns = {
  shipmentId: shipments.id,
  awb: shipments.awb,
  merchantOrderId: orders.merchantOrderId,
  status: shipments.status,
};

/** The account's forward shipment by AWB or by the merchant's order id; another account's is never found. */
export async function findForwardShipment(
  ex: Executor,
  accountId: string,
  by: { awb: string } | { merchantOrderId: string },
): Promise<ForwardShipment | undefined> {
  const [row] = await ex
    .select(forwardColumns)
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(
      and(
        eq(shipments.accountId, accountId),
        'awb' in by
          ? eq(shipments.awb, by.awb)
          : and(eq(orders.accountId, accountId), eq(orders.merchantOrderId, by.merchantOrderId)),
      ),
    );
  return row;
}

export async function findForwardById(
  ex: Executor,
  accountId: string,
  shipmentId: string,
): Promise<ForwardShipment | undefined> {
  const [row] = await ex
    .select(forwardColumns)
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  return row;
}

/** The live (not cancelled) return of a forward shipment, if any. */
export async function findReturnOfForward(ex: Executor, accountId: string, forwardShipmentId: string) {
  const [row] = await ex
    .select({ id: returns.id })
    .from(returns)
    .where(
      and(
        eq(returns.accountId, accountId),
        eq(returns.forwardShipmentId, forwardShipmentId),
        ne(returns.status, CANCELLED),
      ),
    );
  return row;
}

export const CANCELLED = 'return_cancelled';
/** Before the courier's pickup a return can still be called off. */
export const CANCELLABLE = ['return_requested', 'return_pickup_scheduled'];

export async function findReturnByShipmentId(ex: Executor, accountId: string, shipmentId: string) {
  const [row] = await ex
    .select({ id: returns.id, awb: returns.awb, status: returns.status, carrierId: returns.carrierId })
    .from(returns)
    .where(and(eq(returns.accountId, accountId), eq(returns.shipmentId, shipmentId)));
  return row;
}

export async function findReturnsByAwb(ex: Executor, accountId: string, awbs: string[]) {
  if (awbs.length === 0) return [];
  return ex
    .select({ id: returns.id, awb: returns.awb, status: returns.status, carrierId: returns.carrierId })
    .from(returns)
    .where(and(eq(returns.accountId, accountId), inArray(returns.awb, awbs)));
}
