import type { Clock } from '../../base/clock.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { CourierService } from '../../domain/rates/catalogue.js';
import { COURIER_CHOICE_ERRORS } from '../../domain/rates/courier-choice.errors.js';
import { cannotCarry, namedService, noCourierServes } from '../../domain/rates/courier-choice.js';
import { type CourierQuote, quoteRates, type RateQuote } from '../../domain/rates/engine.js';

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

  function refuseNamed(service: CourierService, parcel: Parcel, applicableWeightGrams: number): never {
    const lane = {
      origin: rates.directory.lookup(parcel.pickupPincode)!,
      destination: rates.directory.lookup(parcel.destinationPincode)!,
      applicableWeightGrams,
      cod: false,
    };
    throw cannotCarry(service, lane, rates.catalogue, 'return');
  }

  /**
   * The named service, else the cheapest. A QC return goes only with a QC-capable service; when
   * none serves the lane it falls back to the cheapest non-QC one (as Velocity does) and says so.
   */
  function chooseCourier(parcel: Parcel, qcRequested: boolean, carrierId: string | undefined): Choice {
    const named = carrierId === undefined ? undefined : namedService(rates.catalogue, carrierId);
    if (qcRequested) {
      const qc = quote(parcel, true);
      if (named === undefined && qc.couriers[0]) return { courier: qc.couriers[0], qcApplied: true, qcNote: null };
      if (named !== undefined) {
        const offered = qc.couriers.find((c) => c.service.id === named.id);
        if (offered) return { courier: offered, qcApplied: true, qcNote: null };
        if (!named.qcCapable) {
          throw COURIER_CHOICE_ERRORS.courier_cannot_carry.error(
            `${named.name} does not carry QC returns: omit carrier_id, or name a QC-capable courier`,
            'carrier_id',
          );
        }
        refuseNamed(named, parcel, qc.applicableWeight);
      }
    }
    const plain = quote(parcel, false);
    const courier = named === undefined ? plain.couriers[0] : plain.couriers.find((c) => c.service.id === named.id);
    if (courier) return { courier, qcApplied: false, qcNote: qcRequested ? NO_QC_COURIER : null };
    if (named !== undefined) refuseNamed(named, parcel, plain.applicableWeight);
    throw noCourierServes('return');
  }

  return { chooseCourier, quote };
}
