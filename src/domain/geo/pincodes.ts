import { DataFileError } from '../data-file-issues.js';

export interface PincodeEntry {
  readonly pincode: string;
  readonly district: string;
  readonly state: string;
  /** Null for the ~200 pincodes whose source rows had no usable coordinates. */
  readonly latitude: number | null;
  readonly longitude: number | null;
}

export interface PincodeDirectory {
  lookup(pincode: string): PincodeEntry | undefined;
  readonly size: number;
  /** Distinct state names, for checking the state lists of other data files. */
  readonly states: ReadonlySet<string>;
  hasDistrict(state: string, district: string): boolean;
  /** Every (district, state) pair once: the address checks tell a city of another state by it. */
  districts(): Iterable<{ district: string; state: string }>;
}

/** A pincode's form: six digits (whether it exists is the directory's business). */
export const PINCODE_PATTERN = '^[0-9]{6}$';
const PINCODE = new RegExp(PINCODE_PATTERN);
const EXPECTED_HEADER = 'pincode,district,state,latitude,longitude';

/**
 * Syntax only: a 6-digit string, or a 6-digit JSON integer. Whether the pincode exists is the
 * directory's business (no pincode starts with 0, but `000000` has a pincode's form), so a route
 * tells "malformed" from "not in the directory".
 */
export function parsePincode(input: unknown): string | undefined {
  if (typeof input === 'string') return PINCODE.test(input) ? input : undefined;
  if (typeof input === 'number' && Number.isInteger(input) && input >= 100000 && input <= 999999) {
    return String(input);
  }
  return undefined;
}

function lineError(source: string, index: number, why: string, line: string): DataFileError {
  return new DataFileError(`${source} line ${index + 1}: ${why}: "${line}"`);
}

export function parsePincodeCsv(text: string, source = 'pincode CSV'): PincodeDirectory {
  const entries = new Map<string, PincodeEntry>();
  const interned = new Map<string, string>();
  const intern = (value: string): string => {
    const existing = interned.get(value);
    if (existing !== undefined) return existing;
    interned.set(value, value);
    return value;
  };
  const districtsByState = new Map<string, Set<string>>();

  const lines = text.split('\n');
  const header = lines[0]?.replace(/\r$/, '');
  if (header !== EXPECTED_HEADER) {
    throw new DataFileError(`${source}: expected header "${EXPECTED_HEADER}", found "${header ?? ''}"`);
  }
  for (let i = 1; i < lines.length; i++) {
    let line = lines[i] as string;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') continue;
    // The file has no quoted fields (no district or state contains a comma), so splitting on
    // commas is exact and no CSV parser dependency is needed; a quoted row fails the field count.
    const fields = line.split(',');
    if (fields.length !== 5) throw lineError(source, i, 'expected 5 fields', line);
    const [pincode, district, state, lat, lon] = fields as [string, string, string, string, string];
    if (!PINCODE.test(pincode)) throw lineError(source, i, 'invalid pincode', line);
    if (district === '' || state === '') throw lineError(source, i, 'missing district or state', line);
    if (entries.has(pincode)) throw lineError(source, i, 'duplicate pincode', line);
    const latitude = lat === '' ? null : Number(lat);
    const longitude = lon === '' ? null : Number(lon);
    if (Number.isNaN(latitude) || Number.isNaN(longitude)) throw lineError(source, i, 'invalid coordinates', line);
    const entry: PincodeEntry = {
      pincode,
      district: intern(district),
      state: intern(state),
      latitude,
      longitude,
    };
    entries.set(pincode, entry);
    let districts = districtsByState.get(entry.state);
    if (districts === undefined) {
      districts = new Set();
      districtsByState.set(entry.state, districts);
    }
    districts.add(entry.district);
  }
  if (entries.size === 0) throw new DataFileError(`${source}: no pincodes`);

  const states: ReadonlySet<string> = new Set(districtsByState.keys());
  return {
    lookup: (pincode) => entries.get(pincode),
    size: entries.size,
    states,
    hasDistrict: (state, district) => districtsByState.get(state)?.has(district) ?? false,
    *districts() {
      for (const [state, names] of districtsByState) for (const district of names) yield { district, state };
    },
  };
}
