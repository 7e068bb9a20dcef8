import type { Db, Executor } from '../base/db/client.js';
import { ConfigError } from '../base/config-error.js';
import { isUniqueViolation } from '../base/db/errors.js';
import { type AwbSeries, awbOfSeries, type CourierCatalogue, type CourierService } from '../domain/rates/catalogue.js';
import { COURIER_ERRORS } from './couriers.errors.js';
import * as repo from './couriers.repository.js';

// The waybill numbers Dakiya hands out for couriers that take them from us (push couriers): drawn
// from the series a courier allotted, else from our own test series; checked against what is
// already issued at start-up, and a clash at booking answered in words.

export function awbNumber(service: CourierService, sequence: number): string {
  return `${service.awbPrefix}${String(sequence).padStart(10, '0')}`;
}

/**
 * The next waybill a push courier takes from us: from the series it allotted (counted on a counter
 * of that series, so a new series starts at its first number), else from our own test series.
 */
export async function drawAwb(ex: Executor, service: CourierService): Promise<string> {
  const series = service.awbSeries;
  if (!series) return awbNumber(service, await repo.nextAwbNumber(ex, service.id));
  const n = await repo.nextAwbNumber(ex, `${service.id}:${awbOfSeries(series, 1)}`);
  const awb = awbOfSeries(series, n);
  if (awb === null) {
    throw COURIER_ERRORS.awb_series_exhausted.error(
      `${service.name} has no AWB numbers left in the series it allotted (up to ${awbOfSeries(series, series.last - series.first + 1)}): choose another courier, or set a new awb_series in the courier catalogue`,
      [{ field: 'carrier_id', message: `${service.name}'s AWB series is used up` }],
    );
  }
  return awb;
}

const seriesText = (series: AwbSeries) =>
  `${awbOfSeries(series, 1)} to ${awbOfSeries(series, series.last - series.first + 1)}`;

/**
 * Refuses start-up when a push service's allotted AWB series (the part not yet drawn) holds a
 * waybill a shipment or return already has: typically test bookings made before the series was
 * configured, which Dakiya numbered with the same prefix. Each would otherwise fail a booking.
 */
export async function checkAwbSeries(db: Db, catalogue: CourierCatalogue): Promise<void> {
  // One question on a database with no waybill yet, rather than two per service with a series.
  if (!(await repo.anyAwbIssued(db))) return;
  for (const service of catalogue.services) {
    const series = service.awbSeries;
    if (service.connector !== 'push' || !series) continue;
    const drawn = await repo.awbCounterValue(db, `${service.id}:${awbOfSeries(series, 1)}`);
    const from = awbOfSeries(series, drawn + 1);
    if (from === null) continue;
    const issued = await repo.firstIssuedAwb(db, {
      prefix: series.prefix,
      from,
      to: awbOfSeries(series, series.last - series.first + 1)!,
    });
    if (issued) {
      throw new ConfigError(
        `${service.name} (${service.id}): its awb_series (${seriesText(series)}) holds AWB ${issued}, already issued to a shipment or return ` +
          '(test bookings are numbered with the same prefix): set awb_series in the courier catalogue to start after the AWBs already issued',
      );
    }
  }
}

/**
 * A booking whose waybill another shipment or return already has (the AWB indexes refused its
 * insert, so nothing was written): a 409 naming the AWB and where it came from, not a 500.
 */
export function awbTaken(error: unknown, service: CourierService, awb: string): unknown {
  if (!isUniqueViolation(error, 'shipments_awb_key') && !isUniqueViolation(error, 'returns_awb_key')) return error;
  const from = service.awbSeries
    ? `the AWB series ${service.name} allotted (${seriesText(service.awbSeries)})`
    : `${service.name}'s booking`;
  const message =
    `AWB ${awb} from ${from} is already issued to another shipment or return, so nothing was booked: ` +
    'set awb_series in the courier catalogue to start after the AWBs already issued, or choose another courier';
  return COURIER_ERRORS.awb_taken.error(message, 'carrier_id');
}
