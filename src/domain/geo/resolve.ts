import { checkAll, invalid } from '../errors.js';
import { normalizeIndianPhone } from './phone.js';
import { type PincodeDirectory, type PincodeEntry, parsePincode } from './pincodes.js';

/**
 * SPEC 4.6 rule 5 for any input field: a 6-digit pincode (string, or a JSON integer) that the
 * directory knows. Anything else is a 400 naming the field, telling a malformed value from six
 * digits that are no pincode.
 */
export function resolvePincode(directory: PincodeDirectory, value: unknown, field: string): PincodeEntry {
  const pincode = parsePincode(value);
  if (pincode === undefined) throw invalid(`${field} must be a 6-digit Indian pincode`, field);
  const entry = directory.lookup(pincode);
  if (!entry) throw invalid(`${field} ${pincode} is not a pincode in the directory`, field);
  return entry;
}

/** An input field's Indian phone number as 10 digits; anything else is a 400 naming the field. */
export function resolvePhone(value: unknown, field: string): string {
  const phone = normalizeIndianPhone(String(value));
  if (!phone) throw invalid(`${field} must be a valid Indian phone number (10 digits)`, field);
  return phone;
}

/**
 * An address sent as flat `<prefix>_<name>` fields (an order's billing and shipping, a return's
 * pickup and shipping): every missing one of `required` ("is required" + `why`), the phone and the
 * pincode, all reported together. Answers the phone and pincode, normalised.
 */
export function resolveAddressFields(
  body: object,
  prefix: string,
  required: readonly string[],
  why: string,
  directory: PincodeDirectory,
): { phone: string; pincode: string } {
  const fields = body as Record<string, unknown>;
  const field = (name: string) => `${prefix}_${name}`;
  const checks = checkAll();
  for (const name of required) {
    if (fields[field(name)] === undefined) {
      checks.check(() => {
        throw invalid(`${field(name)} is required${why}`, field(name));
      });
    }
  }
  const phone = fields[field('phone')];
  const pincode = fields[field('pincode')];
  const resolved = {
    phone: phone === undefined ? undefined : checks.check(() => resolvePhone(phone, field('phone'))),
    pincode:
      pincode === undefined
        ? undefined
        : checks.check(() => resolvePincode(directory, pincode, field('pincode')).pincode),
  };
  checks.done();
  // Both are among `required`: present once the checks pass.
  return resolved as { phone: string; pincode: string };
}
