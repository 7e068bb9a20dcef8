import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { ensureServerSecret } from '../../base/db/secrets.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { createLabelLinks, type LabelLinks } from '../../domain/shipment/label-links.js';
import type { EventLog } from '../../events/event-log.js';
import type { Host } from '../../http/host.js';
import type { ServerSettings } from '../../http/server.settings.js';
import type { ReissueLabel } from '../contracts.js';
import { invoiceRoutes } from './invoice.routes.js';
import { createInvoicesService } from './invoice.service.js';
import { labelLinkRoutes, labelsRoutes } from './labels.routes.js';
import { createLabelsService } from './labels.service.js';
import type { LabelSettings } from './labels.settings.js';

export interface LabelsContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue' | 'directory'>;
  events: EventLog;
  settings: { server: ServerSettings; labels: LabelSettings };
}

/**
 * Labels and manifests, and the signed links they are fetched by: the links go to the modules that
 * hand them out (orders, returns, the shipment listings), the re-issue to orders (COD to prepaid).
 */
export async function registerLabels(
  host: Host,
  { db, clock, rates, events, settings }: LabelsContext,
): Promise<{ links: LabelLinks; reissue: ReissueLabel }> {
  const links = createLabelLinks({
    secret: await ensureServerSecret(db, 'label-links'),
    publicBaseUrl: settings.server.publicBaseUrl,
    ttlSeconds: settings.labels.urlTtlSeconds,
    clock,
  });
  const labels = createLabelsService({ db, links, catalogue: rates.catalogue, clock, events });
  host.routes?.add('public', labelsRoutes(labels));
  const invoices = createInvoicesService({ db, directory: rates.directory });
  host.routes?.add('account', labelLinkRoutes(labels, invoices));
  host.routes?.add('account', invoiceRoutes(invoices));
  return { links, reissue: (tx, actor, shipmentId, reason) => labels.reissue(actor, shipmentId, reason, tx) };
}
