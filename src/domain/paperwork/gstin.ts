/*
 * A GSTIN's own checks, beyond its form: its first two digits are the State it is registered in
 * (the GST state codes), and its fifteenth character is a check character over the first fourteen.
 * Sources: docs/paperwork.md (GSTIN).
 */

/** The GST state codes, by the pincode directory's names of the States and Union Territories. */
export const GST_STATE_CODES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  // 25 was Daman and Diu's until it merged with Dadra and Nagar Haveli (26) in 2020; GSTINs issued under it remain.
  '25': 'Dadra and Nagar Haveli and Daman and Diu',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  // 28 was Andhra Pradesh's before Telangana was formed; registrations since are under 37.
  '28': 'Andhra Pradesh',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
};

/** A GSTIN's form: the state code, the PAN, the entity number, Z and the check character (any case). */
export const GSTIN_FORM = '^[0-9]{2}[A-Za-z]{5}[0-9]{4}[A-Za-z][1-9A-Za-z][Zz][0-9A-Za-z]$';

const CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The check character of a GSTIN's first fourteen characters: each character's value (0–9, A–Z as
 * 10–35) weighted 1 and 2 alternately, each product's base-36 digits summed, and the character that
 * brings the sum to a multiple of 36 (a Luhn check in base 36).
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = CHARACTERS.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CHARACTERS[(36 - (sum % 36)) % 36]!;
}

/**
 * What is wrong with a GSTIN of the right form (15 characters as the schema checks them), upper
 * case: an unknown state code, another State than `state` (where the registration is used), or a
 * check character that does not match. Empty when it is right.
 */
export function gstinProblems(gstin: string, state?: string): string[] {
  const problems: string[] = [];
  const code = gstin.slice(0, 2);
  const registeredIn = GST_STATE_CODES[code];
  if (registeredIn === undefined) problems.push(`${code} is not a GST state code`);
  else if (state !== undefined && registeredIn !== state)
    problems.push(`it is registered in ${registeredIn} (state code ${code}), not ${state}`);
  const expected = gstinCheckCharacter(gstin);
  if (gstin[14] !== expected)
    problems.push(`its last character should be ${expected}, the check character of the first 14`);
  return problems;
}
