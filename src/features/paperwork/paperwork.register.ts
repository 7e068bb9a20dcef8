import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { OutboundSettings } from '../../base/outbound/outbound.settings.js';
import type { Resolver } from '../../base/outbound/outbound-url.js';
import type { SecretBox } from '../../base/secret-box.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { EwayBillRules } from '../../domain/paperwork/eway-bill-data.js';
import type { Host } from '../../http/host.js';
import { createEwayBillGeneration } from './eway-bill-generation.service.js';
import { createGatewaySettings } from './eway-bill-gateway-settings.service.js';
import { ewayBillRoutes } from './eway-bill.routes.js';
import { createGspGateway } from './gsp-client.js';
import { paperworkRoutes } from './paperwork.routes.js';
import { createPaperworkSettingsService } from './paperwork.service.js';

interface PaperworkContext {
  db: Db;
  clock: Clock;
  ewayBillRules: EwayBillRules;
  rates: Pick<RatesContext, 'directory'>;
  secretBox: SecretBox;
  settings: { outbound: OutboundSettings };
  lookup?: Resolver;
}

/**
 * Shipping paperwork: the account's settings, and what a booking needs of them: rule 138's data
 * and the account's choice for an order without its e-way bill; and Part A generated through the
 * account's GSP.
 */
export function registerPaperwork(host: Host, ctx: PaperworkContext) {
  const { db, clock, ewayBillRules } = ctx;
  const settings = createPaperworkSettingsService({ db, clock });
  // A GSP's base_url is the account's: the one outbound guard judges it, by the operator's rules.
  const outbound = { ...ctx.settings.outbound, lookup: ctx.lookup };
  const gateways = createGatewaySettings({ db, clock, box: ctx.secretBox, outbound });
  const generation = createEwayBillGeneration({
    db,
    clock,
    rules: ewayBillRules,
    directory: ctx.rates.directory,
    gateways,
    gateway: createGspGateway(outbound),
  });
  host.routes?.add('account', paperworkRoutes(settings));
  host.routes?.add('account', ewayBillRoutes(gateways, generation));
  return { ewayBill: { rules: ewayBillRules, checkOf: settings.ewayBillCheckOf } };
}
