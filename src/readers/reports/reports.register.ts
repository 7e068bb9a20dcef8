import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { reportsRoutes } from './reports.routes.js';
import { createReportsService } from './reports.service.js';

/** Velocity's summary report. */
export function registerReports(host: Host, { db }: { db: Db }) {
  host.routes?.add('account', reportsRoutes(createReportsService({ db })));
}
