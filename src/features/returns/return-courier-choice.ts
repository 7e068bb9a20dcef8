import type { Clock } from '../../base/clock.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { type CourierQuote, quoteRates, type RateQuote, unserviceableReason } from '../../domain/rates/engine.js';
import { COURIER_CHOICE_ERRORS } from '../../domain/rates/courier-choice.errors.js';

// Which courier service carries a return, and at what price: the one it names or the cheapest,
// with its quality check at pickup when one was asked for and a courier on the lane does it.

/** What a return is priced on: the same inputs /rates takes for `journey_type: "return"`. */
export interface Parcel {
  pickupPincode: string;
  destinationPincode: string;
  weightGrams: number;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
}

export interface Choice {
  courier: CourierQuote;
  qcApplied: boolean;
  qcNote: string | null;
}

export const NO_QC_COURIER = 'No QC-capable courier serves this lane: booked as a non-QC return';

export type ReturnCourierChoice = ReturnType<typeof createReturnCourierChoice>;

export function createReturnCourierChoice({ clock, rates }: { clock: Clock; rates: RatesContext }) {
  function quote(parcel: Parcel, qcApplicable: boolean): RateQuote {
    return quoteRates(
      {
        journeyType: 'return',
        origin: rates.directory.lookup(parcel.pickupPincode)!,
        destination: rates.directory.lookup(parcel.destinationPincode)!,
        deadWeightGrams: parcel.weightGrams,
        lengthCm: parcel.lengthCm,
        widthCm: parcel.breadthCm,
        heightCm: parcel.heightCm,
        qcApplicable,
      },
      clock.now(),
      rates,
    );
  }

  function refuseNamed(carrierId: string, parcel: Parcel, applicableWeightGrams: number): never {
    const service = rates.catalogue.byId.get(carrierId)!;
    const reason = unserviceableReason(
      service,
      {
        origin: rates.directory.lookup(parcel.pickupPincode)!,
        destination: rates.directory.lookup(parcel.destinationPincode)!,
        applicableWeightGrams,
        cod: false,
      },
      rates.catalogue,
    );
    throw COURIER_CHOICE_ERRORS.courier_cannot_carry.error(
      `${service.name} cannot carry this return: ${reason ?? 'not offered for this lane'}`,
      'carrier_id',
    );
  }

  /**
   * The named service, else the cheapest. A QC return goes only with a QC-capable service; when
   * none serves the lane it falls back to the cheapest non-QC one (as Velocity does) and says so.
   */
  function chooseCourier(parcel: Parcel, qcRequested: boolean, carrierId: string | undefined): Choice {
    if (carrierId !== undefined && !rates.catalogue.byId.has(carrierId)) {
      throw COURIER_CHOICE_ERRORS.courier_service_unknown.error(
        `carrier_id '${carrierId}' is not a known courier service`,
        'carrier_id',
      );
    }
    if (qcRequested) {
      const qc = quote(parcel, true);
      if (carrierId === undefined && qc.couriers[0]) return { courier: qc.couriers[0], qcApplied: true, qcNote: null };
      if (carrierId !== undefined) {
        const offered = qc.couriers.find((c) => c.service.id === carrierId);
        if (offered) return { courier: offered, qcApplied: true, qcNote: null };
        if (!rates.catalogue.byId.get(carrierId)!.qcCapable) {
          throw COURIER_CHOICE_ERRORS.courier_cannot_carry.error(
            `${rates.catalogue.byId.get(carrierId)!.name} does not carry QC returns: omit carrier_id, or name a QC-capable courier`,
            'carrier_id',
          );
        }
        refuseNamed(carrierId, parcel, qc.applicableWeight);
      }
    }
    const plain = quote(parcel, false);
    const courier =
      carrierId === undefined ? plain.couriers[0] : plain.couriers.find((c) => c.service.id === carrierId);
    if (courier) return { courier, qcApplied: false, qcNote: qcRequested ? NO_QC_COURIER : null };
    if (carrierId !== undefined) refuseNamed(carrierId, parcel, plain.applicableWeight);
    throw COURIER_CHOICE_ERRORS.no_courier_serves.error(
      'No courier service can carry this return: check the pincodes and weight',
    );
  }

  return { chooseCourier, quote };
}
