import type { PincodeEntry } from '../geo/pincodes.js';
import type { CourierCatalogue, CourierService } from './catalogue.js';
import { COURIER_CHOICE_ERRORS } from './courier-choice.errors.js';
import { unserviceableReason } from './service-fit.js';

// The refusals every choice of a courier shares, for a forward shipment or a return: one wording
// and one code wherever a request names a service by carrier_id or none can carry the parcel.

/** What the refusals call the parcel, and what its sender should check when no service carries it. */
const PARCELS = {
  shipment: 'the pincodes, weight and payment method',
  return: 'the pincodes and weight',
} as const;
type Parcel = keyof typeof PARCELS;

/** The courier service carrier_id names; a 422 on carrier_id when it names none. */
export function namedService(catalogue: CourierCatalogue, carrierId: string): CourierService {
  const service = catalogue.byId.get(carrierId);
  if (!service)
    throw COURIER_CHOICE_ERRORS.courier_service_unknown.error(
      `carrier_id '${carrierId}' is not a known courier service`,
      'carrier_id',
    );
  return service;
}

/** The 422 on carrier_id for a named service the lane's quote does not offer, saying why not. */
export function cannotCarry(
  service: CourierService,
  lane: { origin: PincodeEntry; destination: PincodeEntry; applicableWeightGrams: number; cod: boolean },
  catalogue: CourierCatalogue,
  parcel: Parcel,
) {
  const reason = unserviceableReason(service, lane, catalogue) ?? 'not offered for this lane';
  return COURIER_CHOICE_ERRORS.courier_cannot_carry.error(
    `${service.name} cannot carry this ${parcel}: ${reason}`,
    'carrier_id',
  );
}

/** The 422 for a parcel no courier service can carry. */
export const noCourierServes = (parcel: Parcel) =>
  COURIER_CHOICE_ERRORS.no_courier_serves.error(
    `No courier service can carry this ${parcel}: check ${PARCELS[parcel]}`,
  );
