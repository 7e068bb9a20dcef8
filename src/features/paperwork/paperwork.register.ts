import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { EwayBillRules } from '../../domain/paperwork/eway-bill-data.js';
import type { Host } from '../../http/host.js';
import { paperworkRoutes } from './paperwork.routes.js';
import { createPaperworkSettingsService } from './paperwork.service.js';

interface PaperworkContext {
  db: Db;
  clock: Clock;
  ewayBillRules: EwayBillRules;
}

/**
 * Shipping paperwork: the account's settings, and what a booking needs of them: rule 138's data
 * and the account's choice for an order without its e-way bill.
 */
export function registerPaperwork(host: Host, { db, clock, ewayBillRules }: PaperworkContext) {
  const settings = createPaperworkSettingsService({ db, clock });
  host.routes?.add('account', paperworkRoutes(settings));
  return { ewayBill: { rules: ewayBillRules, checkOf: settings.ewayBillCheckOf } };
}
