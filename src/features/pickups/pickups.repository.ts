import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { type HoldReason, shipmentHeld, shipmentHoldReason } from '../../shipment-records/hold.js';
import { orders, pickups, shipments } from '../../base/db/schema.js';

export type PickupRow = typeof pickups.$inferSelect;

/** What a pickup needs of a shipment: whether it may go on one, and its manifest line. */
export interface PickupShipmentRow {
  id: string;
  awb: string;
  orderId: string;
  warehouseId: string;
  carrierId: string | null;
  status: string;
  pickupId: string | null;
  /** Why the parcel is held back from its courier, or null. */
  hold: HoldReason | null;
  weightGrams: number;
  isCod: boolean;
  codAmountPaise: number;
  pickedUpAt: Date | null;
  /** The order's e-way bill number (rule 138), or null. */
  ewaybillNo: string | null;
}

const shipmentColumns = {
  id: shipments.id,
  awb: sql<string>`${shipments.awb}`,
  orderId: orders.merchantOrderId,
  warehouseId: shipments.warehouseId,
  carrierId: shipments.carrierId,
  status: shipments.status,
  pickupId: shipments.pickupId,
  hold: shipmentHoldReason,
  weightGrams: shipments.appliedWeightGrams,
  isCod: shipments.isCod,
  codAmountPaise: shipments.codAmountPaise,
  pickedUpAt: shipments.pickedUpAt,
  ewaybillNo: orders.ewaybillNo,
};

const withOrders = (ex: Executor) =>
  ex.select(shipmentColumns).from(shipments).innerJoin(orders, eq(orders.id, shipments.orderId));

/** The account's shipments with these AWBs; another account's are not found. */
export function findShipmentsByAwbs(ex: Executor, accountId: string, awbs: string[]): Promise<PickupShipmentRow[]> {
  return withOrders(ex).where(and(eq(shipments.accountId, accountId), inArray(shipments.awb, awbs)));
}

/**
 * The warehouse's parcels booked with this courier and waiting for a pickup: not picked up, not
 * cancelled, on no pickup yet, not held for the buyer's confirmation. Oldest first, at most `limit`.
 */
export function findWaitingShipments(
  ex: Executor,
  accountId: string,
  warehouseId: string,
  carrierId: string,
  limit: number,
): Promise<PickupShipmentRow[]> {
  return withOrders(ex)
    .where(
      and(
        eq(shipments.accountId, accountId),
        eq(shipments.warehouseId, warehouseId),
        eq(shipments.carrierId, carrierId),
        eq(shipments.status, 'pending'),
        isNull(shipments.pickupId),
        sql`${shipments.awb} is not null`,
        sql`not ${shipmentHeld}`,
      ),
    )
    .orderBy(shipments.createdAt, shipments.awb)
    .limit(limit);
}

export async function insertPickup(
  ex: Executor,
  accountId: string,
  values: Omit<typeof pickups.$inferInsert, 'accountId'>,
): Promise<PickupRow> {
  const [row] = await ex
    .insert(pickups)
    .values({ accountId, ...values })
    .returning();
  return row!;
}

/**
 * Puts the shipments on the pickup, each only while it still waits (a concurrent pickup or a
 * pickup scan may have taken it since it was read): answers how many it took.
 */
export async function attachShipments(
  ex: Executor,
  accountId: string,
  pickupId: string,
  shipmentIds: string[],
): Promise<number> {
  const taken = await ex
    .update(shipments)
    .set({ pickupId })
    .where(
      and(
        eq(shipments.accountId, accountId),
        inArray(shipments.id, shipmentIds),
        isNull(shipments.pickupId),
        eq(shipments.status, 'pending'),
      ),
    )
    .returning({ id: shipments.id });
  return taken.length;
}

export async function findPickup(ex: Executor, accountId: string, id: string): Promise<PickupRow | undefined> {
  const [row] = await ex
    .select()
    .from(pickups)
    .where(and(eq(pickups.accountId, accountId), eq(pickups.id, id)));
  return row;
}

/**
 * Newest first, after the cursor's row (its created_at and id). With `storeIds` (a store-limited
 * credential's), only the pickups whose every parcel is of those stores: a manifest of another
 * store's parcels prints its buyers.
 */
export function listPickups(
  ex: Executor,
  accountId: string,
  page: { after: { at: Date; id: string } | null; limit: number; storeIds?: readonly string[] | undefined },
): Promise<PickupRow[]> {
  const { after, storeIds } = page;
  return ex
    .select()
    .from(pickups)
    .where(
      and(
        eq(pickups.accountId, accountId),
        storeIds === undefined
          ? undefined
          : storeIds.length === 0
            ? // A key whose stores and its member's no longer meet reaches no pickup.
              sql`false`
            : // Spelled out: drizzle may leave a column of the outer query unqualified inside a subquery.
              sql`not exists (select 1 from shipments s where s.account_id = ${accountId} and s.pickup_id = pickups.id
              and (s.store_id is null or s.store_id not in (${sql.join(
                storeIds.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})))`,
        after
          ? or(lt(pickups.createdAt, after.at), and(eq(pickups.createdAt, after.at), lt(pickups.id, after.id)))
          : undefined,
      ),
    )
    .orderBy(desc(pickups.createdAt), desc(pickups.id))
    .limit(page.limit);
}

/** The pickup's shipments in the manifest's order: as booked (a courier's AWBs rise with its bookings). */
export function pickupShipments(ex: Executor, accountId: string, pickupId: string): Promise<PickupShipmentRow[]> {
  return withOrders(ex)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.pickupId, pickupId)))
    .orderBy(shipments.createdAt, shipments.awb);
}

/**
 * Checks every pickup whose day ended before `today` (India time) and was not checked yet, of
 * every account, in one statement: each is marked checked, and missed when some of its shipments
 * were not picked up (still pending). A pickup is checked once, however many processes race.
 */
export async function checkEndedPickups(
  ex: Executor,
  today: string,
  at: Date,
): Promise<{ id: string; accountId: string }[]> {
  const rows = await queryRows<{ id: string; accountId: string; missedAt: unknown }>(
    ex,
    sql`
    update ${pickups} p set checked_at = ${at.toISOString()}::timestamptz,
      missed_at = case when exists (
        select 1 from ${shipments} s where s.account_id = p.account_id and s.pickup_id = p.id and s.status = 'pending'
      ) then ${at.toISOString()}::timestamptz end
    where p.checked_at is null and p.pickup_date < ${today}::date
    returning p.id, p.account_id as "accountId", p.missed_at as "missedAt"`,
  );
  return rows.filter((row) => row.missedAt !== null).map(({ id, accountId }) => ({ id, accountId }));
}
