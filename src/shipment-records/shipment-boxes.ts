import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Static, Type } from 'typebox';
import type { OrderPackage } from '../base/db/schema.js';

// A multi-piece shipment's boxes as its answers show them (docs/paperwork.md, "Multi-piece
// shipments"): beside Velocity's fields, which keep the master AWB (box 1's), a `boxes` array, left
// out for a shipment in one box so that its answer is Velocity's exactly.

/** One box as a booking (or the shipment view) read it from shipment_boxes. */
export interface BookedBoxRow {
  boxNo: number;
  awb: string;
  status: string;
}

export const BoxView = Type.Object({
  box_no: Type.Integer({ minimum: 1, description: 'Box 1 first; box 1 carries the master AWB (awb_code).' }),
  awb: Type.Union([Type.String(), Type.Null()], {
    description: "The box's own AWB, its label's barcode; null until a courier is booked.",
  }),
  weight: Type.Number({ description: "The box's dead weight, kilograms." }),
  dimensions: Type.Object(
    { length: Type.Number(), breadth: Type.Number(), height: Type.Number() },
    { description: 'Centimetres.' },
  ),
  items: Type.Array(Type.Object({ sku: Type.String(), units: Type.Integer() }), {
    description: 'What the box holds, as the order listed it ([] when no box listed its items).',
  }),
  status: Type.String({ description: "The box's own status, from its own scans (the shipment's until booked)." }),
});

export const BoxesField = {
  boxes: Type.Optional(
    Type.Array(BoxView, {
      description:
        "Dakiya's addition, on a multi-piece shipment only (absent for one box): each box, box 1 first, with its own AWB, " +
        "weight, size, items and status. Velocity's fields describe the shipment as a whole under the master AWB.",
      examples: [
        [
          {
            box_no: 1,
            awb: 'DKY1000000042',
            weight: 1.2,
            dimensions: { length: 30, breadth: 20, height: 15 },
            items: [{ sku: 'KURTA-M-BLUE', units: 2 }],
            status: 'pending',
          },
          {
            box_no: 2,
            awb: 'DKY1000000043',
            weight: 0.8,
            dimensions: { length: 25, breadth: 20, height: 10 },
            items: [{ sku: 'SCARF-RED', units: 1 }],
            status: 'pending',
          },
        ],
      ],
    }),
  ),
};

export type BoxViewData = Static<typeof BoxView>;

/**
 * The boxes of an order's shipment: its packages, with each booked box's AWB and status beside
 * them (`booked`, by box number; none before booking). Undefined for an order in one box.
 */
export function boxesView(
  packages: readonly OrderPackage[] | null,
  booked: readonly BookedBoxRow[],
  shipmentStatus: string,
): BoxViewData[] | undefined {
  if (!packages) return undefined;
  const byNo = new Map(booked.map((box) => [box.boxNo, box]));
  return packages.map((box, i) => {
    const row = byNo.get(i + 1);
    return {
      box_no: i + 1,
      awb: row?.awb ?? null,
      weight: box.weightGrams / 1000,
      dimensions: { length: box.lengthCm, breadth: box.breadthCm, height: box.heightCm },
      items: box.items,
      status: row?.status ?? shipmentStatus,
    };
  });
}

/**
 * The shipment's booked boxes (box number, AWB, status), box 1 first, as one JSON column of a query
 * over `shipments` (the shipment view); [] for a shipment in one box.
 */
export const bookedBoxesColumn = (shipmentId: AnyPgColumn, accountId: AnyPgColumn): SQL<BookedBoxRow[]> =>
  sql<
    BookedBoxRow[]
  >`coalesce((select jsonb_agg(jsonb_build_object('boxNo', b.box_no, 'awb', b.awb, 'status', b.status) order by b.box_no)
    from shipment_boxes b where b.account_id = ${accountId} and b.shipment_id = ${shipmentId}), '[]'::jsonb)`;
