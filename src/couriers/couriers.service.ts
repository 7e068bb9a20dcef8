import type { SQL } from 'drizzle-orm';
import type { Clock } from '../base/clock.js';
import { ConfigError, type CourierSettings } from '../base/config.js';
import type { Db, Executor } from '../base/db/client.js';
import { AppError } from '../http/errors.js';
import { awbOfSeries, type CourierCatalogue, type CourierService, issuesTestAwbs } from '../domain/rates/catalogue.js';
import { type BookedParcel, type BookingRequest, type Connector, pushConnector } from './connector.js';
import * as repo from './couriers.repository.js';
import { createDelhiveryConnector } from './delhivery.connector.js';
import { createSandboxConnector } from './sandbox.connector.js';

export type Couriers = ReturnType<typeof createCouriers>;

interface Logger {
  warn(object: object, message: string): void;
}

export function awbNumber(service: CourierService, sequence: number): string {
  return `${service.awbPrefix}${String(sequence).padStart(10, '0')}`;
}

/**
 * The next waybill a push courier takes from us: from the series it allotted (counted on a counter
 * of that series, so a new series starts at its first number), else from our own test series.
 */
async function drawAwb(ex: Executor, service: CourierService): Promise<string> {
  const series = service.awbSeries;
  if (!series) return awbNumber(service, await repo.nextAwbNumber(ex, service.id));
  const n = await repo.nextAwbNumber(ex, `${service.id}:${awbOfSeries(series, 1)}`);
  const awb = awbOfSeries(series, n);
  if (awb === null) {
    throw new AppError(422, [
      `${service.name} has no AWB numbers left in the series it allotted (up to ${awbOfSeries(series, series.last - series.first + 1)}): choose another courier, or set a new awb_series in the courier catalogue`,
    ], [{ field: 'carrier_id', message: `${service.name}'s AWB series is used up` }]);
  }
  return awb;
}

/** A booking's waybill, and whether it is a test booking (no courier issued the waybill). */
export type CourierBooking = BookedParcel & { testMode: boolean };

/**
 * One connector per connector name the catalogue uses. A service on delhivery without
 * DELHIVERY_API_TOKEN stops start-up: it could book nothing.
 */
export function checkConnectorSettings(catalogue: CourierCatalogue, settings: CourierSettings): void {
  const onDelhivery = catalogue.services.filter((s) => s.connector === 'delhivery').map((s) => s.id);
  if (onDelhivery.length > 0 && !settings.delhivery.token) {
    throw new ConfigError(`DELHIVERY_API_TOKEN must be set: courier services ${onDelhivery.join(', ')} use the delhivery connector`);
  }
}

export function createConnectors(catalogue: CourierCatalogue, settings: CourierSettings, db: Db, clock: Clock): Map<string, Connector> {
  checkConnectorSettings(catalogue, settings);
  const used = new Set(catalogue.services.map((service) => service.connector));
  const byName = new Map<string, Connector>([['push', pushConnector]]);
  if (used.has('sandbox')) byName.set('sandbox', createSandboxConnector({ db, clock, settings: settings.sandbox }));
  const token = settings.delhivery.token;
  if (used.has('delhivery') && token) {
    byName.set('delhivery', createDelhiveryConnector({ token, baseUrl: settings.delhivery.baseUrl, timeoutMs: settings.timeoutMs, clock }));
  }
  return new Map(catalogue.services.map((service) => [service.id, byName.get(service.connector)!]));
}

/**
 * Where bookings, cancellations and instructions meet the couriers: the one place the booking
 * services call, whatever connector a service names.
 */
export function createCouriers({ db, clock, catalogue, connectors, log }: { db: Db; clock: Clock; catalogue: CourierCatalogue; connectors: Map<string, Connector>; log?: Logger }) {
  const connectorOf = (service: CourierService) => connectors.get(service.id) ?? pushConnector;
  const pulled = catalogue.services.filter((service) => connectorOf(service).pulls);
  const instructed = catalogue.services.filter((service) => connectorOf(service) !== pushConnector);
  // Pickups asked for in this process (service, location, day): one request collects them all.
  const pickupsAsked = new Set<string>();

  return {
    connectorOf,
    /** Services whose scans the poller asks for. */
    pulledServices: pulled,

    /**
     * The courier's waybill for a parcel. `ex` draws from the service's AWB series for couriers that
     * take ours; in an idempotent request it is the request's transaction (see nextAwbNumber).
     */
    async book(ex: Executor, service: CourierService, request: BookingRequest): Promise<CourierBooking> {
      const parcel = await connectorOf(service).book(service, request, () => drawAwb(ex, service), ex);
      return { ...parcel, testMode: issuesTestAwbs(service) };
    },

    /** With the booking's own writes: a pulled courier's shipment joins the poller's queue. */
    /**
     * The same as one CTE of the booking's own statement (orders.repository insertOrder); none for
     * a courier that is not asked for scans.
     */
    enrolment(accountId: string, booking: { shipmentId: string; service: CourierService; awb: string; at: Date }): SQL | undefined {
      if (!connectorOf(booking.service).pulls) return undefined;
      return repo.pollInsert(accountId, {
        shipmentId: booking.shipmentId,
        carrierId: booking.service.id,
        awb: booking.awb,
        bookedAt: booking.at,
        nextPollAt: booking.at,
      });
    },

    async enrol(ex: Executor, accountId: string, booking: { shipmentId: string; service: CourierService; awb: string; at: Date }) {
      if (!connectorOf(booking.service).pulls) return;
      await repo.insertPoll(ex, accountId, {
        shipmentId: booking.shipmentId,
        carrierId: booking.service.id,
        awb: booking.awb,
        bookedAt: booking.at,
        nextPollAt: booking.at,
      });
    },

    /**
     * Asks the courier to collect at the warehouse on the pickup day, once per day and warehouse in
     * this process. A booking stands without it (the courier also sweeps its manifests), so a
     * failure is logged, and asked again with the next booking.
     */
    async requestPickup(service: CourierService, pickup: { locationName: string; date: string }) {
      const key = `${service.id}|${pickup.locationName}|${pickup.date}`;
      if (connectorOf(service) === pushConnector || pickupsAsked.has(key)) return;
      try {
        await connectorOf(service).requestPickup(service, { ...pickup, parcels: 1 });
        pickupsAsked.add(key);
      } catch (error) {
        log?.warn({ carrierId: service.id, reason: (error as Error).message }, 'pickup request failed');
      }
    },

    /** Null when the courier cancelled it (or keeps no books of its own); else why not, in its words. */
    async cancel(service: CourierService, awb: string): Promise<string | null> {
      try {
        await connectorOf(service).cancel(service, awb);
        return null;
      } catch (error) {
        if (error instanceof AppError) return error.messages[0] ?? `${service.name} refused the cancellation`;
        throw error;
      }
    },

    /**
     * Hands merchants' open NDR instructions to couriers that take them through their API, and
     * acknowledges each once the courier has it; one that fails stays open and is sent again on the
     * next round. Push couriers read theirs at GET /carrier/v1/actions.
     */
    async dispatchInstructions(): Promise<number> {
      let sent = 0;
      for (const service of instructed) {
        const connector = connectorOf(service);
        for (const action of await repo.findOpenForCarrier(db, service.id, 50)) {
          if (!action.awb) continue;
          try {
            await connector.instruct(service, action.awb, {
              action: action.action === 'rto' ? 'rto' : 'reattempt',
              at: action.createdAt,
              payload: action.payload,
            });
          } catch (error) {
            log?.warn({ carrierId: service.id, actionId: action.id, reason: (error as Error).message }, 'NDR instruction not delivered');
            continue;
          }
          await repo.acknowledge(db, service.id, action.id, clock.now());
          sent += 1;
        }
      }
      return sent;
    },
  };
}
