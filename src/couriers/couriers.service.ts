import type { SQL } from 'drizzle-orm';
import type { Clock } from '../base/clock.js';
import type { Db, Executor } from '../base/db/client.js';
import { awbTaken, drawAwb } from './awb-series.js';
import {
  type ConnectorName,
  type CourierCatalogue,
  type CourierService,
  issuesTestAwbs,
} from '../domain/rates/catalogue.js';
import {
  type BookedBox,
  type BookedParcel,
  type BookingRequest,
  type Connector,
  isCourierAnswer,
  type PickupRequest,
  pushConnector,
} from './connector.js';
import type { Journey } from './carrier-event.js';
import type { HealthRecorder } from './connector-health.js';
import { createInstructionDispatch } from './instruction-dispatch.js';
import type { EventLog } from '../events/event-log.js';
import type { ApiConnectorName } from './courier-credentials.service.js';
import { type CourierSettings, checkConnectorSettings } from './couriers.settings.js';
import * as repo from './couriers.repository.js';
import { createDelhiveryConnector } from './delhivery.connector.js';
import { bookLinked } from './linked-boxes.js';
import { createEkartConnector } from './ekart.connector.js';
import { createSandboxConnector } from './sandbox.connector.js';
import { createXpressbeesConnector } from './xpressbees.connector.js';
import { createShadowfaxConnector } from './shadowfax.connector.js';

export type Couriers = ReturnType<typeof createCouriers>;

interface Logger {
  warn(object: object, message: string): void;
}

const pollOf = (
  subjectId: string,
  journey: Journey,
  booking: { service: CourierService; awb: string; at: Date },
): repo.NewPoll => ({
  subjectId,
  journey,
  carrierId: booking.service.id,
  awb: booking.awb,
  bookedAt: booking.at,
  nextPollAt: booking.at,
});

/** What a courier said to a cancellation that did not simply succeed, in its words (null when it did). */
export type CancelAnswer = null | { refused: string } | { queued: string };

/** A parcel a booking holds at its courier: its AWB, and a multi-piece booking's boxes (each cancelled when it is called off). */
export interface BookedRef {
  service: CourierService;
  awb: string;
  journey: Journey;
  boxes?: readonly BookedBox[];
}

/** A booking's waybill, and whether it is a test booking (no courier issued the waybill). */
export type CourierBooking = BookedParcel & { testMode: boolean };

/**
 * A courier API's connector made from settings whose credentials for it are set (checked by
 * checkConnectorSettings, or by the account's stored credentials), reporting under `healthKey`.
 */
export function buildApiConnector(
  name: ApiConnectorName,
  settings: CourierSettings,
  clock: Clock,
  health: HealthRecorder,
  healthKey: string = name,
): Connector {
  const common = { timeoutMs: settings.timeoutMs, clock, health: health.reporter(healthKey) };
  switch (name) {
    case 'delhivery':
      return createDelhiveryConnector({
        token: settings.delhivery.token!,
        baseUrl: settings.delhivery.baseUrl,
        ...common,
      });
    case 'ekart': {
      const { clientId, username, password, baseUrl } = settings.ekart;
      return createEkartConnector({
        clientId: clientId!,
        username: username!,
        password: password!,
        baseUrl,
        ...common,
      });
    }
    case 'xpressbees':
      return createXpressbeesConnector({
        ...settings.xpressbees,
        email: settings.xpressbees.email!,
        password: settings.xpressbees.password!,
        ...common,
      });
    case 'shadowfax':
      return createShadowfaxConnector({
        token: settings.shadowfax.token!,
        baseUrl: settings.shadowfax.baseUrl,
        orderType: settings.shadowfax.orderType,
        ...common,
      });
  }
}

export function createConnectors(
  catalogue: CourierCatalogue,
  settings: CourierSettings,
  db: Db,
  clock: Clock,
  health: HealthRecorder,
): Map<string, Connector> {
  checkConnectorSettings(catalogue, settings);
  const byName = new Map<ConnectorName, Connector>([['push', pushConnector]]);
  for (const name of new Set(catalogue.services.map((service) => service.connector))) {
    if (name === 'sandbox')
      byName.set(
        name,
        createSandboxConnector({ db, clock, settings: settings.sandbox, health: health.reporter(name) }),
      );
    else if (name !== 'push') byName.set(name, buildApiConnector(name, settings, clock, health));
  }
  return new Map(catalogue.services.map((service) => [service.id, byName.get(service.connector)!]));
}

/**
 * Where bookings, cancellations and instructions meet the couriers: the one place the booking
 * services call, whatever connector a service names.
 */
export function createCouriers({
  db,
  clock,
  catalogue,
  connectors,
  accountConnector,
  events,
  log,
}: {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  connectors: Map<string, Connector>;
  /** The connector made with an account's own credentials for the service's courier API, if it set them (courier-credentials). */
  accountConnector?: (accountId: string, service: CourierService) => Promise<Connector | undefined>;
  /** Records shipment.ndr_action_refused when a courier refuses an instruction. */
  events?: EventLog;
  log?: Logger;
}) {
  /** The service's connector as the server configured it: what every account's connector for it does and says. */
  const connectorOf = (service: CourierService) => connectors.get(service.id) ?? pushConnector;
  /** The connector for calls on an account's behalf: with the account's own credentials where it set them. */
  const connectorFor = async (accountId: string, service: CourierService) =>
    (await accountConnector?.(accountId, service)) ?? connectorOf(service);
  const pulled = catalogue.services.filter((service) => connectorOf(service).pulls);
  const instructions = createInstructionDispatch({
    db,
    clock,
    services: catalogue.services.filter((service) => connectorOf(service) !== pushConnector),
    connectorFor,
    ...(events && { events }),
    ...(log && { log }),
  });
  async function cancelParcel(
    accountId: string,
    service: CourierService,
    awb: string,
    ex?: Executor,
    journey: Journey = 'forward',
  ): Promise<CancelAnswer> {
    try {
      const answer = await (await connectorFor(accountId, service)).cancel(service, awb, ex, journey);
      return answer ?? null;
    } catch (error) {
      if (isCourierAnswer(error)) return { refused: error.messages[0] ?? `${service.name} refused the cancellation` };
      throw error;
    }
  }

  /**
   * Calls off a parcel the courier booked whose record will not be kept (its transaction is rolling
   * back, `inTransaction`): a parcel that is a row of ours goes with the rollback, a push courier's
   * is only a number of ours, any other is cancelled at the courier. A refusal to cancel is logged:
   * the courier keeps a parcel we have no record of.
   */
  async function callOff(accountId: string, parcel: BookedRef, inTransaction: boolean): Promise<void> {
    const { service, journey } = parcel;
    const connector = connectorOf(service);
    if (connector === pushConnector || (inTransaction && connector.parcelsInDatabase)) return;
    // A multi-piece booking's every box (box 1's AWB is the parcel's own).
    for (const awb of parcel.boxes?.map((box) => box.awb) ?? [parcel.awb]) {
      const answer = await cancelParcel(accountId, service, awb, undefined, journey);
      if (answer && 'refused' in answer)
        log?.warn(
          { accountId, carrierId: service.id, awb, reason: answer.refused },
          'the parcel of a booking that could not be stored was not cancelled',
        );
    }
  }

  // Pickups asked for in this process (service, location, day): one request collects them all.
  const pickupsAsked = new Set<string>();

  return {
    connectorOf,
    connectorFor,
    /** Services whose scans the poller asks for. */
    pulledServices: pulled,

    /**
     * The courier's waybill for a parcel. `ex` draws from the service's AWB series for couriers that
     * take ours; in an idempotent request it is the request's transaction (see nextAwbNumber).
     */
    async book(
      ex: Executor,
      accountId: string,
      service: CourierService,
      request: BookingRequest,
    ): Promise<CourierBooking> {
      const connector = await connectorFor(accountId, service);
      const draw = () => drawAwb(ex, service);
      const boxes = request.boxes;
      const linked =
        boxes !== undefined && boxes.length >= 2 && !(connector.multiPiece && request.journey === 'forward');
      const parcel = linked
        ? await bookLinked({ connector, service, request, boxes, draw, ex, ...(log && { log }) })
        : await connector.book(service, request, draw, ex);
      return { ...parcel, testMode: issuesTestAwbs(service) };
    },

    /**
     * With the booking's own writes, as one CTE of the booking's own statement (orders.repository
     * insertOrder): a pulled courier's shipment joins the poller's queue. None for a courier that
     * is not asked for scans.
     */
    enrolment(
      accountId: string,
      booking: { shipmentId: string; service: CourierService; awb: string; at: Date },
    ): SQL | undefined {
      if (!connectorOf(booking.service).pulls) return undefined;
      return repo.pollInsert(accountId, pollOf(booking.shipmentId, 'forward', booking));
    },

    /** In the booking's transaction: a pulled courier's shipment, or return, joins the poller's queue. */
    async enrol(
      ex: Executor,
      accountId: string,
      booking: { id: string; journey: Journey; service: CourierService; awb: string; at: Date },
    ) {
      if (!connectorOf(booking.service).pulls) return;
      await repo.insertPoll(ex, accountId, pollOf(booking.id, booking.journey, booking));
    },

    /**
     * Asks the courier to collect at the warehouse on the pickup day, once per day and warehouse in
     * this process. A booking stands without it (the courier also sweeps its manifests), so a
     * failure is logged, and asked again with the next booking.
     */
    async requestPickup(accountId: string, service: CourierService, pickup: { locationName: string; date: string }) {
      const key = `${accountId}|${service.id}|${pickup.locationName}|${pickup.date}`;
      if (connectorOf(service) === pushConnector || pickupsAsked.has(key)) return;
      try {
        await (await connectorFor(accountId, service)).requestPickup(service, { ...pickup, parcels: 1 });
        pickupsAsked.add(key);
      } catch (error) {
        log?.warn({ carrierId: service.id, reason: (error as Error).message }, 'pickup request failed');
      }
    },

    /**
     * A pickup the merchant asked for (features/pickups): the courier's pickup id, or null when it
     * keeps none. Unlike the request made with each booking, a refusal or failure is the caller's.
     */
    async schedulePickup(accountId: string, service: CourierService, pickup: PickupRequest): Promise<string | null> {
      return (await connectorFor(accountId, service)).requestPickup(service, pickup);
    },

    /**
     * Null when the courier cancelled the parcel (or keeps no books of its own); else what it said,
     * in its words: refused, or queued (the parcel is moving; its tracking will confirm). `ex`: the
     * caller's transaction, if it has one; `journey` 'return' calls off a return's pickup.
     */
    cancel: cancelParcel,

    /**
     * Stores what a courier booked (`write`); when the store fails, the parcel is called off, so no
     * courier is left holding a parcel Dakiya has no record of, and a waybill another shipment or
     * return already has becomes a 409 (awbTaken). `inTransaction`: the write runs in a transaction
     * that its failure rolls back, taking with it a parcel that is a row of ours. `storedElsewhere`:
     * a failure whose parcel another request stored (it lost a race for the same parcel), which is
     * that request's to keep (callOff says which parcels are cancelled). A multi-piece booking's
     * `boxes` are each called off.
     */
    async keepBooked<T>(
      accountId: string,
      parcel: BookedRef,
      write: () => Promise<T>,
      options: { inTransaction: boolean; storedElsewhere?: (error: unknown) => boolean },
    ): Promise<T> {
      try {
        return await write();
      } catch (error) {
        if (!options.storedElsewhere?.(error)) await callOff(accountId, parcel, options.inTransaction);
        throw awbTaken(error, parcel.service, parcel.awb);
      }
    },

    callOff,

    /** Whether the courier took a new delivery address: told, refused (its words), or not_supported by its connector. */
    async changeAddress(
      accountId: string,
      service: CourierService,
      awb: string,
      lines: string,
    ): Promise<{ outcome: 'told' | 'refused' | 'not_supported'; message: string | null }> {
      const connector = await connectorFor(accountId, service);
      if (!connector.changeAddress) return { outcome: 'not_supported', message: null };
      try {
        await connector.changeAddress(service, awb, lines);
        return { outcome: 'told', message: null };
      } catch (error) {
        if (isCourierAnswer(error))
          return { outcome: 'refused', message: error.messages[0] ?? `${service.name} refused the address` };
        throw error;
      }
    },

    /** One round of NDR instructions: open ones to their couriers, queued ones asked about (instruction-dispatch.ts). */
    dispatchInstructions: () => instructions.dispatch(),
  };
}
