/**
 * An Indian phone number as 10 digits, or undefined. Accepts the usual ways people write one:
 * spaces, hyphens, brackets, a +91 / 91 country prefix or a 0 trunk prefix. Mobile numbers start
 * with 6 to 9; landlines (STD code + number, 10 digits without the 0) start with 1 to 8
 * (Delhi 11, Gurugram 124, Mumbai 22). The panel's order form checks phones with it too (it imports
 * this file), so it must stay free of imports.
 */
export function normalizeIndianPhone(input: string): string | undefined {
  if (!/^[\d\s()+-]{10,20}$/.test(input)) return undefined;
  let digits = input.replace(/\D/g, '');
  if (digits.length === 12 && digits.startsWith('91')) digits = digits.slice(2);
  else if (digits.length === 11 && digits.startsWith('0')) digits = digits.slice(1);
  return /^[1-9]\d{9}$/.test(digits) ? digits : undefined;
}

const SEPARATORS = '[\\s()+-]*';
/**
 * What normalizeIndianPhone takes, as a pattern for the published document: 10 to 20 of digits
 * and separators, a 91 or 0 prefix, then ten digits of which the first is not 0.
 */
export const INDIAN_PHONE_PATTERN = `^(?=[\\d\\s()+-]{10,20}$)${SEPARATORS}(?:(?:9${SEPARATORS}1|0)${SEPARATORS})?[1-9](?:${SEPARATORS}\\d){9}${SEPARATORS}$`;

/**
 * An Indian mobile number as written in a username: `+919876543210`, `919876543210`,
 * `09876543210` or `9876543210` (first digit 6 to 9), with spaces or hyphens where people put
 * them. Stricter than normalizeIndianPhone: no brackets, no landlines, since a username that
 * merely resembles a number must not be folded into one.
 */
export const INDIAN_MOBILE_PATTERN = ' *(?:(?:\\+91|91|0)[ -]*)?[6-9](?:[ -]*[0-9]){9} *';
const INDIAN_MOBILE = new RegExp(`^${INDIAN_MOBILE_PATTERN}$`);

/** `+919876543210` for an Indian mobile number in any form INDIAN_MOBILE_PATTERN allows, else undefined. */
export function canonicalIndianMobile(input: string): string | undefined {
  if (!INDIAN_MOBILE.test(input)) return undefined;
  return `+91${input.replace(/\D/g, '').slice(-10)}`;
}
