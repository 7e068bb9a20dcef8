import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { Host } from '../../http/host.js';
import { keptScansAdminRoutes, keptScansRoutes } from './kept-scans.routes.js';
import { createKeptScans, type KeptScans } from './kept-scans.service.js';
import type { TrackingService } from './tracking.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Courier scans kept unapplied, and their replay: what `cli scans replay` and tests run. */
    keptScans: KeptScans;
  }
}

export interface KeptScansContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue'>;
  tracking: TrackingService;
  couriers: Pick<Couriers, 'connectorOf'>;
}

/** The kept scans' lists and replay: after the couriers, whose connectors read the kept scans again. */
export function registerKeptScans(host: Host, { db, clock, rates, tracking, couriers }: KeptScansContext) {
  const kept = createKeptScans({ db, clock, catalogue: rates.catalogue, tracking, couriers });
  host.routes?.add('account', keptScansRoutes(kept));
  host.routes?.add('admin', keptScansAdminRoutes(kept));
  host.expose('keptScans', kept);
  return kept;
}
