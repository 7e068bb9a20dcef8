import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_ERRORS } from '../domain/access/access.errors.js';
import { type LocateStores, reaches, type StoreReach } from '../domain/access/store-reach.js';
import { routeKey } from './permission-guard.js';

/** The stores the request's credential sees and acts on; null: every store. */
export const storesOf = (request: FastifyRequest): readonly string[] | null => request.principal?.stores ?? null;

/**
 * The one place a store-limited credential is kept to its stores (issue 51), read from the route's
 * entry in the store table (src/route-permissions.ts): a route answering nothing of a store is
 * open; a listing limits its own answer (storesOf); a route naming shipments, orders or stores has
 * each one's store found first, and one of another store answers 404 before the route runs, as
 * another account's would; what a request makes names one of the credential's stores (or the
 * shipment it comes from), or it is 422 store_required; every other route answers for all stores
 * at once and is refused (403 store_limited). Credentials reaching every store pay one comparison.
 * Entries naming no route fail the app's start.
 */
export function storeGuard(table: ReadonlyMap<string, StoreReach>, prefix: string, locate: LocateStores) {
  return (scope: FastifyInstance) => {
    const seen = new Set<string>();
    scope.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) seen.add(routeKey(method, route.url, prefix));
    });
    scope.addHook('onReady', async () => {
      const stale = [...table.keys()].filter((key) => !seen.has(key));
      if (stale.length > 0)
        throw new Error(`src/route-permissions.ts keeps stores for routes that do not exist: ${stale.join(', ')}`);
    });
    // Refused before anything else runs (its body is not even read), as a missing permission is.
    scope.addHook('onRequest', (request, _reply, done) => {
      const reach = storesOf(request);
      // Every store: passed before request.routeOptions, which Fastify builds afresh on each read.
      if (reach === null) return done();
      const url = request.routeOptions.url;
      if (url === undefined || table.has(routeKey(request.method, url, prefix))) return done();
      done(
        ACCESS_ERRORS.store_limited.error(
          `This route answers for every store of the account; this credential reaches ${reach.length} of them`,
        ),
      );
    });
    // The objects a request names are read from its body once it is parsed and coerced. A
    // credential reaching every store, and a route naming nothing, pass without a promise: the
    // quote a checkout asks for costs no more than before.
    scope.addHook('preHandler', (request, _reply, done) => {
      const reach = storesOf(request);
      if (reach === null) return done();
      const url = request.routeOptions.url;
      if (url === undefined) return done();
      const how = table.get(routeKey(request.method, url, prefix));
      if (typeof how !== 'function') return done();
      const named = how({ params: request.params, body: request.body });
      if (named.unplaced)
        return done(
          ACCESS_ERRORS.store_required.error(
            `${named.unplaced.field}: this credential is limited to stores, so ${named.unplaced.why}`,
            named.unplaced.field,
          ),
        );
      locate(request.accountId, named).then((found) => {
        const outside = found.filter((one) => !reaches(reach, one.storeId));
        if (outside.length === 0) return done();
        done(
          ACCESS_ERRORS.outside_credential_stores.error(
            outside.map((one) => `${one.kind} ${one.named}: not found among this credential's stores`),
          ),
        );
      }, done);
    });
  };
}
