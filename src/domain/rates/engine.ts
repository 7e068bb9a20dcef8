import type { PincodeEntry } from '../geo/pincodes.js';
import { classifyZone, type Zone, type ZoneRegions } from '../geo/zones.js';
import type { IndiaDay, WorkingCalendar } from '../calendar.js';
import type { CourierCatalogue, CourierService, MultiPieceCharge } from './catalogue.js';
import { scaleRoundHalfUp } from '../money.js';
import { codFee, isLanePincodeServed, offersCod, servesStates, slabCharge } from './service-fit.js';

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

export function assertValidPayment(request: RateRequest): void {
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

/** Cheapest total first; equal totals by carrier id, so the order is stable. */
export const byTotalThenId = (a: CourierQuote, b: CourierQuote) =>
  a.totalPaise - b.totalPaise || (a.service.id < b.service.id ? -1 : a.service.id > b.service.id ? 1 : 0);

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
  couriers.sort(byTotalThenId);

  return {
    journeyType,
    zone,
    deadWeight: deadCg / 100,
    volumetricWeight: volumetricCg / 100,
    applicableWeight: applicableCg / 100,
    couriers,
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
