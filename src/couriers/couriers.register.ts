import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import type { SecretBox } from '../base/secret-box.js';
import type { RatesContext } from '../domain/rates/context.js';
import type { EventLog } from '../events/event-log.js';
import type { Host } from '../http/host.js';
import type { ParcelScans } from './carrier-event.js';
import { createHealthRecorder } from './connector-health.js';
import { courierConnectionsRoutes } from './courier-connections.routes.js';
import { createCourierConnections } from './courier-connections.service.js';
import { createCourierCredentials } from './courier-credentials.service.js';
import { checkAwbSeries } from './awb-series.js';
import { buildApiConnector, createConnectors, createCouriers } from './couriers.service.js';
import type { CourierSettings } from './couriers.settings.js';
import { createTrackingPoller, type TrackingPoller } from './tracking-poller.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pulls couriers' scans and hands them NDR instructions; tests run rounds with runOnce(). */
    courierPoller: TrackingPoller;
  }
}

export interface CouriersContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue'>;
  settings: { couriers: CourierSettings };
  /** Seals the courier credentials accounts store. */
  secretBox: SecretBox;
  /** Where a courier's refusal of an NDR instruction is recorded. */
  events: EventLog;
  /** The tracking intake (features/tracking): pulled scans enter it as pushed ones do. */
  ingest(carrierId: string, scans: ReadonlyMap<string, ParcelScans>): Promise<{ gone: number }>;
}

/**
 * The couriers: a connector per service, accounts' own credentials (re-read every few seconds),
 * the connections' health and routes, and the tracking poller.
 */
export async function registerCouriers(
  host: Host,
  { db, clock, rates, settings, secretBox, events, ingest }: CouriersContext,
) {
  const { catalogue } = rates;
  // An allotted AWB series that overlaps waybills already issued stops start-up, naming both.
  await checkAwbSeries(db, catalogue);
  const health = createHealthRecorder({ db, clock, log: host.log });
  const credentials = createCourierCredentials({
    db,
    clock,
    box: secretBox,
    settings: settings.couriers,
    health,
    build: (name, connectorSettings, recorder, healthKey) =>
      buildApiConnector(name, connectorSettings, clock, recorder, healthKey),
  });
  await credentials.load(host.log);
  host.onClose(() => credentials.stop());
  const couriers = createCouriers({
    db,
    clock,
    catalogue,
    connectors: createConnectors(catalogue, settings.couriers, db, clock, health),
    accountConnector: credentials.connectorFor,
    events,
    log: host.log,
  });
  // Reports the poller's last calls: it stops first (close hooks run last added first).
  host.onClose(() => health.flush());
  const poller = createTrackingPoller({
    db,
    clock,
    couriers,
    ingest,
    pollSeconds: settings.couriers.pollSeconds,
    log: host.log,
  });
  host.expose('courierPoller', poller);
  host.runPeriodically(poller);
  host.routes?.add(
    'account',
    courierConnectionsRoutes(createCourierConnections({ db, catalogue, health, credentials }), credentials),
  );
  return couriers;
}
