import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EventLog } from '../../events/event-log.js';
import type { FileImports } from '../../http/file-imports.js';
import type { Host } from '../../http/host.js';
import type { ChargeSettings } from './charges.settings.js';
import { createDisputeSweeper, type DisputeSweeper } from './dispute-sweeper.worker.js';
import { weightDisputesAdminRoutes, weightDisputesRoutes } from './weight-disputes.routes.js';
import { createWeightDisputesService } from './weight-disputes.service.js';
import { weightReportAdminRoutes, weightReportRoutes } from './weight-reports.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Accepts weight discrepancies whose dispute window has run out; stops with the app. */
    weightDisputeSweeper: DisputeSweeper;
  }
}

export interface ChargesContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue'>;
  events: EventLog;
  settings: { charges: ChargeSettings };
  imports: FileImports;
}

/** Weight disputes: couriers' weight reports, the merchant's answer, and the sweep that closes the window. */
export function registerCharges(host: Host, { db, clock, rates, events, settings, imports }: ChargesContext) {
  const disputes = createWeightDisputesService({
    db,
    clock,
    catalogue: rates.catalogue,
    events,
    windowDays: settings.charges.disputeWindowDays,
  });
  const sweeper = createDisputeSweeper(disputes, (error) =>
    host.log.error({ err: error }, 'weight dispute sweep failed'),
  );
  host.expose('weightDisputeSweeper', sweeper);
  host.runPeriodically(sweeper);
  host.routes?.add('account', weightDisputesRoutes(disputes));
  host.routes?.add('account', weightReportRoutes(disputes, imports));
  host.routes?.add('admin', weightDisputesAdminRoutes(disputes));
  host.routes?.add('admin', weightReportAdminRoutes(disputes, imports));
}
