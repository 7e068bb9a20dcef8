import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EventLog } from '../../events/event-log.js';
import type { FileImports } from '../../http/file-imports.js';
import type { Host } from '../../http/host.js';
import { codLedgerAdminRoutes, codLedgerRoutes } from './cod-ledger.routes.js';
import { createCodLedger } from './cod-ledger.service.js';
import { COD_OVERDUE_CHECK_INTERVAL_MS, createOverdueCheck, type OverdueCheck } from './cod-overdue.worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Finds COD cash unpaid past its expected day, hourly; stops with the app. */
    codOverdueCheck: OverdueCheck;
  }
}

export interface CodLedgerContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue' | 'calendar'>;
  events: EventLog;
  imports: FileImports;
}

/** The COD ledger: receivables, remittances and their imports, and the hourly overdue check. */
export function registerCodLedger(host: Host, { db, clock, rates, events, imports }: CodLedgerContext) {
  const ledger = createCodLedger({ ...rates, db, clock, events });
  const overdue = createOverdueCheck(ledger, COD_OVERDUE_CHECK_INTERVAL_MS, host.log);
  host.expose('codOverdueCheck', overdue);
  host.runPeriodically(overdue);
  host.routes?.add('account', codLedgerRoutes(ledger, imports));
  host.routes?.add('admin', codLedgerAdminRoutes(ledger, imports));
  return ledger;
}
