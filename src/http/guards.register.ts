import type { Clock } from '../base/clock.js';
import type { SecretBox } from '../base/secret-box.js';
import type { Db } from '../base/db/client.js';
import type { RedisBreaker } from '../base/redis.js';
import { adminAuth } from './auth.js';
import { type Host, ROUTE_SCOPES } from './host.js';
import { buyerDataGuard, permissionGuard } from './permission-guard.js';
import { storeGuard } from './store-guard.js';
import type { LocateStores, StoreReach } from '../domain/access/store-reach.js';
import type { Permission } from '../domain/access/permissions.js';
import { installIdempotency } from './idempotency.js';
import type { LimitSettings } from './limits.settings.js';
import { installAccountRateLimit } from './rate-limit.js';
import { ADMIN_DISABLED, type ServerSettings } from './server.settings.js';

export interface GuardsContext {
  db: Db;
  clock: Clock;
  settings: { server: ServerSettings; limits: LimitSettings };
  breaker: RedisBreaker | undefined;
  /** Keys the kept fingerprints of idempotent requests' bodies. */
  secretBox: Pick<SecretBox, 'mac'>;
  /** Every account route and the permission it needs (src/route-permissions.ts). */
  routePermissions: ReadonlyMap<string, Permission>;
  /** Account routes whose answers print buyers' details: they need buyers:read too. */
  buyerDocuments: ReadonlySet<string>;
  /** How each account route keeps to a store-limited credential (src/route-permissions.ts). */
  storeReach: ReadonlyMap<string, StoreReach>;
  /** Finds the stores of the shipments, orders and stores a request names. */
  locateStores: LocateStores;
}

/**
 * What the HTTP kit puts in front of the account and operator scopes: after the account's
 * credential check (registerAccounts), the permission its route needs, the stores a limited
 * credential keeps to, its request limit (counted
 * per account), idempotency and the masking of buyers' details;
 * the operator token on /admin/v1, or, without ADMIN_TOKEN, a 404 that says why, so nobody hunts
 * for a typo.
 */
export function registerGuards(
  host: Host,
  {
    db,
    clock,
    settings,
    breaker,
    secretBox,
    routePermissions,
    buyerDocuments,
    storeReach,
    locateStores,
  }: GuardsContext,
) {
  // Before the limit and idempotency: a request refused for its scopes is not counted nor kept.
  host.routes?.guard('account', permissionGuard(routePermissions, ROUTE_SCOPES.account, buyerDocuments));
  // Before idempotency's handler too: another store's shipment is not found, not replayed.
  host.routes?.guard('account', storeGuard(storeReach, ROUTE_SCOPES.account, locateStores));
  host.routes?.guard('account', async (scope) => {
    await installAccountRateLimit(scope, {
      perMinute: settings.limits.ratePerMinute,
      redis: breaker,
      keyPrefix: settings.limits.redisKeyPrefix,
    });
    installIdempotency(scope, { db, clock, mac: (text) => secretBox.mac('idempotency', text) });
  });
  host.routes?.guard('account', buyerDataGuard);
  const { adminToken } = settings.server;
  if (adminToken) host.routes?.guard('admin', (scope) => scope.addHook('onRequest', adminAuth(adminToken)));
  else host.routes?.close('admin', ADMIN_DISABLED);
}
