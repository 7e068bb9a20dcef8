import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { Host } from '../../http/host.js';
import { createExchangeListing } from './exchange-listing.js';
import { exchangeListingRoutes } from './exchange-listing.routes.js';

/** The exchange listing (POST /exchange-orders). */
export function registerExchangeListing(host: Host, { db, rates }: { db: Db; rates: Pick<RatesContext, 'catalogue'> }) {
  host.routes?.add('account', exchangeListingRoutes(createExchangeListing({ db, catalogue: rates.catalogue })));
}
