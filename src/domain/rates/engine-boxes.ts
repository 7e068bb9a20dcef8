import { classifyZone } from '../geo/zones.js';
import { scaleRoundHalfUp } from '../money.js';
import type { MultiPieceCharge } from './catalogue.js';
import {
  assertValidPayment,
  type BoxCharge,
  byTotalThenId,
  type CourierQuote,
  type RateQuote,
  type RateRequest,
  type RatesDeps,
} from './engine.js';
import { codFee, isLanePincodeServed, offersCod, servesStates, slabCharge } from './service-fit.js';

/** One box of a multi-piece shipment: grams and centimetres (an order's package fits as it is). */
export interface RateBox {
  readonly weightGrams: number;
  readonly lengthCm: number;
  readonly breadthCm: number;
  readonly heightCm: number;
}

/** The most boxes one quote prices: the rates route's `packages` and an order's. */
export const MAX_BOXES = 20;

/**
 * Prices every courier service for a multi-piece shipment (MPS): `boxes` (1 to MAX_BOXES, box 1
 * first) are what is charged; the request's own weight and sizes are not read. Each box's
 * chargeable weight is max(dead, volumetric = L x B x H / 5), in two-decimal grams. A service
 * carries the shipment only when it carries every box (each within its minimum and maximum weight)
 * and, as for one parcel, serves both ends (and offers COD there, or QC on a return). It charges:
 *
 * - `per_box` (the default): each box as a parcel of its own, its billed weight max(chargeable,
 *   the service's minimum billed weight) rounded up to the slabs, priced and summed; the RTO alike.
 * - `consignment`: the boxes' chargeable weights summed and billed as one parcel (one first slab).
 *
 * The COD fee is charged once, on the shipment's value, as is a return's QC fee: one consignment
 * collects once and is checked once. The quote's dead, volumetric and applicable weights are the
 * boxes' sums; each courier's billed weight is the sum of its boxes' (per_box) or the consignment's.
 * Pure, like quoteRates; invalid input throws a RangeError.
 */
export function quoteBoxes(request: RateRequest, boxes: readonly RateBox[], now: Date, deps: RatesDeps): RateQuote {
  if (boxes.length < 1 || boxes.length > MAX_BOXES) {
    throw new RangeError(`a multi-piece quote takes 1 to ${MAX_BOXES} boxes, not ${boxes.length}`);
  }
  for (const box of boxes) {
    const dimensions = [box.weightGrams, box.lengthCm, box.breadthCm, box.heightCm];
    if (!dimensions.every((value) => Number.isFinite(value) && value > 0)) {
      throw new RangeError("each box's weight and dimensions must be finite numbers greater than 0");
    }
  }
  assertValidPayment(request);
  const { origin, destination, journeyType } = request;
  const zone = classifyZone(origin, destination, deps.regions);
  const deadCg = boxes.map((box) => scaleRoundHalfUp(box.weightGrams, 100));
  const volumetricCg = boxes.map((box) => scaleRoundHalfUp((box.lengthCm * box.breadthCm * box.heightCm) / 5, 100));
  const applicableCg = deadCg.map((dead, i) => Math.max(dead, volumetricCg[i] as number));
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const heaviestCg = Math.max(...applicableCg);
  const lightestCg = Math.min(...applicableCg);
  const isCod = journeyType === 'forward' && request.paymentMethod === 'cod';
  const forward = journeyType === 'forward';

  const couriers: CourierQuote[] = [];
  if (isLanePincodeServed(deps.catalogue, origin, destination)) {
    for (const service of deps.catalogue.services) {
      if (!servesStates(service, origin, destination)) continue;
      if (lightestCg < service.minWeightGrams * 100 || heaviestCg > service.maxWeightGrams * 100) continue;
      if (isCod && !offersCod(service, origin, destination)) continue;
      if (journeyType === 'return' && request.qcApplicable && !service.qcCapable) continue;

      const minBilledCg = service.minBilledWeightGrams * 100;
      const charge: MultiPieceCharge = service.multiPieceCharge ?? 'per_box';
      const freightPrice = forward ? service.forward[zone] : service.reverse[zone];
      let billedCg: number;
      let freightPaise: number;
      let rtoPaise = 0;
      let parts: BoxCharge[];
      if (charge === 'per_box') {
        const billed = applicableCg.map((cg) => Math.max(cg, minBilledCg));
        parts = billed.map((cg) => ({
          billedWeight: cg / 100,
          freightPaise: slabCharge(freightPrice, service, cg),
          rtoPaise: forward ? slabCharge(service.rto[zone], service, cg) : 0,
        }));
        billedCg = sum(billed);
        freightPaise = sum(parts.map((part) => part.freightPaise as number));
        rtoPaise = sum(parts.map((part) => part.rtoPaise as number));
      } else {
        billedCg = Math.max(sum(applicableCg), minBilledCg);
        parts = applicableCg.map((cg) => ({ billedWeight: cg / 100, freightPaise: null, rtoPaise: null }));
        freightPaise = slabCharge(freightPrice, service, billedCg);
        rtoPaise = forward ? slabCharge(service.rto[zone], service, billedCg) : 0;
      }
      const pickupDay = deps.calendar.pickupDay(now, service.pickupCutoffMinutes);
      const codPaise = isCod ? codFee(service, request.shipmentValuePaise as number) : 0;
      const qcPaise = !forward && request.qcApplicable ? (service.qcFeePaise as number) : 0;
      couriers.push({
        service,
        billedWeight: billedCg / 100,
        pickupDay,
        deliveryDay: deps.calendar.addWorkingDays(pickupDay, service.transitDays[zone]),
        freightPaise,
        codPaise,
        rtoPaise,
        qcPaise,
        totalPaise: freightPaise + codPaise + qcPaise,
        multiPiece: { charge, boxes: parts },
      });
    }
  }
  couriers.sort(byTotalThenId);

  return {
    journeyType,
    zone,
    deadWeight: sum(deadCg) / 100,
    volumetricWeight: sum(volumetricCg) / 100,
    applicableWeight: sum(applicableCg) / 100,
    couriers,
    boxCount: boxes.length,
  };
}
