import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { reportsRoutes } from './reports.routes.js';
import { createReportsService } from './reports.service.js';

/** Velocity's summary report. */
export function registerReports(host: Host, { db, clock }: { db: Db; clock: Clock }) {
  host.routes?.add('account', reportsRoutes(createReportsService({ db, clock })));
}
