import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { Host } from '../../http/host.js';
import { createReturnsListing } from './returns-listing.js';
import { returnsListingRoutes } from './returns-listing.routes.js';

/** The returns listing. */
export function registerReturnsListing(host: Host, { db, rates }: { db: Db; rates: Pick<RatesContext, 'catalogue'> }) {
  host.routes?.add('account', returnsListingRoutes(createReturnsListing({ db, catalogue: rates.catalogue })));
}
