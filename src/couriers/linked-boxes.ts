import type { Executor } from '../base/db/client.js';
import type { CourierService } from '../domain/rates/catalogue.js';
import type { BookedBox, BookedParcel, BookingRequest, Connector, ParcelBox } from './connector.js';

// A multi-piece shipment on a courier without native MPS: linked parcels, one per box
// (docs/paperwork.md, "Multi-piece shipments"; decision 178).

/**
 * The reference box `n` (from 1) of a linked multi-piece shipment is booked under: the shipment's
 * own for box 1 (so its AWB is found as any single parcel's), `<reference>-<n>` for the others.
 * A shipment id is a UUID: at most 39 characters of 0-9, a-f and '-' with 20 boxes, within every
 * connector's order reference (Shadowfax's `client_order_id` takes 100, index id 54543910210; no
 * limit is recorded for Delhivery's `order`, Ekart's and Xpressbees' `order_number`).
 */
export const boxReference = (reference: string, n: number) => (n === 1 ? reference : `${reference}-${n}`);

/**
 * Box `n` (from 1) of `count` of a multi-piece request, as a parcel of its own: its weight and
 * sizes, its reference (boxReference). Box 1 carries the cash to collect (the whole COD) and the
 * order's declared value, as one parcel would, so that its COD never exceeds its value; the other
 * boxes travel prepaid (COD 0), each declaring its share of the value by weight (at least ₹1), so
 * that a lost box is claimed at what it holds. The buyer pays once, at box 1's door
 * (docs/decisions.md, the linked shipments' COD). A return's items (its QC) go with box 1.
 */
export function linkedBoxRequest(request: BookingRequest, box: ParcelBox, n: number, count: number): BookingRequest {
  const { boxes: all = [], ...parcel } = request;
  const first = n === 1;
  const totalGrams = all.reduce((sum, b) => sum + b.weightGrams, 0);
  const share = totalGrams > 0 ? Math.floor((request.totalPaise * box.weightGrams) / totalGrams) : 0;
  const { items, ...rest } = parcel;
  return {
    ...rest,
    reference: boxReference(request.reference, n),
    weightGrams: box.weightGrams,
    lengthCm: box.lengthCm,
    breadthCm: box.breadthCm,
    heightCm: box.heightCm,
    paymentMethod: first ? request.paymentMethod : 'prepaid',
    codPaise: first ? request.codPaise : 0,
    totalPaise: first ? request.totalPaise : Math.max(share, 100),
    productsDescription: `Box ${n} of ${count}: ${request.productsDescription}`.slice(0, 200),
    ...(first && items !== undefined && { items }),
  };
}

/**
 * A multi-piece shipment on a courier that has no native MPS (or a return's boxes): one parcel
 * per box through the connector's own booking, box 1 first (linkedBoxRequest). All or nothing:
 * when box k fails, the boxes already booked are cancelled (through the connector's own cancel,
 * in the booking's executor) and box k's failure is thrown; a box whose cancellation is refused
 * is logged, as callOff logs one. A parcel that is a row of ours goes with the rolled-back
 * booking anyway. The answer: box 1's AWB, and every box's.
 */
export async function bookLinked({
  connector,
  service,
  request,
  boxes,
  draw,
  ex,
  log,
}: {
  connector: Connector;
  service: CourierService;
  request: BookingRequest;
  boxes: readonly ParcelBox[];
  draw: () => Promise<string>;
  ex: Executor;
  log?: { warn(object: object, message: string): void };
}): Promise<BookedParcel> {
  const booked: BookedBox[] = [];
  let first: BookedParcel | undefined;
  for (const [i, box] of boxes.entries()) {
    const boxRequest = linkedBoxRequest(request, box, i + 1, boxes.length);
    try {
      const parcel = await connector.book(service, boxRequest, draw, ex);
      first ??= parcel;
      booked.push({ awb: parcel.awb, reference: boxRequest.reference });
    } catch (error) {
      for (const done of booked.reverse()) {
        try {
          await connector.cancel(service, done.awb, ex, request.journey);
        } catch (refusal) {
          log?.warn(
            { carrierId: service.id, awb: done.awb, reason: (refusal as Error).message },
            'a box of a multi-piece booking that failed was not cancelled',
          );
        }
      }
      throw error;
    }
  }
  return { ...first!, boxes: booked };
}
