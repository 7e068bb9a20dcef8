import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { hostWorker, type Pace } from '../../events/delivery.js';
import type { EventLog } from '../../events/event-log.js';
import type { Host } from '../../http/host.js';
import type { ApplyShipmentEvents } from '../contracts.js';
import { createNdrRules, type NdrRules } from './ndr-rules.worker.js';
import { carrierActionRoutes, ndrRoutes } from './ndr.routes.js';
import { createNdrService } from './ndr.service.js';
import { createAddressCorrection } from './address-correction.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The accounts' NDR rules at work; tests run them with app.ndrRules.runOnce(). */
    ndrRules: NdrRules;
  }
}

export interface NdrContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'calendar'>;
  events: EventLog;
  settings: { workers: Pace };
  applyShipmentEvents: ApplyShipmentEvents;
}

/**
 * NDR: the merchant's actions, the instructions couriers fetch, and the accounts' rules; and the
 * address correction it hands orders (PUT /order during a failed delivery). Where timers run, a
 * worker plans and carries out the rules, woken by each event recorded here; their consumer's
 * cursor is made with the database, so they act on every NDR raised since.
 */
export function registerNdr(host: Host, { db, clock, rates, events, settings, applyShipmentEvents }: NdrContext) {
  const ndr = createNdrService({
    db,
    clock,
    calendar: rates.calendar,
    events,
    applyShipmentEvents,
    record: auditRecorder(clock),
  });
  const rules = createNdrRules({ db, clock, calendar: rates.calendar, events, ndr });
  if (host.timers)
    hostWorker(host, { db, events }, rules.tasks, { ...settings.workers, failed: 'NDR rules task failed' });
  host.expose('ndrRules', rules);
  host.routes?.add('account', ndrRoutes(ndr));
  host.routes?.add('carrierActions', carrierActionRoutes(ndr));
  return { ...ndr, correctDeliveryAddress: createAddressCorrection({ events }) };
}
