import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { rtoSettingsRoutes } from './rto.routes.js';
import { createRtoSettingsService } from './rto.service.js';

/** Each account's RTO settings (how risky a booking it takes). */
export function registerRto(host: Host, { db, clock }: { db: Db; clock: Clock }) {
  host.routes?.add('account', rtoSettingsRoutes(createRtoSettingsService({ db, clock })));
}
