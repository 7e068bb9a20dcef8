import type { PincodeDirectory } from '../geo/pincodes.js';

/**
 * Address checks a logistics person would recognise, run on every forward order at booking. Pure:
 * the same address and directory always give the same answer, so the reasons can be shown and
 * argued with. The order itself was already accepted (pincode in the directory, a phone number):
 * these checks only say how likely the courier is to find the buyer.
 */

export const ADDRESS_VALIDITIES = ['valid', 'incomplete', 'suspicious'] as const;
export type AddressValidity = (typeof ADDRESS_VALIDITIES)[number];

/** Each reason and the validity it makes the address (the worst one wins). */
export const ADDRESS_REASONS = {
  /** The state written is not the pincode's state. */
  state_mismatch: 'suspicious',
  /** The city written is a district of another state than the pincode's. */
  city_mismatch: 'suspicious',
  /** "test", "asdf", "xxx", "na": text nobody lives at. */
  placeholder_text: 'suspicious',
  /** One character five times or more in a row ("aaaaa", "11111"). */
  repeated_characters: 'suspicious',
  /** A run of keyboard keys ("qwerty", "asdfgh", "12345"). */
  keyboard_run: 'suspicious',
  /** The address line (with line 2) has fewer than MIN_ADDRESS_LENGTH letters and digits. */
  address_too_short: 'incomplete',
  /** No house, flat, plot or street marker: no number, and none of the words couriers look for. */
  no_house_or_street: 'incomplete',
  /** The phone is not an Indian mobile (a landline, or a number starting 0-5): no delivery call or SMS reaches it. */
  phone_not_mobile: 'incomplete',
} as const satisfies Record<string, Exclude<AddressValidity, 'valid'>>;
export type AddressReason = keyof typeof ADDRESS_REASONS;

/** Letters and digits an address line needs, beside the city: "12 MG Road" is 9. */
export const MIN_ADDRESS_LENGTH = 10;

export interface AddressInput {
  address: string;
  address2?: string | null;
  city: string;
  state: string;
  pincode: string;
  /** 10 digits, as orders keep it. */
  phone: string;
}

export interface AddressCheck {
  validity: AddressValidity;
  /** In the order of ADDRESS_REASONS, each once. */
  reasons: AddressReason[];
}

/** Lower case, letters only: "Tamil Nadu" and "TAMIL-NADU" are one name. */
const squash = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

/** Names and abbreviations people write for the directory's states (squashed both sides). */
const STATE_ALIASES: Record<string, string> = {
  orissa: 'odisha',
  pondicherry: 'puducherry',
  uttaranchal: 'uttarakhand',
  nctofdelhi: 'delhi',
  newdelhi: 'delhi',
  jammukashmir: 'jammuandkashmir',
  andamannicobarislands: 'andamanandnicobarislands',
  dadranagarhaveli: 'dadraandnagarhaveliandanddamananddiu',
  damananddiu: 'dadraandnagarhaveliandanddamananddiu',
  ...Object.fromEntries(
    Object.entries({
      ap: 'andhrapradesh',
      ar: 'arunachalpradesh',
      as: 'assam',
      br: 'bihar',
      cg: 'chhattisgarh',
      ch: 'chandigarh',
      dl: 'delhi',
      ga: 'goa',
      gj: 'gujarat',
      hr: 'haryana',
      hp: 'himachalpradesh',
      jk: 'jammuandkashmir',
      jh: 'jharkhand',
      ka: 'karnataka',
      kl: 'kerala',
      la: 'ladakh',
      mp: 'madhyapradesh',
      mh: 'maharashtra',
      mn: 'manipur',
      ml: 'meghalaya',
      mz: 'mizoram',
      nl: 'nagaland',
      od: 'odisha',
      or: 'odisha',
      pb: 'punjab',
      py: 'puducherry',
      rj: 'rajasthan',
      sk: 'sikkim',
      tn: 'tamilnadu',
      ts: 'telangana',
      tg: 'telangana',
      tr: 'tripura',
      up: 'uttarpradesh',
      uk: 'uttarakhand',
      wb: 'westbengal',
    }),
  ),
};

/** Old and local names of cities whose district has the new name (squashed). */
const CITY_ALIASES: Record<string, string> = {
  bangalore: 'bengaluru',
  gurgaon: 'gurugram',
  bombay: 'mumbai',
  calcutta: 'kolkata',
  madras: 'chennai',
  ahmedabad: 'ahmadabad',
  mysore: 'mysuru',
  trivandrum: 'thiruvananthapuram',
  baroda: 'vadodara',
  poona: 'pune',
  allahabad: 'prayagraj',
  mangalore: 'dakshinakannada',
  noida: 'gautambuddhanagar',
};

const PLACEHOLDERS = new Set([
  'test',
  'testing',
  'asdf',
  'qwerty',
  'xxx',
  'xyz',
  'abc',
  'na',
  'nil',
  'none',
  'null',
  'dummy',
  'sample',
  'fake',
  'demo',
  'address',
  'tbd',
]);
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890', 'abcdefghijklmnopqrstuvwxyz'];
const KEYBOARD_RUN = 5;
/** Words (whole, lower case) that mark a house, a building or a street. */
const MARKERS =
  /\b(h\.?\s?no|house|flat|apt|apartment|plot|door|block|floor|tower|wing|building|bldg|sector|sec|phase|street|st|road|rd|lane|gali|marg|nagar|colony|society|enclave|village|vill|ward|cross|main|layout|chawl|mohalla|near|opp|opposite|behind)\b/;

function keyboardRun(word: string): boolean {
  for (let i = 0; i + KEYBOARD_RUN <= word.length; i++) {
    const piece = word.slice(i, i + KEYBOARD_RUN);
    if (KEYBOARD_ROWS.some((row) => row.includes(piece))) return true;
  }
  return false;
}

/**
 * Whether `city` names a district of another state and none of the pincode's own (aliases applied).
 * A district of the same state is let pass: metros spill over their district's line (Hyderabad
 * for a Rangareddy pincode, Kolkata for North 24 Parganas), and couriers deliver those fine.
 */
function cityInOtherState(
  directory: PincodeDirectory,
  city: string,
  entry: { district: string; state: string },
): boolean {
  const named = CITY_ALIASES[squash(city)] ?? squash(city);
  const own = squash(entry.district);
  if (named === '' || own.startsWith(named) || named.startsWith(own)) return false;
  const index = DISTRICT_INDEX.get(directory) ?? indexDistricts(directory);
  const states = new Set(index.get(named));
  // "Bengaluru" names Bengaluru Urban and Bengaluru Rural; a short word ("Raj") names nothing by its start.
  if (states.size === 0 && named.length >= MIN_PREFIX) {
    for (const [district, where] of index) if (district.startsWith(named)) for (const state of where) states.add(state);
  }
  return states.size > 0 && !states.has(entry.state);
}

const MIN_PREFIX = 5;

/** Squashed district name → the states that have a district of that name, built once per directory. */
const DISTRICT_INDEX = new WeakMap<PincodeDirectory, Map<string, Set<string>>>();
function indexDistricts(directory: PincodeDirectory): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  for (const { district, state } of directory.districts()) {
    const key = squash(district);
    const states = index.get(key) ?? new Set<string>();
    states.add(state);
    index.set(key, states);
  }
  DISTRICT_INDEX.set(directory, index);
  return index;
}

export function checkAddress(input: AddressInput, directory: PincodeDirectory): AddressCheck {
  const found = new Set<AddressReason>();
  const entry = directory.lookup(input.pincode);
  if (entry) {
    const state = squash(input.state);
    if ((STATE_ALIASES[state] ?? state) !== squash(entry.state)) found.add('state_mismatch');
    if (cityInOtherState(directory, input.city, entry)) found.add('city_mismatch');
  }
  const line = [input.address, input.address2 ?? ''].join(' ').toLowerCase();
  const words = line.split(/[^a-z0-9]+/).filter((w) => w !== '');
  if (words.some((w) => PLACEHOLDERS.has(w)) || PLACEHOLDERS.has(squash(line))) found.add('placeholder_text');
  if (/([a-z0-9])\1{4,}/.test(line.replace(/\s+/g, ''))) found.add('repeated_characters');
  if (words.some(keyboardRun)) found.add('keyboard_run');
  if (line.replace(/[^a-z0-9]/g, '').length < MIN_ADDRESS_LENGTH) found.add('address_too_short');
  if (!/\d/.test(line) && !MARKERS.test(line)) found.add('no_house_or_street');
  if (!/^[6-9]\d{9}$/.test(input.phone)) found.add('phone_not_mobile');

  const reasons = (Object.keys(ADDRESS_REASONS) as AddressReason[]).filter((r) => found.has(r));
  const validity: AddressValidity = reasons.some((r) => ADDRESS_REASONS[r] === 'suspicious')
    ? 'suspicious'
    : reasons.length > 0
      ? 'incomplete'
      : 'valid';
  return { validity, reasons };
}
