import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { createPeriodicCheck, type PeriodicCheck } from '../../base/periodic-check.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EventLog } from '../../events/event-log.js';
import type { Host } from '../../http/host.js';
import type { ServerSettings } from '../../http/server.settings.js';
import { pickupsRoutes } from './pickups.routes.js';
import { createPickupsService } from './pickups.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Flags pickups whose day ended with parcels not picked up, hourly; stops with the app. */
    missedPickupsCheck: PeriodicCheck;
  }
}

export interface PickupsContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue'>;
  events: EventLog;
  settings: { server: ServerSettings };
  couriers: Pick<Couriers, 'schedulePickup'>;
}

/** Pickups and their manifests, and the hourly check for pickups missed. */
export function registerPickups(host: Host, { db, clock, rates, events, settings, couriers }: PickupsContext) {
  const pickups = createPickupsService({
    db,
    clock,
    catalogue: rates.catalogue,
    couriers,
    events,
    publicBaseUrl: settings.server.publicBaseUrl,
  });
  // Days are whole India days, so an hour late is prompt enough.
  const missed = createPeriodicCheck(
    () => pickups.checkMissed(),
    3_600_000,
    (error) => host.log.error({ err: error }, 'missed pickup check failed'),
  );
  host.expose('missedPickupsCheck', missed);
  host.runPeriodically(missed);
  host.routes?.add('account', pickupsRoutes(pickups));
}
