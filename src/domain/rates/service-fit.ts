import type { PincodeEntry } from '../geo/pincodes.js';
import type { Zone } from '../geo/zones.js';
import { scaleRoundHalfUp } from '../money.js';
import type { CourierCatalogue, CourierService, SlabPricePaise } from './catalogue.js';

// Whether a service can carry a lane and what its slabs charge: the checks and prices one parcel's
// quote (engine.ts), a multi-piece quote (engine-boxes.ts), a courier asked for by id and a
// re-weighed parcel all share.

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

export function servesStates(service: CourierService, origin: PincodeEntry, destination: PincodeEntry): boolean {
  return !service.unserviceableStates.has(origin.state) && !service.unserviceableStates.has(destination.state);
}

export function offersCod(service: CourierService, origin: PincodeEntry, destination: PincodeEntry): boolean {
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
export function slabCharge(price: SlabPricePaise, service: CourierService, billedCg: number): number {
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
