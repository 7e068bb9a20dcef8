import type { PincodeEntry } from '../geo/pincodes.js';
import { classifyZone, type Zone, type ZoneRegions } from '../geo/zones.js';
import type { IndiaDay, WorkingCalendar } from '../calendar.js';
import type { CourierCatalogue, CourierService, MultiPieceCharge, SlabPricePaise } from './catalogue.js';
import { scaleRoundHalfUp } from '../money.js';

export type JourneyType = 'forward' | 'return';
export type PaymentMethod = 'cod' | 'prepaid';
/** A payment method as the API takes it (COD, Prepaid, cod, ...; the schema has checked it), as services compare it. */
export const paymentMethodOf = (value: string) => value.toLowerCase() as PaymentMethod;

/**
 * A request the route has already validated and resolved: pincodes looked up, rupees turned into
 * paise. For a return journey the origin is the customer and the destination the warehouse.
 */
export interface RateRequest {
  journeyType: JourneyType;
  origin: PincodeEntry;
  destination: PincodeEntry;
  deadWeightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  /** Required for forward journeys; ignored for returns. */
  paymentMethod?: PaymentMethod;
  /** Required (a positive integer) when paymentMethod is `cod`. */
  shipmentValuePaise?: number;
  /** Returns only; the route applies SPEC's default of true. */
  qcApplicable: boolean;
}

export interface RatesDeps {
  catalogue: CourierCatalogue;
  regions: ZoneRegions;
  calendar: WorkingCalendar;
}

/** Charges that do not apply to the journey are 0 (COD and RTO on returns, QC on forward). */
export interface CourierQuote {
  service: CourierService;
  /** Grams, at most two decimals: max(applicable weight, the service's minimum billed weight). */
  billedWeight: number;
  pickupDay: IndiaDay;
  deliveryDay: IndiaDay;
  freightPaise: number;
  codPaise: number;
  rtoPaise: number;
  qcPaise: number;
  totalPaise: number;
  /** A multi-piece quote's (quoteBoxes): how the service charged the boxes, and each box's part. */
  multiPiece?: { charge: MultiPieceCharge; boxes: BoxCharge[] };
}

/**
 * One box of a multi-piece quote, in the request's order: its billed weight (grams, two decimals)
 * and, where each box is charged on its own (`per_box`), its freight and RTO charges (the return
 * freight on a return). A `consignment` charge has no part per box: its billed weight is the box's
 * chargeable weight, its charges null.
 */
export interface BoxCharge {
  billedWeight: number;
  freightPaise: number | null;
  rtoPaise: number | null;
}

/** One box of a multi-piece shipment: grams and centimetres (an order's package fits as it is). */
export interface RateBox {
  readonly weightGrams: number;
  readonly lengthCm: number;
  readonly breadthCm: number;
  readonly heightCm: number;
}

/** The most boxes one quote prices: the rates route's `packages` and an order's. */
export const MAX_BOXES = 20;

export interface RateQuote {
  journeyType: JourneyType;
  zone: Zone;
  /** Grams, rounded half up to two decimals. */
  deadWeight: number;
  volumetricWeight: number;
  applicableWeight: number;
  /** Cheapest total first; equal totals by carrier id, so the order is stable. */
  couriers: CourierQuote[];
  /** A multi-piece quote's number of boxes (quoteBoxes); its weights above are the boxes' sums. */
  boxCount?: number;
}

// Far above any real parcel value, low enough that value × basis points stays an exact integer.
const MAX_SHIPMENT_VALUE_PAISE = 100_000_000_000;

function assertValidRequest(request: RateRequest): void {
  const dimensions = [request.deadWeightGrams, request.lengthCm, request.widthCm, request.heightCm];
  if (!dimensions.every((value) => Number.isFinite(value) && value > 0)) {
    throw new RangeError('dead weight and dimensions must be finite numbers greater than 0');
  }
  assertValidPayment(request);
}

function assertValidPayment(request: RateRequest): void {
  if (request.journeyType !== 'forward') return;
  if (request.paymentMethod !== 'cod' && request.paymentMethod !== 'prepaid') {
    throw new RangeError('a forward quote needs paymentMethod cod or prepaid');
  }
  const value = request.shipmentValuePaise;
  if (
    request.paymentMethod === 'cod' &&
    (value === undefined || !Number.isInteger(value) || value <= 0 || value > MAX_SHIPMENT_VALUE_PAISE)
  ) {
    throw new RangeError('a COD quote needs shipmentValuePaise, a positive integer');
  }
}

/** Army Postal Service pincodes (starting with 9) and the like are refused by every courier. */
export function isLanePincodeServed(
  catalogue: CourierCatalogue,
  origin: PincodeEntry,
  destination: PincodeEntry,
): boolean {
  return !catalogue.unserviceablePincodePrefixes.some(
    (prefix) => origin.pincode.startsWith(prefix) || destination.pincode.startsWith(prefix),
  );
}

function servesStates(service: CourierService, origin: PincodeEntry, destination: PincodeEntry): boolean {
  return !service.unserviceableStates.has(origin.state) && !service.unserviceableStates.has(destination.state);
}

function offersCod(service: CourierService, origin: PincodeEntry, destination: PincodeEntry): boolean {
  return !service.codUnavailableStates.has(origin.state) && !service.codUnavailableStates.has(destination.state);
}

/**
 * Why a service cannot carry a shipment, in words for a 422: the same checks `quoteRates` applies,
 * in the same order, for a client that asked for one courier by id.
 */
export function unserviceableReason(
  service: CourierService,
  lane: { origin: PincodeEntry; destination: PincodeEntry; applicableWeightGrams: number; cod: boolean },
  catalogue: CourierCatalogue,
): string | null {
  const { origin, destination } = lane;
  if (!isLanePincodeServed(catalogue, origin, destination)) return 'no courier serves these pincodes';
  for (const end of [origin, destination]) {
    if (service.unserviceableStates.has(end.state)) return `it does not serve ${end.state}`;
  }
  if (lane.applicableWeightGrams < service.minWeightGrams) {
    return `the applicable weight ${lane.applicableWeightGrams} g is below its minimum of ${service.minWeightGrams} g`;
  }
  if (lane.applicableWeightGrams > service.maxWeightGrams) {
    return `the applicable weight ${lane.applicableWeightGrams} g is above its maximum of ${service.maxWeightGrams} g`;
  }
  if (lane.cod) {
    for (const end of [origin, destination]) {
      if (service.codUnavailableStates.has(end.state)) return `it offers no cash on delivery in ${end.state}`;
    }
  }
  return null;
}

/** Weights in centigrams keep the slab arithmetic in integers. */
function slabCharge(price: SlabPricePaise, service: CourierService, billedCg: number): number {
  const firstCg = service.firstSlabGrams * 100;
  const extraSlabs = billedCg > firstCg ? Math.ceil((billedCg - firstCg) / (service.additionalSlabGrams * 100)) : 0;
  return price.firstPaise + extraSlabs * price.additionalPaise;
}

/**
 * The forward freight a service charges for a parcel of `grams` in `zone`, billed as quoteRates
 * bills it (two-decimal weight, the service's minimum billed weight): a courier's re-weighed parcel
 * is priced by the same slabs it was booked on.
 */
export function forwardFreightAt(service: CourierService, zone: Zone, grams: number): number {
  const billedCg = Math.max(scaleRoundHalfUp(grams, 100), service.minBilledWeightGrams * 100);
  return slabCharge(service.forward[zone], service, billedCg);
}

/** max(fixed, percentage of value), the percentage rounded half up to the paisa. */
export function codFee(service: CourierService, shipmentValuePaise: number): number {
  const percentage = Math.floor((shipmentValuePaise * service.codBasisPoints + 5000) / 10000);
  return Math.max(service.codFixedPaise, percentage);
}

/**
 * Prices every courier service for one shipment. Pure: the clock comes in as `now`, the data as
 * `deps`. A lane no service can carry yields an empty list, not an error; invalid input throws a
 * RangeError because the route should have refused it already.
 */
export function quoteRates(request: RateRequest, now: Date, deps: RatesDeps): RateQuote {
  assertValidRequest(request);
  const { origin, destination, journeyType } = request;
  const zone = classifyZone(origin, destination, deps.regions);
  const deadCg = scaleRoundHalfUp(request.deadWeightGrams, 100);
  const volumetricCg = scaleRoundHalfUp((request.lengthCm * request.widthCm * request.heightCm) / 5, 100);
  // Billing uses the same two-decimal weight the response echoes, so the two always agree.
  const applicableCg = Math.max(deadCg, volumetricCg);
  const isCod = journeyType === 'forward' && request.paymentMethod === 'cod';

  const couriers: CourierQuote[] = [];
  if (isLanePincodeServed(deps.catalogue, origin, destination)) {
    for (const service of deps.catalogue.services) {
      if (!servesStates(service, origin, destination)) continue;
      if (applicableCg < service.minWeightGrams * 100 || applicableCg > service.maxWeightGrams * 100) continue;
      if (isCod && !offersCod(service, origin, destination)) continue;
      if (journeyType === 'return' && request.qcApplicable && !service.qcCapable) continue;

      const billedCg = Math.max(applicableCg, service.minBilledWeightGrams * 100);
      const pickupDay = deps.calendar.pickupDay(now, service.pickupCutoffMinutes);
      const quote: CourierQuote = {
        service,
        billedWeight: billedCg / 100,
        pickupDay,
        deliveryDay: deps.calendar.addWorkingDays(pickupDay, service.transitDays[zone]),
        freightPaise: 0,
        codPaise: 0,
        rtoPaise: 0,
        qcPaise: 0,
        totalPaise: 0,
      };
      if (journeyType === 'forward') {
        quote.freightPaise = slabCharge(service.forward[zone], service, billedCg);
        quote.rtoPaise = slabCharge(service.rto[zone], service, billedCg);
        quote.codPaise = isCod ? codFee(service, request.shipmentValuePaise as number) : 0;
        quote.totalPaise = quote.freightPaise + quote.codPaise;
      } else {
        quote.freightPaise = slabCharge(service.reverse[zone], service, billedCg);
        quote.qcPaise = request.qcApplicable ? (service.qcFeePaise as number) : 0;
        quote.totalPaise = quote.freightPaise + quote.qcPaise;
      }
      couriers.push(quote);
    }
  }
  couriers.sort(
    (a, b) => a.totalPaise - b.totalPaise || (a.service.id < b.service.id ? -1 : a.service.id > b.service.id ? 1 : 0),
  );

  return {
    journeyType,
    zone,
    deadWeight: deadCg / 100,
    volumetricWeight: volumetricCg / 100,
    applicableWeight: applicableCg / 100,
    couriers,
  };
}

const byTotalThenId = (a: CourierQuote, b: CourierQuote) =>
  a.totalPaise - b.totalPaise || (a.service.id < b.service.id ? -1 : a.service.id > b.service.id ? 1 : 0);

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

/**
 * Whether a parcel is billed on its dead weight (Velocity's dead_weight_billing): the dead weight
 * is not below the volumetric (L x B x H / 5 grams).
 */
export function deadWeightBilled(parcel: {
  weightGrams: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
}) {
  return parcel.weightGrams >= (parcel.lengthCm * parcel.breadthCm * parcel.heightCm) / 5;
}

export interface ServiceabilityRequest {
  from: PincodeEntry;
  to: PincodeEntry;
  paymentMode: PaymentMethod;
  shipmentType: JourneyType;
}

export interface ServiceabilityResult {
  zone: Zone;
  /** In catalogue order; without a weight there is no price to sort by. */
  carriers: CourierService[];
}

/**
 * Which services can carry a lane at all, before weight and price: `/serviceability` has no
 * weight. COD matters only for forward shipments; a return is never cash on delivery.
 */
export function serviceableCarriers(
  request: ServiceabilityRequest,
  deps: Pick<RatesDeps, 'catalogue' | 'regions'>,
): ServiceabilityResult {
  const { from, to } = request;
  const zone = classifyZone(from, to, deps.regions);
  if (!isLanePincodeServed(deps.catalogue, from, to)) return { zone, carriers: [] };
  const needsCod = request.shipmentType === 'forward' && request.paymentMode === 'cod';
  const carriers = deps.catalogue.services.filter(
    (service) => servesStates(service, from, to) && (!needsCod || offersCod(service, from, to)),
  );
  return { zone, carriers };
}
