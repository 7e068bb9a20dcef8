import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { Host } from '../../http/host.js';
import { codReportsRoutes } from './cod-reports.routes.js';
import { createCodReports } from './cod-reports.service.js';

/** The COD reports: receivables, remittances and what is overdue. */
export function registerCodReports(
  host: Host,
  { db, clock, rates }: { db: Db; clock: Clock; rates: Pick<RatesContext, 'catalogue'> },
) {
  host.routes?.add('account', codReportsRoutes(createCodReports({ db, clock, catalogue: rates.catalogue })));
}
