import { join } from 'node:path';
import { DATA_DIR } from '../../base/files.js';
import { loadPincodeDirectory, type PincodeDirectory } from '../geo/pincodes.js';
import { loadZoneRegions, type ZoneRegions } from '../geo/zones.js';
import { loadCalendar, type WorkingCalendar } from '../calendar.js';
import { type CourierCatalogue, loadCourierCatalogue } from './catalogue.js';

export interface RatesContext {
  directory: PincodeDirectory;
  regions: ZoneRegions;
  catalogue: CourierCatalogue;
  calendar: WorkingCalendar;
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
