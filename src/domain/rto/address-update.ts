import { canonicalIndianMobile } from '../geo/phone.js';
import type { PincodeDirectory } from '../geo/pincodes.js';

/** What the buyer sends from the tracking page's "update your address" form. */
export interface AddressUpdateForm {
  address?: string;
  landmark?: string;
  pincode?: string;
  city?: string;
  state?: string;
  alternate_phone?: string;
}

export const ADDRESS_UPDATE_FIELDS = ['address', 'landmark', 'pincode', 'city', 'state', 'alternate_phone'] as const;
export type AddressUpdateField = (typeof ADDRESS_UPDATE_FIELDS)[number];

/** Why a field is refused; the page says it in the buyer's language. */
export type AddressProblemCode =
  | 'required'
  | 'too_short'
  | 'too_long'
  | 'not_a_pincode'
  | 'unknown_pincode'
  | 'pincode_locked'
  | 'not_a_mobile';
export interface AddressProblem {
  field: AddressUpdateField;
  code: AddressProblemCode;
}

export interface AddressUpdate {
  address: string;
  landmark: string | null;
  pincode: string;
  city: string;
  state: string;
  /** +91 and ten digits. */
  alternatePhone: string | null;
}

const LIMITS: Record<AddressUpdateField, number> = {
  address: 200,
  landmark: 100,
  pincode: 6,
  city: 60,
  state: 60,
  alternate_phone: 20,
};

/**
 * The form read strictly, every bad field named. `bookedPincode`: once a courier is booked the
 * pincode decides the lane and the price, so it cannot move (as for the merchant's order update).
 */
export function readAddressUpdate(
  form: AddressUpdateForm,
  directory: PincodeDirectory,
  bookedPincode: string | null,
): { update?: AddressUpdate; problems: AddressProblem[] } {
  const problems: AddressProblem[] = [];
  const text = (field: AddressUpdateField, required: boolean): string | null => {
    const value = form[field]?.replace(/\s+/g, ' ').trim() ?? '';
    if (value === '') {
      if (required) problems.push({ field, code: 'required' });
      return null;
    }
    if (value.length > LIMITS[field]) problems.push({ field, code: 'too_long' });
    return value;
  };
  const address = text('address', true);
  if (address !== null && address.replace(/[^\p{L}\p{N}]/gu, '').length < 5)
    problems.push({ field: 'address', code: 'too_short' });
  const landmark = text('landmark', false);
  const pincode = text('pincode', true);
  if (pincode !== null) {
    if (!/^[1-9][0-9]{5}$/.test(pincode)) problems.push({ field: 'pincode', code: 'not_a_pincode' });
    else if (!directory.lookup(pincode)) problems.push({ field: 'pincode', code: 'unknown_pincode' });
    else if (bookedPincode !== null && pincode !== bookedPincode)
      problems.push({ field: 'pincode', code: 'pincode_locked' });
  }
  const city = text('city', true);
  const state = text('state', true);
  const phone = text('alternate_phone', false);
  const alternatePhone = phone === null ? null : (canonicalIndianMobile(phone) ?? null);
  if (phone !== null && alternatePhone === null) problems.push({ field: 'alternate_phone', code: 'not_a_mobile' });
  if (problems.length > 0) return { problems };
  return {
    update: { address: address!, landmark, pincode: pincode!, city: city!, state: state!, alternatePhone },
    problems,
  };
}
