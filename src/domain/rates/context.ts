import type { WorkingCalendar } from '../calendar.js';
import type { PincodeDirectory } from '../geo/pincodes.js';
import type { ZoneRegions } from '../geo/zones.js';
import type { CourierCatalogue } from './catalogue.js';

/** Everything the rate engine reads: loaded from the data files at start-up (data-files.ts). */
export interface RatesContext {
  directory: PincodeDirectory;
  regions: ZoneRegions;
  catalogue: CourierCatalogue;
  calendar: WorkingCalendar;
}
