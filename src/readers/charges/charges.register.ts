import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import { chargesRoutes } from './charges.routes.js';
import { createChargesService } from './charges.service.js';

/** Shipping charges by AWB. */
export function registerChargesReader(host: Host, { db }: { db: Db }) {
  host.routes?.add('account', chargesRoutes(createChargesService({ db })));
}
