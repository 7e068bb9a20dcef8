import { Type } from 'typebox';
import { paiseToRupees } from '../../domain/money.js';
import type { RateQuote } from '../../domain/rates/engine.js';
import { asciiBytes, asciiJson } from './ascii-json.js';

// Dakiya's additions to the rates answer for a quote with `packages` (a multi-piece shipment):
// their schemas, and the body written with them.

const Amount = Type.Number({ minimum: 0 });
const NullableAmount = Type.Union([Amount, Type.Null()]);
/**
 * Dakiya's additions to a courier's entry when the request had `packages` (a multi-piece
 * shipment): how the service charged the boxes and each box's part, in the request's order.
 */
export const MultiPieceFields = {
  multi_piece_charge: Type.Optional(
    Type.Union([Type.Literal('per_box'), Type.Literal('consignment')], {
      description:
        "Dakiya's addition, with `packages`: `per_box` (each box priced on its own slabs, summed) or `consignment` (the boxes' chargeable weights billed as one parcel).",
    }),
  ),
  boxes: Type.Optional(
    Type.Array(
      Type.Object(
        {
          billed_weight: Type.Number({
            description: "Grams: the box's billed weight (its chargeable weight under `consignment`).",
          }),
          freight_charges: Type.Union([Amount, Type.Null()], {
            description: "The box's freight (forward, or return freight on a return); null under `consignment`.",
          }),
          rto_charges: NullableAmount,
        },
        { additionalProperties: false },
      ),
      { description: "Dakiya's addition, with `packages`: each box's part of the charges, in the request's order." },
    ),
  ),
};
export const BoxCount = {
  box_count: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        "Dakiya's addition, with `packages`: the number of boxes; the weights above are then the boxes' sums.",
    }),
  ),
};

/**
 * A multi-piece quote's body: the parcel body with Dakiya's additions (each entry's charge rule and
 * boxes, the box count), appended after each object's own keys. Off the hot path: read back and
 * written again, still ASCII with \u escapes.
 */
export function withBoxes(json: Buffer, quote: RateQuote): Buffer {
  const body = JSON.parse(json.toString('latin1')) as {
    result: { serviceable_couriers: Record<string, unknown>[]; shipment_details: Record<string, unknown> };
  };
  const rupees = (paise: number | null) => (paise === null ? null : paiseToRupees(paise));
  body.result.serviceable_couriers.forEach((entry, i) => {
    const multiPiece = quote.couriers[i]?.multiPiece;
    if (!multiPiece) return;
    entry.multi_piece_charge = multiPiece.charge;
    entry.boxes = multiPiece.boxes.map((part) => ({
      billed_weight: part.billedWeight,
      freight_charges: rupees(part.freightPaise),
      rto_charges: rupees(part.rtoPaise),
    }));
  });
  body.result.shipment_details.box_count = quote.boxCount;
  return asciiBytes(asciiJson(body));
}
