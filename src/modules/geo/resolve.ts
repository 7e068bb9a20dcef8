import { badRequest } from '../../http/errors.js';
import { type PincodeDirectory, type PincodeEntry, parsePincode } from './pincodes.js';

/**
 * SPEC 4.6 rule 5 for any input field: a 6-digit pincode (string, or a JSON integer) that the
 * directory knows. Anything else is a 400 naming the field.
 */
export function resolvePincode(directory: PincodeDirectory, value: unknown, field: string): PincodeEntry {
  const pincode = parsePincode(value);
  if (pincode === undefined) throw badRequest(`${field} must be a 6-digit Indian pincode`, field);
  const entry = directory.lookup(pincode);
  if (!entry) throw badRequest(`${field} ${pincode} is not a valid Indian pincode`, field);
  return entry;
}
