import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { type OrderPackage, shipmentBoxes } from '../../base/db/schema.js';
import type { BookedBox } from '../../couriers/connector.js';

// A multi-piece shipment's boxes (shipment_boxes), written with the booking that gave each its
// AWB: one row per box from box 1, whose AWB is the shipment's (the master AWB).

export type BoxRow = typeof shipmentBoxes.$inferSelect;
type NewBox = Omit<typeof shipmentBoxes.$inferInsert, 'id'> & { statusAt: Date; createdAt: Date };

/**
 * The rows of a booking's boxes: the order's packages beside the courier's answer for each, in
 * order. A courier that booked a multi-piece order without an AWB per box, or box 1 under another
 * AWB than the shipment's, is a fault of its connector: thrown inside the booking's write, so the
 * parcel is called off with the rollback (Couriers.keepBooked).
 */
export function newBoxRows(
  booking: { accountId: string; shipmentId: string; awb: string; status: string; at: Date },
  packages: readonly OrderPackage[],
  booked: readonly BookedBox[] | undefined,
): NewBox[] {
  if (booked?.length !== packages.length || booked[0]?.awb !== booking.awb)
    throw new Error(
      `the courier booked ${packages.length} boxes as ${booked?.length ?? 'no'} AWBs (box 1 ${booked?.[0]?.awb ?? 'none'}, the shipment ${booking.awb})`,
    );
  return packages.map((box, i) => ({
    accountId: booking.accountId,
    shipmentId: booking.shipmentId,
    boxNo: i + 1,
    boxCount: packages.length,
    awb: booked[i]!.awb,
    courierReference: booked[i]!.reference,
    weightGrams: box.weightGrams,
    lengthCm: box.lengthCm,
    breadthCm: box.breadthCm,
    heightCm: box.heightCm,
    items: box.items,
    status: booking.status,
    statusAt: booking.at,
    createdAt: booking.at,
  }));
}

/** The boxes' insert as one part of the booking's own statement (orders.repository insertOrder). */
export function boxesInsert(rows: NewBox[]): SQL {
  const json = rows.map((row) => ({
    account_id: row.accountId,
    shipment_id: row.shipmentId,
    box_no: row.boxNo,
    box_count: row.boxCount,
    awb: row.awb,
    courier_reference: row.courierReference,
    weight_grams: row.weightGrams,
    length_cm: row.lengthCm,
    breadth_cm: row.breadthCm,
    height_cm: row.heightCm,
    items: row.items,
    status: row.status,
    status_at: row.statusAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  }));
  const columns = sql.raw(Object.keys(json[0]!).join(', '));
  return sql`insert into shipment_boxes (${columns})
    select ${columns} from jsonb_populate_recordset(null::shipment_boxes, ${JSON.stringify(json)}::jsonb)`;
}

/** In the booking's transaction (forward-order-shipment). */
export async function insertBoxes(ex: Executor, rows: NewBox[]): Promise<void> {
  if (rows.length > 0) await ex.insert(shipmentBoxes).values(rows);
}

/** The shipment's boxes, box 1 first; none for a shipment in one box. */
export function findBoxes(ex: Executor, accountId: string, shipmentId: string): Promise<BoxRow[]> {
  return ex
    .select()
    .from(shipmentBoxes)
    .where(and(eq(shipmentBoxes.accountId, accountId), eq(shipmentBoxes.shipmentId, shipmentId)))
    .orderBy(asc(shipmentBoxes.boxNo));
}
