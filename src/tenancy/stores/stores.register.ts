import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { Host } from '../../http/host.js';
import type { ServerSettings } from '../../http/server.settings.js';
import { invoiceDetailsRoutes } from './invoice-details.routes.js';
import { createInvoiceDetailsService } from './invoice-details.service.js';
import { publicLogoRoutes, storesRoutes } from './stores.routes.js';
import { createStoresService, type RecordStoreEvent } from './stores.service.js';

export interface StoresContext {
  db: Db;
  clock: Clock;
  settings: { server: ServerSettings };
  /** Records store.updated in the change's transaction (the event log, a floor above). */
  events: { record: RecordStoreEvent };
}

/** Stores (brands, logos, the seller's invoice details): their routes, and their logos' public links. */
export function registerStores(host: Host, { db, clock, settings, events }: StoresContext) {
  const stores = createStoresService({
    db,
    clock,
    publicBaseUrl: settings.server.publicBaseUrl,
    recordEvent: events.record,
  });
  host.routes?.add('public', publicLogoRoutes(stores));
  host.routes?.add('account', storesRoutes(stores));
  host.routes?.add('account', invoiceDetailsRoutes(createInvoiceDetailsService({ db, clock })));
  return stores;
}
