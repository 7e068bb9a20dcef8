import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIfscDirectory, type IfscDirectory } from './domain/banking/ifsc.js';
import { type WorkingCalendar, parseHolidaysFile } from './domain/calendar.js';
import { DataFileError } from './domain/data-file-issues.js';
import { type PincodeDirectory, parsePincodeCsv } from './domain/geo/pincodes.js';
import { type EwayBillRules, parseEwayBillRules } from './domain/paperwork/eway-bill-data.js';
import { parseZoneRegions, type ZoneRegions } from './domain/geo/zones.js';
import { type CourierCatalogue, parseCourierCatalogue } from './domain/rates/catalogue.js';
import type { RatesContext } from './domain/rates/context.js';

/*
 * The shipped data files (pincode directory, zones, couriers, holidays), read once at start-up and
 * handed to the domain's parsers: the domain core itself reads no files.
 */

// Resolved from this file, not the working directory, so the service and the tests find the data
// wherever they are started from.
export const DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));

export function dataPath(fileName: string): string {
  return join(DATA_DIR, fileName);
}

export function readTextFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new DataFileError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

export function readJsonFile(path: string): unknown {
  const text = readTextFile(path);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DataFileError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

export const DEFAULT_PINCODES_PATH = dataPath('india-pincodes.csv');

/**
 * Reads the whole directory once (about 19,600 rows). A Map keyed by the pincode string answers
 * lookups in O(1) without parsing the key; district and state strings are interned so the 19,600
 * entries share about 780 strings.
 */
export function loadPincodeDirectory(csvPath: string = DEFAULT_PINCODES_PATH): PincodeDirectory {
  return parsePincodeCsv(readTextFile(csvPath), csvPath);
}

export const DEFAULT_ZONES_PATH = dataPath('zones.json');

export function loadZoneRegions(jsonPath: string = DEFAULT_ZONES_PATH, directory?: PincodeDirectory): ZoneRegions {
  return parseZoneRegions(readJsonFile(jsonPath), jsonPath, directory);
}

export const DEFAULT_COURIERS_PATH = dataPath('couriers.json');

export function loadCourierCatalogue(
  jsonPath: string = DEFAULT_COURIERS_PATH,
  directory?: Pick<PincodeDirectory, 'states'>,
): CourierCatalogue {
  return parseCourierCatalogue(readJsonFile(jsonPath), jsonPath, directory);
}

export const DEFAULT_HOLIDAYS_PATH = dataPath('holidays.json');

export function loadCalendar(jsonPath: string = DEFAULT_HOLIDAYS_PATH): WorkingCalendar {
  return parseHolidaysFile(readJsonFile(jsonPath), jsonPath);
}

export interface RatesContextOptions {
  /** Folder holding india-pincodes.csv, zones.json, couriers.json and holidays.json. */
  dataDir?: string;
  /** The courier catalogue, when it is kept outside the data folder (COURIERS_FILE). */
  couriersFile?: string;
}

/**
 * Everything the rate engine reads, loaded and cross-checked once at start-up (about 30 ms). The
 * zone and courier files are checked against the directory's state and district names, so a
 * typo fails start-up instead of quietly changing zones or serviceability.
 */
export function loadRatesContext(options: RatesContextOptions = {}): RatesContext {
  const dir = options.dataDir ?? DATA_DIR;
  const directory = loadPincodeDirectory(join(dir, 'india-pincodes.csv'));
  return {
    directory,
    regions: loadZoneRegions(join(dir, 'zones.json'), directory),
    catalogue: loadCourierCatalogue(options.couriersFile ?? join(dir, 'couriers.json'), directory),
    calendar: loadCalendar(join(dir, 'holidays.json')),
  };
}

let shared: RatesContext | undefined;

/** The context from the shipped data files, loaded on first use and shared (it never changes). */
export function defaultRatesContext(): RatesContext {
  shared ??= loadRatesContext();
  return shared;
}

/**
 * Rule 138's data: the goods exempt by HSN and the States' own limits (data/eway-bill-*.json),
 * checked against the directory's State names.
 */
export function loadEwayBillRules(directory: Pick<PincodeDirectory, 'states'>, dir: string = DATA_DIR): EwayBillRules {
  const exempt = join(dir, 'eway-bill-exempt-hsn.json');
  const limits = join(dir, 'eway-bill-state-limits.json');
  return parseEwayBillRules(readJsonFile(exempt), readJsonFile(limits), directory.states, { exempt, limits });
}

const fromIfscPackage = createRequire(import.meta.url);

/**
 * The bank branches' codes as Razorpay's `ifsc` package publishes them (RBI's list, refreshed by
 * upgrading the package): only its data files are read, never its code, whose online look-up this
 * offline check does not want (decision 154). Read at the first look-up, and shared.
 */
export const ifscDirectory: IfscDirectory = createIfscDirectory(() => ({
  branches: fromIfscPackage('ifsc/src/IFSC.json'),
  bankNames: fromIfscPackage('ifsc/src/banknames.json'),
  sublets: fromIfscPackage('ifsc/src/sublet.json'),
  customSublets: fromIfscPackage('ifsc/src/custom-sublets.json'),
}));
