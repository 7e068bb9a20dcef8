import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../base/db/client.js';
import { shipmentBoxes, shipments } from '../base/db/schema.js';
import { UUID } from '../base/uuid.js';

// A multi-piece shipment's other boxes each travel under an AWB of their own (docs/paperwork.md,
// "Multi-piece shipments", "A box's own AWB"), and whoever holds box 2 (its buyer, a warehouse
// worker) types box 2's AWB. The routes that take an AWB look for the shipment by its own AWB (the
// master, box 1's) first, as they always did, and only for an AWB none of the account's shipments
// has do they ask here: one statement, through shipment_boxes' unique index on awb, joined to its
// shipment by primary key, within the account, so another account's box is as unknown as any AWB.

/** A box after the first, found by its own AWB, with the shipment it belongs to. */
export interface BoxAwb {
  /** The box's own AWB, as asked. */
  awb: string;
  shipmentId: string;
  /** The shipment's AWB: box 1's, the one Velocity's answers carry. */
  masterAwb: string;
  boxNo: number;
  boxCount: number;
  /** The shipment's (not the box's) status and store, for routes that judge the shipment. */
  shipmentStatus: string;
  storeId: string | null;
}

/**
 * The account's boxes (2 and on) among these AWBs, keyed by the AWB asked. Box 1's AWB is the
 * shipment's own, so it is never here: the caller found it already.
 */
export async function findBoxAwbs(
  ex: Executor,
  accountId: string,
  awbs: readonly string[],
): Promise<Map<string, BoxAwb>> {
  const wanted = [...new Set(awbs)].filter((awb) => !UUID.test(awb));
  if (wanted.length === 0) return new Map();
  const rows = await ex
    .select({
      awb: shipmentBoxes.awb,
      shipmentId: shipmentBoxes.shipmentId,
      // Booked with its boxes, so never null.
      masterAwb: sql<string>`${shipments.awb}`,
      boxNo: shipmentBoxes.boxNo,
      boxCount: shipmentBoxes.boxCount,
      shipmentStatus: shipments.status,
      storeId: shipments.storeId,
    })
    .from(shipmentBoxes)
    .innerJoin(shipments, and(eq(shipments.id, shipmentBoxes.shipmentId), eq(shipments.accountId, accountId)))
    .where(
      and(eq(shipmentBoxes.accountId, accountId), inArray(shipmentBoxes.awb, wanted), gte(shipmentBoxes.boxNo, 2)),
    );
  return new Map(rows.map((row) => [row.awb, row]));
}

/** One AWB's box, or null. */
export async function findBoxAwb(ex: Executor, accountId: string, awb: string): Promise<BoxAwb | null> {
  return (await findBoxAwbs(ex, accountId, [awb])).get(awb) ?? null;
}

/**
 * A look-up by a shipment's id or AWB that also takes a box's AWB: `find` as asked, and when it
 * finds nothing and the AWB is a box's, `find` again by the box's shipment id. `box` says which box
 * was asked for (null: the shipment itself, by its id or master AWB).
 */
export async function findWithBoxAwb<T>(
  ex: Executor,
  accountId: string,
  idOrAwb: string,
  find: (idOrAwb: string) => Promise<T | undefined>,
): Promise<{ found: T; box: BoxAwb | null } | undefined> {
  const direct = await find(idOrAwb);
  if (direct !== undefined) return { found: direct, box: null };
  const box = await findBoxAwb(ex, accountId, idOrAwb);
  if (!box) return undefined;
  const found = await find(box.shipmentId);
  return found === undefined ? undefined : { found, box };
}
